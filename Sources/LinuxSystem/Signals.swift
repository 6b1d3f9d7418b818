import CLinux
import Glibc

/// Signals read from a signalfd(2) instead of run as handlers, so they arrive as
/// events on the loop. The signals are blocked (sigprocmask(2)) while this lives and
/// unblocked when it goes; children must be spawned with an empty mask (see `Spawn`).
public struct SignalDescriptor: ~Copyable {
    public let signals: [Int32]
    private let file: OwnedFileDescriptor

    public var descriptor: FileDescriptor { file.descriptor }

    /// sigprocmask(2) `SIG_BLOCK`, then signalfd(2) (non-blocking, close-on-exec).
    public init(_ signals: [Int32]) throws(Errno) {
        var mask = Self.mask(signals)
        sigprocmask(SIG_BLOCK, &mask, nil)
        do throws(Errno) {
            file = try OwnedFileDescriptor { clinux_signalfd(&mask) }
        } catch {
            sigprocmask(SIG_UNBLOCK, &mask, nil)
            throw error
        }
        self.signals = signals
    }

    deinit {
        var mask = Self.mask(signals)
        sigprocmask(SIG_UNBLOCK, &mask, nil)
    }

    /// read(2)s of `signalfd_siginfo` until none is pending: the signal numbers, in order.
    public func drain() -> [Int32] {
        var out: [Int32] = []
        while let signal = try? valueOrErrno({ clinux_signalfd_read(descriptor.rawValue, nil, nil) }), signal > 0 {
            out.append(signal)
        }
        return out
    }

    private static func mask(_ signals: [Int32]) -> sigset_t {
        var mask = sigset_t()
        sigemptyset(&mask)
        for s in signals { sigaddset(&mask, s) }
        return mask
    }
}

public enum Signals {
    /// signal(2) `SIGPIPE` → `SIG_IGN`. A daemon whose log reader (journald being
    /// restarted, a closed terminal) goes away must not die at its next log line; the
    /// write fails with `EPIPE` instead, which the writer handles. Children get the
    /// default disposition back (`Spawn` resets every signal).
    public static func ignoreBrokenPipe() {
        _ = signal(SIGPIPE, SIG_IGN)
    }

    /// signal(2) `SIGPIPE` → `SIG_DFL`, then raise(3) it: the death a process that did
    /// not ignore SIGPIPE would have died at its write to a pipe with no reader.
    public static func dieOfBrokenPipe() -> Never {
        _ = signal(SIGPIPE, SIG_DFL)
        raise(SIGPIPE)
        exit(128 + SIGPIPE)  // not reached unless SIGPIPE is blocked
    }

    /// "SIGTERM", from sigabbrev_np(3); "signal N" for a number with no name.
    public static func name(_ signal: Int32) -> String {
        clinux_sigabbrev(signal).map { "SIG" + String(cString: $0) } ?? "signal \(signal)"
    }
}
