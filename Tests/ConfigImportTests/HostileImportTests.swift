import Testing
@testable import ConfigImport
import GestureConfig
import GestureEngine

/// Files that are not what they claim: each is an error at its place, never a crash,
/// a hang or a partial result.
@Suite struct HostileImportTests {
    func error(_ text: String, _ format: ImportFormat) -> ImportError? {
        do throws(ImportError) {
            _ = try format.translate(Array(text.utf8), file: "f")
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [
        ("<touchégg>\n  <application name=\"All\">\n    <gesture type=\"SWIPE\" fingers=\"3\">\n  </application>\n</touchégg>\n", 4, 3, "'</application>' where '</gesture>' (opened at line 3) should close first"),
        ("<touchégg>\n  <gesture type=SWIPE>\n", 2, 17, "the value of 'type' must be quoted"),
        ("<touchégg>\n  <a>&nbsp;</a>\n</touchégg>\n", 2, 6, "unknown entity '&nbsp;'"),
        ("<touchégg>\n <!-- never closed\n", 2, 2, "a comment is never closed"),
        ("<touchégg>\n  <application>\n", 2, 3, "'<application>' is never closed"),
        ("<touchégg></touchégg>\n<second/>\n", 2, 1, "a second root element"),
        ("", 1, 1, "no root element"),
        ("<touchégg a=\"1\" a=\"2\"/>", 1, 22, "'a' given twice"),
        ("<touchégg>\n  text &amp; more\n  <a b=\"<\"/>\n</touchégg>", 3, 9, "'<' inside an attribute value"),
    ])
    func malformedXMLIsAnErrorAtItsPlace(text: String, line: Int, column: Int, message: String) throws {
        let e = try #require(error(text, .touchegg))
        #expect(e.line == line)
        #expect(e.column == column)
        #expect(e.message.hasPrefix(message), "\(e)")
    }

    /// A fusuma file of endless `---` documents is refused at the first past the bound,
    /// and each document's anchors are its own (an alias to another's is an error).
    @Test func endlessFusumaDocumentsAreRefusedAtTheirPlace() throws {
        let many = String(repeating: "---\ncontext: {application: a}\n", count: 70)
        let e = try #require(error(many, .fusuma))
        #expect((129...131).contains(e.line ?? 0) && e.message.contains("more than 64 YAML documents"), "\(e)")  // the 65th
        let crossing = "swipe: &s {3: {left: {command: a}}}\n---\ncontext: {application: b}\nswipe: *s\n"
        #expect(try #require(error(crossing, .fusuma)).message.contains("unknown alias '*s'"))
    }

    /// An application's name with a glob's characters in it names that application
    /// alone, from fusuma's appmatcher (which compares names whole) as from touchégg:
    /// `Gimp*` does not take `Gimp-2.10`'s gestures.
    @Test func anApplicationNamedWithGlobCharactersMatchesThatNameAlone() throws {
        let sources: [(ImportFormat, String)] = [
            (.fusuma, "---\ncontext: {application: 'Gimp*'}\nswipe: {3: {left: {command: a}}}\n"
                + "---\ncontext: {application: '[x]?'}\nswipe: {3: {right: {command: b}}}\n"),
            (.touchegg, "<touchégg><application name=\"Gimp*, [x]?\"><gesture type=\"SWIPE\" fingers=\"3\" direction=\"LEFT\">"
                + "<action type=\"RUN_COMMAND\"><command>a</command></action></gesture></application></touchégg>"),
        ]
        for (format, text) in sources {
            let imported = try format.translate(Array(text.utf8), file: "f")
            let (config, diagnostics) = ConfigLoader.parse(imported.yaml(source: "f"), file: "imported.yaml")
            let config_ = try #require(config, "\(format): \(diagnostics)")
            let filters = config_.specs.map(\.apps)
            try #require(!filters.isEmpty, "\(format)")
            for name in ["Gimp*", "[x]?"] {
                #expect(filters.contains { $0.admits(name) == nil }, "\(format): no gesture for '\(name)' itself")
            }
            for other in ["Gimp-2.10", "gimp", "x1", "[x]"] {
                #expect(filters.allSatisfy { $0.admits(other) != nil }, "\(format): '\(other)' took a gesture of another application's")
            }
        }
    }

    /// "Billion laughs": entities that expand to gigabytes. No DTD is read at all, so
    /// the error comes at the DOCTYPE, before any entity.
    @Test func anEntityBombIsRefusedAtItsDoctype() throws {
        var text = "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n <!ENTITY lol \"lol\">\n"
        for i in 1...9 { text += " <!ENTITY lol\(i) \"" + String(repeating: "&lol\(i == 1 ? "" : String(i - 1));", count: 10) + "\">\n" }
        text += "]>\n<touchégg>&lol9;</touchégg>\n"
        let e = try #require(error(text, .touchegg))
        #expect(e.description == "f:2:1: error: a DTD or declaration ('<!'): touchegg.conf has none, and entities are not expanded")
    }

    @Test func deepNestingIsRefusedBeforeItCostsAnything() throws {
        let text = "<touchégg>" + String(repeating: "<a>", count: 100_000)
        let e = try #require(error(text, .touchegg))
        #expect(e.message == "nested more than 32 elements deep")
        #expect(e.line == 1 && e.column == 11 + 31 * 3)
    }

    @Test func notUTF8IsAnError() throws {
        let e = try #require({ () -> ImportError? in
            do throws(ImportError) { _ = try ImportFormat.touchegg.translate([0x3C, 0x61, 0xFF, 0x3E], file: "f"); return nil } catch { return error }
        }())
        #expect(e.message == "not UTF-8 text")
    }

    @Test func aFileThatIsNotToucheggsIsSaidSo() throws {
        let e = try #require(error("<html><body/></html>", .touchegg))
        #expect(e.description == "f:1:1: error: the root element is '<html>', not touchegg's '<touchégg>'")
    }

    @Test func malformedYAMLIsAnErrorAtItsPlace() throws {
        let e = try #require(error("swipe:\n  3:\n    left:\n      command: 'unclosed\n", .fusuma))
        #expect(e.line == 5)
        #expect(e.message.hasPrefix("YAML syntax: found unexpected end of stream"))
        let alias = try #require(error("a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n", .fusuma))
        #expect(alias.message.contains("refusing a possible alias bomb"))
        let list = try #require(error("- swipe\n", .fusuma))
        #expect(list.description == "f:1:1: error: fusuma's config.yml is a mapping (swipe:, pinch:…), not a list")
    }

    @Test func libinputGesturesLinesThatAreNotSettingsAreKeptNotFatal() throws {
        let text = "gesture swipe\ngesture wobble left 3 ls\nfrobnicate 3\ngesture swipe up 3 echo ok\n"
        let c = try ImportFormat.libinputGestures.translate(Array(text.utf8), file: "f")
        #expect(c.gestures.count == 1)
        #expect(c.keptCount == 3)
        #expect(c.yaml(source: "f").contains("# not imported, f:3: libinput-gestures has no setting 'frobnicate'"))
        let long = try #require(error("gesture swipe up 3 " + String(repeating: "x", count: 70_000) + "\n", .libinputGestures))
        #expect(long.line == 1)
    }

    /// Names, commands and app names from the file cannot break out of the YAML.
    @Test func hostileTextStaysInsideItsQuotes() throws {
        let text = "<touchégg><application name=\"a\\&quot;]&#10;evil: [x\"><gesture type=\"SWIPE\" fingers=\"3\" direction=\"UP\">"
            + "<action type=\"RUN_COMMAND\"><command>echo \"hi\"&#10;  - name: injected</command></action></gesture></application></touchégg>"
        let c = try ImportFormat.touchegg.translate(Array(text.utf8), file: "f\nx")
        let yaml = c.yaml(source: "f\nx")
        #expect(!yaml.contains("\n  - name: injected"))
        #expect(!yaml.contains("\nevil:"))
        #expect(c.gestures.first?.action("command") == .command("echo \"hi\"\n  - name: injected"))
    }

    /// Numbers no tool would write (make fuzz found the first: a threshold of
    /// -9223372036854775809 trapped in the conversion): the import goes on with the
    /// tool's default, and its output still passes check.
    @Test(arguments: ["-9223372036854775809", "nan", "inf", "1e308", "0", "-1", "1e-300"])
    func outlandishNumbersStillGiveAConfigThatPassesCheck(number: String) throws {
        let inputs: [(ImportFormat, String)] = [
            (.fusuma, "swipe:\n  3:\n    left:\n      command: ls\n      threshold: \(number)\n      interval: \(number)\n    right:\n      update:\n        command: ls\n        interval: \(number)\n"
                + "hold:\n  3:\n    command: ls\n    threshold: \(number)\nthreshold:\n  hold: \(number)\ninterval:\n  swipe: \(number)\n"),
            (.libinputGestures, "swipe_threshold \(number)\ngesture swipe up 3 ls\ngesture hold on+\(number) 3 ls\n"),
            (.touchegg, "<touchégg><application name=\"All\"><gesture type=\"SWIPE\" fingers=\"3\" direction=\"UP\"><action type=\"RUN_COMMAND\">"
                + "<repeat>true</repeat><times>\(number)</times><command>ls</command></action></gesture></application></touchégg>"),
        ]
        for (format, text) in inputs {
            let imported = try format.translate(Array(text.utf8), file: "f")
            let yaml = imported.yaml(source: "f")
            let (_, diagnostics) = ConfigLoader.parse(yaml, file: "out.yaml")
            let errors = diagnostics.filter(\.isError).map(\.description)
            #expect(errors.isEmpty, "\(format) \(number): \(errors)\n\(yaml)")
        }
    }

    /// A NUL would cut a command or name short: in each format, raw or as an escape,
    /// it is an error at its line and column, never a config `check` refuses.
    @Test(arguments: [
        (ImportFormat.libinputGestures, "# c\ngesture swipe up 3 echo a\u{0}b\n", 2, 26, "a NUL character"),
        (.fusuma, "swipe:\n  3:\n    up:\n      command: \"echo \\0 x\"\n", 4, 16, "a value holds a NUL character"),
        (.fusuma, "application:\n  \"a\\x00\":\n    swipe: {3: {up: {command: ls}}}\n", 2, 3, "a value holds a NUL character"),
        (.touchegg, "<touchégg>\n<application name=\"All\"><gesture type=\"SWIPE\" fingers=\"3\" direction=\"UP\"><action type=\"RUN_COMMAND\"><command>é\u{0}</command>", 2, 111, "a NUL character"),
    ] as [(ImportFormat, String, Int, Int, String)])
    func aNULIsAnErrorAtItsPlace(format: ImportFormat, text: String, line: Int, column: Int, message: String) throws {
        let e = try #require(error(text, format))
        #expect(e.line == line && e.column == column, "\(e)")
        #expect(e.message.hasPrefix(message), "\(e)")
    }

    /// A file of thousands of lines for one gesture: each later one replaces the
    /// earlier, which stays as a comment, and the comments would make the config
    /// several times the 4 MiB `check` takes. The import is refused with the reason;
    /// one within the limits passes check.
    @Test func aTranslationPastTheConfigsLimitsIsRefused() throws {
        let line = "gesture swipe up 3 notify-send " + String(repeating: "x", count: 60) + "\n"
        let big = try ImportFormat.libinputGestures.translate(Array(String(repeating: line, count: 40_000).utf8), file: "f")
        let e = try #require({ () -> ImportError? in
            do throws(ImportError) { _ = try big.yamlWithinLimits(source: "f"); return nil } catch { return error }
        }())
        #expect(e.description.hasPrefix("f: error: the gestured config would be more than"), "\(e)")
        #expect(e.message.contains("the gestured config would be more than the 4 MiB a config may be (1 binding imported, 39999 kept as comments): remove"), "\(e)")
        let small = try ImportFormat.libinputGestures.translate(Array(String(repeating: line, count: 1000).utf8), file: "f")
        let (_, diagnostics) = ConfigLoader.parse(try small.yamlWithinLimits(source: "f"), file: "out.yaml")
        #expect(diagnostics.filter(\.isError).isEmpty)
    }

    /// More gestures than a config holds: touchegg's application lists multiply them.
    @Test func moreGesturesThanAConfigHoldsAreRefused() throws {
        var text = "<touchégg>"
        for app in 0..<300 {
            text += "<application name=\"a\(app)\">"
            for d in ["UP", "DOWN", "LEFT", "RIGHT"] {
                text += "<gesture type=\"SWIPE\" fingers=\"3\" direction=\"\(d)\"><action type=\"RUN_COMMAND\"><command>ls</command></action></gesture>"
            }
            text += "</application>"
        }
        let imported = try ImportFormat.touchegg.translate(Array((text + "</touchégg>").utf8), file: "t")
        #expect(throws: ImportError(file: "t", "1200 gestures to import; a gestured config holds at most 1000: split the file")) {
            _ = try imported.yamlWithinLimits(source: "t")
        }
    }

    /// A file saved with CRLF (or CR) line ends is found to be libinput-gestures' and
    /// imports as the same file with LF.
    @Test(arguments: ["\r\n", "\r"])
    func otherLineEndsImportAsTheSame(end: String) throws {
        let lf = "# mine\ngesture swipe up 3 xdotool key super+Up\ngesture swipe down 4 notify-send down\n"
        let other = lf.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: end)
        #expect(ImportFormat.detect(Array(other.utf8)) == .libinputGestures)
        let a = try ImportFormat.libinputGestures.translate(Array(lf.utf8), file: "f")
        let b = try ImportFormat.libinputGestures.translate(Array(other.utf8), file: "f")
        #expect(a.gestures == b.gestures && a.gestures.count == 2)
    }

    /// What `make fuzz` found: inputs whose translation `check` refused (exit 1, "a bug
    /// in gestured import"). Each is now a comment with its reason, and the config passes.
    @Test(arguments: [
        (ImportFormat.libinputGestures, "gesture swipe up 9 ls\ngesture swipe down 0 ls\ngesture pinch in 1 ls\ngesture pinch clockwise 1 ls\n", "a gestured pinch takes 2 to 5 fingers"),
        (.libinputGestures, "device:\ngesture swipe up 3 ls\n", "a device line without a name"),
        (.fusuma, "application:\n  '':\n    swipe: {3: {up: {command: ls}}}\n", "no application's name"),
        (.fusuma, "swipe: {4: {up: {command: ls}}}\n---\ncontext: {application: ['', ' ']}\nswipe: {3: {up: {command: ls}}}\n", "only appmatcher's application: context"),
        (.fusuma, "swipe: {3: {up: {command: '\(String(repeating: "x", count: 140_000))'}}}\n", "a command of 140000 bytes: Linux runs none longer than 131071"),
        (.fusuma, "swipe:\n  4:\n    update:\n      command: ls\n    begin:\n      command: ls\n", "an update: without a direction"),
        (.touchegg, "<touchégg><application name=\",,\"><gesture type=\"SWIPE\" fingers=\"3\" direction=\"UP\"><action type=\"RUN_COMMAND\"><command>ls</command></action></gesture></application></touchégg>", "no application's name"),
    ] as [(ImportFormat, String, String)])
    func whatCheckWouldRefuseIsKeptAsAComment(format: ImportFormat, text: String, reason: String) throws {
        let imported = try format.translate(Array(text.utf8), file: "f")
        let yaml = try imported.yamlWithinLimits(source: "f")
        #expect(yaml.contains(reason), "\(yaml)")
        let (_, diagnostics) = ConfigLoader.parse(yaml, file: "out.yaml")
        #expect(diagnostics.filter(\.isError).isEmpty, "\(diagnostics.filter(\.isError))")
    }
}
