import Glibc
import TouchModel

/// Unbuffered-enough output for a daemon: whole lines, straight to the fd.
enum Output {
    static func out(_ s: String) { write(1, s + "\n") }
    static func err(_ s: String) { write(2, s + "\n") }

    static func write(_ fd: Int32, _ s: String) {
        var s = s
        s.withUTF8 { buf in
            var off = 0
            while off < buf.count {
                let n = Glibc.write(fd, buf.baseAddress! + off, buf.count - off)
                if n < 0 { if errno == EINTR { continue }; return }
                off += n
            }
        }
    }
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
