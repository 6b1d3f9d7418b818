import PlainText
import Testing
import TouchModel

@Suite struct TimestampTests {
    @Test func secondsRoundTrip() {
        let t = Timestamp(seconds: 1382570952.534113)
        #expect(t.microseconds == 1382570952534113)
        #expect(t.description == "1382570952.534113")
        #expect(t.adding(seconds: 0.1).seconds(since: t) == 0.1)
    }
}

@Suite struct ContactListTests {
    @Test func holdsUpToCapacityAndDropsTheRest() {
        var list = ContactList()
        for i in 0..<12 {
            let kept = list.append(Contact(id: Int32(i), position: Point(x: Double(i), y: 0)))
            #expect(kept == (i < ContactList.capacity))
        }
        #expect(list.count == ContactList.capacity)
        #expect(list.map(\.id) == Array(0..<Int32(ContactList.capacity)))
        #expect(list.contact(withID: 3)?.position.x == 3)
        #expect(list.contact(withID: 11) == nil)
    }

    @Test func framesCompareByContent() {
        let a = TouchFrame(time: Timestamp(microseconds: 1), contacts: ContactList([Contact(id: 1, position: .zero)]))
        var b = a
        #expect(a == b)
        b.contacts[0].position.x = 1
        #expect(a != b)
        #expect(a.fingerCount == 1)
    }
}

@Suite struct AngleTests {
    @Test(arguments: [(1.0, 0.0, 0.0), (0.0, 1.0, Double.pi / 2), (-1.0, 0.0, Double.pi),
                      (0.0, -1.0, -Double.pi / 2), (1.0, 1.0, Double.pi / 4), (-1.0, -1.0, -3 * Double.pi / 4),
                      (2.0, 0.5, 0.24497866312686414), (0.3, -7.0, -1.5279653941261693)])
    func atan2MatchesLibm(x: Double, y: Double, expected: Double) {
        #expect(abs(Angle.atan2(y, x) - expected) < 1e-9)
    }

    @Test func sweepAgreesWithinANanoradian() {
        var worst = 0.0
        for i in 0..<3600 {
            let a = Double(i) / 3600 * 2 * .pi - .pi + 0.0001
            // cos/sin from their own series so the test needs no libm either.
            let (x, y) = (cosTaylor(a), sinTaylor(a))
            worst = max(worst, abs(Angle.normalized(Angle.atan2(y, x) - a)))
        }
        #expect(worst < 1e-9)
    }

    private func sinTaylor(_ x: Double) -> Double {
        var term = x, sum = 0.0
        for n in 0..<30 { sum += term; term *= -x * x / Double((2 * n + 2) * (2 * n + 3)) }
        return sum
    }
    private func cosTaylor(_ x: Double) -> Double {
        var term = 1.0, sum = 0.0
        for n in 0..<30 { sum += term; term *= -x * x / Double((2 * n + 1) * (2 * n + 2)) }
        return sum
    }
}

@Suite struct FormattingTests {
    @Test(arguments: [(12.345, 1, "12.3"), (-0.04, 1, "0.0"), (-1.25, 2, "-1.25"), (3, 0, "3"),
                      (0.5, 3, "0.500"), (1234567.891, 2, "1234567.89"), (-2.5, 0, "-3"), (Double.nan, 2, "nan")])
    func fixedDecimals(value: Double, decimals: Int, expected: String) {
        #expect(value.fixed(decimals) == expected)
    }
}

/// Issue 10, finding 8: the one escaping every untrusted string goes through.
@Suite struct EscapingTests {
    @Test(arguments: [
        ("plain name", "plain name"),
        ("evil\n<0>forged emergency", #"evil\n<0>forged emergency"#),
        ("\u{1b}[2J\rcleared", #"\u001b[2J\rcleared"#),
        ("tab\tstays", "tab\tstays"),
        ("del\u{7f} csi\u{9b} bom\u{feff} ls\u{2028}", #"del\u007f csi\u009b bom\ufeff ls\u2028"#),
        ("Élan «touch» 指", "Élan «touch» 指"),
    ])
    func printableHasNoControlCharacterLeft(_ raw: String, _ shown: String) {
        #expect(raw.printable == shown)
        #expect(!raw.printable.unicodeScalars.contains { $0.value < 0x20 && $0 != "\t" })
    }

    @Test func quotedIsOneJSONAndYAMLString() {
        #expect("a \"b\" \\ c\td\n".quoted == #""a \"b\" \\ c\td\n""#)
        #expect("\u{0}\u{1b}".quoted == #""\u0000\u001b""#)
    }
}
