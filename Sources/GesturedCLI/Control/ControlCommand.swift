import LinuxSystem
import TouchModel

/// `gestured status|enable|disable|reload`: one request to the running daemon over
/// its control socket (ControlProtocol.swift), and its answer on stdout.
enum ControlCommand {
    static let statusHelp = """
    usage: gestured status [--json]

    Asks the running daemon (this user's) what it is doing: the config in use, the
    devices, every gesture and whether it is enabled, the focused app and where it
    comes from, and the last gestures with the commands they ran.

      --json   the same as one JSON object
    """

    static let enableHelp = """
    usage: gestured enable NAME

    Enables the gesture NAME in the running daemon until it stops (a config with
    'enabled: false' starts it disabled). Survives config reloads.
    """

    static let disableHelp = """
    usage: gestured disable NAME

    Disables the gesture NAME in the running daemon until it stops or
    'gestured enable NAME'. A disabled app-specific gesture gives the gesture back
    to the global binding of it.
    """

    static let reloadHelp = """
    usage: gestured reload

    Makes the running daemon read its config again (as SIGHUP) and says whether the
    new config was taken; an invalid one is reported and the old one keeps running.
    """

    static func status(_ args: ArraySlice<String>) throws -> GesturedCommand.ExitCode {
        let a = try Arguments(args, spec: .init(flags: ["json"], options: []))
        guard a.positionals.isEmpty else { throw UsageError("unexpected argument '\(a.positionals[0])'") }
        return send(.status(json: a.flag("json")))
    }

    static func enable(_ args: ArraySlice<String>) throws -> GesturedCommand.ExitCode {
        try send(.enable(name(args)))
    }

    static func disable(_ args: ArraySlice<String>) throws -> GesturedCommand.ExitCode {
        try send(.disable(name(args)))
    }

    static func reload(_ args: ArraySlice<String>) throws -> GesturedCommand.ExitCode {
        let a = try Arguments(args, spec: .init(flags: [], options: []))
        guard a.positionals.isEmpty else { throw UsageError("unexpected argument '\(a.positionals[0])'") }
        return send(.reload)
    }

    private static func name(_ args: ArraySlice<String>) throws -> String {
        let a = try Arguments(args, spec: .init(flags: [], options: []))
        guard a.positionals.count == 1 else { throw UsageError("needs one gesture NAME (gestured status lists them)") }
        return a.positionals[0]
    }

    /// Longest wait for the daemon's answer.
    static let timeoutMS: Int32 = 5000

    static func send(_ request: ControlRequest) -> GesturedCommand.ExitCode {
        switch exchange(request, environment: Logger.environment()) {
        case .failure(let error):
            Output.err("gestured: \(error)")
            return .failure
        case .success(let reply):
            try? FileDescriptor.standardOutput.writeAll(reply.body)
            if !reply.ok { Output.err("gestured: \(reply.message.printable)") }
            return reply.ok ? .success : .failure
        }
    }

    /// Connects to this user's daemon, or says why not in words a user can act on.
    static func connect(environment: [String: String]) throws(ControlError) -> StreamSocket {
        guard let path = ControlPath.resolve(environment) else {
            throw ControlError("XDG_RUNTIME_DIR is not set, so there is no control socket to find; run this in the desktop session that runs gestured")
        }
        do throws(Errno) {
            return try StreamSocket.connect(to: path)
        } catch .noSuchFileOrDirectory {
            throw ControlError("no gestured is running for this user (no control socket at \(path)); start it: systemctl --user start gestured")
        } catch .connectionRefused {
            throw ControlError("no gestured is running: \(path) is a stale socket left by a daemon that did not exit cleanly; starting gestured replaces it")
        } catch where error == .permissionDenied || error == .notPermitted {
            let owner = (try? FileSystem.status(path)).map { "uid \($0.owner)" } ?? "another user"
            throw ControlError("permission denied: \(path) belongs to \(owner); the control socket answers only the user the daemon runs as")
        } catch {
            throw ControlError("cannot connect to \(path): \(error)")
        }
    }

    static func exchange(_ request: ControlRequest, environment: [String: String]) -> Result<ControlReply, ControlError> {
        let socket: StreamSocket
        do throws(ControlError) {
            socket = try connect(environment: environment)
        } catch {
            return .failure(error)
        }
        let path = ControlPath.resolve(environment) ?? ""
        // Nothing is sent to, and nothing believed from, a server of another user: in a
        // runtime directory that is not ours alone, anyone can listen here first.
        let server = try? socket.peerCredentials()
        guard let server, server.uid == Process.userID else {
            let who = server.map { "uid \($0.uid) (pid \($0.pid))" } ?? "a process whose user cannot be known"
            let why = ControlPath.unsafeDirectory(of: path).map { "; \($0)" } ?? ""
            return .failure(ControlError("refusing to talk to \(path): it is served by \(who), not by you (uid \(Process.userID)), so it is not your gestured\(why)"))
        }
        // A daemon that refuses us answers and closes before reading: its answer is
        // still there to read after a failed write (EPIPE).
        do throws(Errno) {
            try socket.sendAll(Array((request.line + "\n").utf8))
        } catch where error != .brokenPipe {
            return .failure(ControlError("cannot send the request to \(path): \(error)"))
        } catch {}
        var reply: [UInt8] = []
        let deadline = monotonicNanoseconds() / 1_000_000 + Int64(timeoutMS)
        while true {
            let left = Int32(max(0, deadline - monotonicNanoseconds() / 1_000_000))
            guard (try? Poll.ready([socket.descriptor], timeoutMS: left))?.first == true else {
                return .failure(ControlError("the daemon did not answer within \(timeoutMS / 1000) s"))
            }
            switch socket.readAvailable(into: &reply, limit: 16 << 20) {
            case .drained: continue
            case .failed(let e): return .failure(ControlError("reading the answer: \(e)"))
            case .closed:
                guard let r = ControlReply.parse(String(decoding: reply, as: UTF8.self)) else {
                    return .failure(ControlError("the daemon's answer is not one this gestured understands"))
                }
                return .success(r)
            }
        }
    }
}
