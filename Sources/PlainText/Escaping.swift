/// The one escaping of untrusted text for output. A device's name comes from
/// hardware the user may not trust (any USB gadget can claim to be a touchscreen),
/// a recording or config from anywhere: printed raw, a newline forges a log line
/// (`\n<0>…` reads as an emergency in the journal) and ESC or CR rewrite the
/// terminal. Every device-, file- or command-supplied string goes through here
/// before it reaches a log, a terminal, JSON or a YAML file.
extension String {
    /// For a log line or a terminal: control characters become `\n`, `\r`,
    /// `\u001b`…; tabs and everything printable stay as they are.
    public var printable: String { escaped(quoting: false) }

    /// A double-quoted string that is both a JSON string and a YAML double-quoted
    /// scalar (libyaml refuses raw control characters, DEL, C1 and U+FEFF inside one).
    public var quoted: String { "\"" + escaped(quoting: true) + "\"" }

    private func escaped(quoting: Bool) -> String {
        guard unicodeScalars.contains(where: { $0.needsEscape || (quoting && ($0 == "\"" || $0 == "\\" || $0 == "\t")) }) else {
            return self
        }
        var out = String.UnicodeScalarView()
        for ch in unicodeScalars {
            switch ch {
            case "\"" where quoting, "\\" where quoting: out.append("\\"); out.append(ch)
            case "\t" where quoting: out.append(contentsOf: "\\t".unicodeScalars)
            case "\n": out.append(contentsOf: "\\n".unicodeScalars)
            case "\r": out.append(contentsOf: "\\r".unicodeScalars)
            case _ where ch.needsEscape:
                let hex = String(ch.value, radix: 16)
                out.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
            default: out.append(ch)
            }
        }
        return String(out)
    }
}

extension Unicode.Scalar {
    /// C0 controls but tab, DEL, C1 controls (0x9b is a one-byte CSI to some
    /// terminals), the Unicode line and paragraph separators, and the BOM. Public for
    /// the event stream's byte-level JSON (GesturedCLI/Stream), which escapes the same.
    public var needsEscape: Bool {
        (value < 0x20 && self != "\t") || (0x7f...0x9f).contains(value) || value == 0x2028 || value == 0x2029 || value == 0xfeff
    }
}
