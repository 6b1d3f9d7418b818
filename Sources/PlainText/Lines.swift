/// The lines of a text file as users write them: each ends at `\n`, `\r\n` or a lone
/// `\r` (what Python's universal newlines take, and so libinput-gestures). Splitting
/// on the Character `"\n"` is not enough: Swift keeps `"\r\n"` as one Character, so a
/// file written on Windows would be one long line.
///
/// The last line is the text after the last line end, empty when the text ends with
/// one, so line numbers count from 1 as an editor shows them.
extension StringProtocol {
    public var textLines: [SubSequence] {
        split(omittingEmptySubsequences: false, whereSeparator: \.isLineEnd)
    }
}

extension Character {
    /// `\n`, `\r\n` or `\r`: the ends of a line in a text file.
    public var isLineEnd: Bool { self == "\n" || self == "\r\n" || self == "\r" }
}

/// The lines of bytes not yet known to be UTF-8, ended as `textLines` ends them; for
/// readers that check each line's length and encoding at its own line number.
public func textLines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
    var lines: [ArraySlice<UInt8>] = []
    var start = 0, i = 0
    while i < bytes.count {
        switch bytes[i] {
        case 0x0A:
            lines.append(bytes[start..<i])
            start = i + 1
        case 0x0D:
            lines.append(bytes[start..<i])
            if i + 1 < bytes.count && bytes[i + 1] == 0x0A { i += 1 }
            start = i + 1
        default:
            break
        }
        i += 1
    }
    lines.append(bytes[start...])
    return lines
}
