import DaemonCore
import LinuxSystem
import PlainText
import TouchModel

/// Reads one child's stdout or stderr pipe and turns it into log lines, safely
/// against floods: lines are cut at `maxLineBytes`, at most `linesPerWindow` lines
/// per second reach the log (the rest are counted and reported), and one call
/// reads at most `readBudget` bytes so a chatty child cannot starve the loop.
final class OutputReader {
    /// The pipe's read end, non-blocking; closed when the reader goes.
    private let pipe: OwnedFileDescriptor
    let gesture: String
    let priority: LogPriority
    /// The child it belongs to; nil once the child is reaped (a grandchild may still hold the pipe).
    var child: Int?

    static let maxLineBytes = 1024
    static let linesPerWindow = 50
    static let windowNs: Int64 = 1_000_000_000
    static let readBudget = 64 * 1024

    private var line: [UInt8] = []
    private var truncated = false
    private var limit = LogRateLimit(perWindow: linesPerWindow, windowNs: windowNs)

    init(pipe: consuming OwnedFileDescriptor, gesture: String, priority: LogPriority, child: Int) {
        self.pipe = pipe
        self.gesture = gesture
        self.priority = priority
        self.child = child
    }

    var fd: FileDescriptor { pipe.descriptor }

    /// Reads what is available; returns false at end of file or on error (the caller closes).
    func drain(now: Int64, log: (LogPriority, String) -> Void) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var total = 0
        while total < Self.readBudget {
            let n: Int
            do throws(Errno) {
                n = try fd.read(into: &buffer)
            } catch {
                if error == .wouldBlock { return true }
                n = 0  // any other error ends the stream, as end of file does
            }
            guard n > 0 else {
                finish(now: now, log: log)
                return false
            }
            total += n
            for byte in buffer[0..<n] { take(byte, now: now, log: log) }
        }
        return true
    }

    /// End of stream: the last unterminated line and the count of suppressed ones.
    func finish(now: Int64, log: (LogPriority, String) -> Void) {
        if !line.isEmpty || truncated { emit(now: now, log: log) }
        reportSuppressed(limit.takeSuppressed(), log: log)
    }

    private func take(_ byte: UInt8, now: Int64, log: (LogPriority, String) -> Void) {
        if byte == UInt8(ascii: "\n") {
            emit(now: now, log: log)
        } else if line.count < Self.maxLineBytes {
            line.append(byte)
        } else {
            truncated = true
        }
    }

    private func emit(now: Int64, log: (LogPriority, String) -> Void) {
        defer { line.removeAll(keepingCapacity: true); truncated = false }
        let (allowed, before) = limit.admit(now: now)
        reportSuppressed(before, log: log)
        guard allowed else { return }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        // Control characters could forge log lines or terminal escapes.
        let text = String(decoding: line, as: UTF8.self).printable
        log(priority, "[\(gesture)] \(text)\(truncated ? " […]" : "")")
    }

    private func reportSuppressed(_ suppressed: Int, log: (LogPriority, String) -> Void) {
        guard suppressed > 0 else { return }
        log(.warning, "[\(gesture)] \(suppressed) lines of output suppressed (more than \(Self.linesPerWindow) a second)")
    }
}
