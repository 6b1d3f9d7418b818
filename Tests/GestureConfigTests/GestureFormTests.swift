import Testing
@testable import GestureConfig

/// The live view's form: a gesture's mapping edited in the text, everything else kept.
@Suite struct GestureFormTests {
    typealias V = GestureForm.Value

    private let block = """
        # my config: keep this comment
        settings:
          command-timeout: 10s   # killed after this

        gestures:
          # workspaces
          - name: next
            gesture: swipe
            fingers: 3            # three, for now
            direction: left
            command: {workspace: next}

          - name: zoom
            gesture: pinch
            update:
              keys: ctrl+equal
        # trailing comment

        """

    @Test func blockValueReplacedKeepingComments() throws {
        let out = try GestureForm.edit(block, index: 0, name: "next", key: "fingers", value: .scalar("4"))
        #expect(out == block.replacing("fingers: 3            # three", with: "fingers: 4            # three"))
    }

    @Test func blockKeyAddedAtTheEndOfItsMapping() throws {
        let out = try GestureForm.edit(block, index: 0, name: "next", key: "min-distance", value: .scalar("20mm"))
        #expect(out == block.replacing("command: {workspace: next}\n", with: "command: {workspace: next}\n    min-distance: 20mm\n"))
        let last = try GestureForm.edit(block, index: 1, name: "zoom", key: "fingers", value: .scalar("3"))
        #expect(last == block.replacing("keys: ctrl+equal\n", with: "keys: ctrl+equal\n    fingers: 3\n"))
    }

    @Test func blockActionReplacedByAFlowMapping() throws {
        let out = try GestureForm.edit(block, index: 1, name: "zoom", key: "update", value: .mapping([.init("keys", "super+d")]))
        #expect(out == block.replacing("update:\n      keys: ctrl+equal", with: "update: {keys: super+d}"))
        #expect(try GestureForm.entries(out)[1].action == "keys super+d")
    }

    @Test func blockKeyRemovedWithItsLine() throws {
        let out = try GestureForm.edit(block, index: 0, name: "next", key: "direction", value: nil)
        #expect(out == block.replacing("    direction: left\n", with: ""))
    }

    private let flow = "gestures:\n  - {name: a, gesture: swipe, fingers: 3, command: {keys: super+d}}  # a comment\n  - {name: b, gesture: tap}\n"

    @Test func flowMappings() throws {
        #expect(try GestureForm.edit(flow, index: 0, name: "a", key: "fingers", value: .scalar("4"))
                == flow.replacing("fingers: 3", with: "fingers: 4"))
        #expect(try GestureForm.edit(flow, index: 0, name: "a", key: "direction", value: .scalar("up"))
                == flow.replacing("{keys: super+d}}", with: "{keys: super+d}, direction: up}"))
        #expect(try GestureForm.edit(flow, index: 1, name: "b", key: "fingers", value: .scalar("2"))
                == flow.replacing("gesture: tap}", with: "gesture: tap, fingers: 2}"))
        #expect(try GestureForm.edit(flow, index: 0, name: "a", key: "fingers", value: nil)
                == flow.replacing(", fingers: 3", with: ""))
        #expect(try GestureForm.edit(flow, index: 0, name: "a", key: "command", value: .scalar("notify-send \"hi\""))
                == flow.replacing("{keys: super+d}", with: #""notify-send \"hi\"""#))
    }

    @Test func readsWhatEachGestureDoes() throws {
        let e = try GestureForm.entries(block + "  - {name: c, gesture: tap, command: notify-send hi}\n")
        #expect(e.map(\.action) == ["workspace next", "keys ctrl+equal", "command notify-send hi"])
        #expect(e[0].directions.contains("left") && e[1].directions == ["in", "out"])
        #expect(e[0].thresholds.map(\.key).contains("min-distance"))
        #expect(e[0].line == 7 && e[0].endLine == 11)
    }

    @Test func crlfAndTabsKept() throws {
        let text = "gestures:\r\n  - name: a\t# tab before\r\n    gesture: tap\r\n    fingers: 2\r\n"
        #expect(try GestureForm.edit(text, index: 0, name: "a", key: "fingers", value: .scalar("3"))
                == text.replacing("fingers: 2", with: "fingers: 3"))
        #expect(try GestureForm.edit(text, index: 0, name: "a", key: "taps", value: .scalar("2")) == text + "    taps: 2\r\n")
    }

    @Test func quotedNamesAndValues() throws {
        let text = "gestures:\n  - name: \"it's \\\"x\\\"\"\n    gesture: tap\n"
        let out = try GestureForm.edit(text, index: 0, name: "it's \"x\"", key: "command", value: .scalar("echo 'a: b' # no comment"))
        #expect(out == text + "    command: \"echo 'a: b' # no comment\"\n")
        #expect(try GestureForm.entries(out)[0].command == "echo 'a: b' # no comment")
    }

    @Test func aliasesAreRefusedNotCorrupted() {
        let text = "gestures:\n  - &base {name: a, gesture: tap, fingers: 2}\n  - *base\n"
        #expect(throws: GestureForm.EditError.self) {
            try GestureForm.edit(text, index: 1, name: "a", key: "fingers", value: .scalar("3"))
        }
        let merged = "base: &b {gesture: tap}\ngestures:\n  - {<<: *b, name: a}\n"
        #expect(throws: GestureForm.EditError.self) {
            try GestureForm.edit(merged, index: 0, name: "a", key: "fingers", value: .scalar("3"))
        }
    }

    @Test func hostileInputGetsAClearError() {
        func message(_ text: String, _ index: Int = 0, _ name: String = "a") -> String? {
            do { _ = try GestureForm.edit(text, index: index, name: name, key: "fingers", value: .scalar("3")); return nil }
            catch { return error.description }
        }
        #expect(message("gestures:\n  - {name: a\n")?.contains("line 3") == true)
        #expect(message("gestures:\n  - {name: b, gesture: tap}\n")?.contains("'b', not 'a'") == true)
        #expect(message("gestures:\n  - {name: a, gesture: tap}\n", 5)?.contains("no gesture 6") == true)
        #expect(message("gestures: 3\n")?.contains("no list") == true)
        #expect(message("gestures:\n  - just a word\n")?.contains("not a mapping") == true)
        #expect(throws: GestureForm.EditError.self) {
            try GestureForm.edit("gestures:\n  - {name: a}\n", index: 0, name: "a", key: "x: 1\ny", value: .scalar("1"))
        }
    }

    @Test func valuesThatYAMLWouldReadOtherwiseAreQuoted() {
        #expect(GestureForm.scalarText("super+d") == "super+d")
        #expect(GestureForm.scalarText("~") == "\"~\"")
        #expect(GestureForm.scalarText("a, b}") == "\"a, b}\"")
        #expect(GestureForm.scalarText("-x") == "\"-x\"")
        #expect(GestureForm.scalarText("line\nbreak") == "\"line\\nbreak\"")
    }

    /// Mangled configs and edits of every gesture: an edit either throws, or returns a
    /// text in which that gesture has the new value and the rest reads as before.
    @Test func mutatedConfigsAreEditedExactlyOrNotAtAll() throws {
        let original = Array((block + "  - {name: c, gesture: tap, command: {keys: a}}  # c\n").utf8)
        let alphabet = Array(" \n\t:-[]{}&*!|>'\"#,0123456789ab\r".utf8)
        var rng = FuzzTests.Random(state: 0x2545_F491_4F6C_DD1D)
        var edited = 0
        for _ in 0..<1500 {
            let bytes = rng.mutated(original, most: 4, from: alphabet)
            let text = String(decoding: bytes, as: UTF8.self)
            guard let entries = try? GestureForm.entries(text), !entries.isEmpty else { continue }
            let e = entries[rng.next(entries.count)]
            let key = ["fingers", "direction", "command", "min-distance"][rng.next(4)]
            guard let out = try? GestureForm.edit(text, index: e.index, name: e.name, key: key, value: .scalar("7")) else { continue }
            edited += 1
            let after = try GestureForm.entries(out)
            #expect(after.count == entries.count)
            let changed = after[e.index]
            switch key {
            case "fingers": #expect(changed.fingers == "7")
            case "direction": #expect(changed.direction == "7")
            case "command": #expect(changed.command == "7")
            default: #expect(changed.thresholds.first { $0.key == key }.map { $0.value == "7" } ?? true)
            }
            for (a, b) in zip(entries, after) where a.index != e.index { #expect(a == b) }
        }
        #expect(edited > 300)
    }
}
