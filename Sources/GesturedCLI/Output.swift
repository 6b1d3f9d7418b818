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

    static func err(_ s: String) { try? FileDescriptor.standardError.writeAll(s + "\n") }
}

/// JSON text without Foundation: strings escaped, numbers as given.
enum JSON {
    static func string(_ s: String) -> String {
        var out = "\""
        for ch in s.unicodeScalars {
            switch ch {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where ch.value < 0x20:
                let hex = String(ch.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(ch)
            }
        }
        return out + "\""
    }

    static func number(_ v: Double, _ decimals: Int = 3) -> String { v.isFinite ? v.fixed(decimals) : "null" }

    /// `{"a": 1, "b": "x"}` from already-encoded values, in the order given.
    static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { string($0.0) + ": " + $0.1 }.joined(separator: ", ") + "}"
    }
}
