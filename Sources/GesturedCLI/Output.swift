import LinuxSystem
import TouchModel

/// Unbuffered-enough output for a command: whole lines, straight to the fd.
enum Output {
    /// Standard output is what a command produces (`watch`, `run --dry-run`): when its
    /// reader has gone (`| head`), the command ends as a filter would, by SIGPIPE, even
    /// in the daemon, which ignores SIGPIPE only so that its *log* can lose its reader.
    static func out(_ s: String) {
        do {
            try FileDescriptor.standardOutput.writeAll(s + "\n")
        } catch {
            if error == .brokenPipe { Signals.dieOfBrokenPipe() }
        }
    }

    /// One line that carries outside text (a device's name, an app id, a title, a
    /// config's names): escaped, so it stays one line and cannot drive the terminal.
    static func line(_ s: String) { out(s.printable) }

    static func err(_ s: String) { try? FileDescriptor.standardError.writeAll(s + "\n") }
}

/// JSON text without Foundation: strings escaped, numbers as given.
enum JSON {
    static func string(_ s: String) -> String { s.quoted }

    static func number(_ v: Double, _ decimals: Int = 3) -> String { v.isFinite ? v.fixed(decimals) : "null" }

    /// `{"a": 1, "b": "x"}` from already-encoded values, in the order given.
    static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { string($0.0) + ": " + $0.1 }.joined(separator: ", ") + "}"
    }
}
