import Glibc
import Testing
@testable import GestureConfig

/// Issue 10: configs a hostile or careless user wrote, each once accepted (or hung,
/// or crawled) and now refused with its place in the file.
@Suite struct ConfigHardeningTests {
    /// Finding 1: magnitudes no one means, which `check` used to accept and which could
    /// trap the daemon (`every: 1e-17mm` did, counting GESTURE_STEPS).
    @Test(arguments: [
        ("gestures:\n  - {name: a, gesture: pan, axis: vertical, every: 1e-17mm, update: x}\n",
         "config.yaml:2:52: error: 'every' must be at least 0.01mm (less is finer than any touch sensor resolves), found '1e-17mm'"),
        ("settings: {command-timeout: 1e-300s}\n",
         "config.yaml:1:29: error: 'command-timeout' must be at least 1ms (less is too short for a gesture or a command to notice), found '1e-300s'"),
        ("gestures:\n  - {name: a, gesture: rotate, every: 1e-300deg, update: x}\n",
         "config.yaml:2:39: error: 'every' must be at least 0.01deg (less is finer than any touch sensor resolves), found '1e-300deg'"),
        ("gestures:\n  - {name: a, gesture: pinch, every: 1.0000000000000002x, update: x}\n",
         "config.yaml:2:38: error: 'every' must be at least 1.001x (less is a change of 0.1 %, finer than any touch sensor resolves), found '1.0000000000000002x'"),
        ("gestures:\n  - {name: a, gesture: swipe, min-distance: 1e-320mm, command: x}\n",
         "config.yaml:2:45: error: 'min-distance' must be at least 0.01mm (less is finer than any touch sensor resolves), found '1e-320mm'"),
        ("gestures:\n  - {name: a, gesture: swipe, min-velocity: 1e-9mm/s, command: x}\n",
         "config.yaml:2:45: error: 'min-velocity' must be at least 0.01mm/s (less is slower than any finger moves), found '1e-9mm/s'"),
    ])
    func nonsensicalMagnitudesAreErrors(_ yaml: String, _ expected: String) {
        #expect(check(yaml) == [expected])
    }

    /// The floors themselves are accepted: they are the extremes the step arithmetic
    /// is tested with (ActionMapperTests).
    @Test func theFloorsAndCeilingsAreAccepted() {
        #expect(check("""
            settings: {command-timeout: 1ms, sequence-window: 86400s}
            gestures:
              - {name: a, gesture: pan, axis: vertical, every: 0.01mm, min-distance: 10000mm, update: x}
              - {name: b, gesture: rotate, every: 0.01deg, update: x}
              - {name: c, gesture: pinch, every: 1.001x, min-scale: 100x, update: x}
            """).allSatisfy { !$0.contains("error") })
    }

    /// Finding 5: a FIFO blocked open() until a writer came, in `check` and in the
    /// daemon's reload alike (which then ignored SIGTERM).
    @Test func aFIFOIsRefusedWithoutBlocking() throws {
        var template = Array("/tmp/gestured-fifo-XXXXXX".utf8CString)
        let dir = String(cString: mkdtemp(&template))
        let path = dir + "/config.yaml"
        defer { unlink(path); rmdir(dir) }
        try #require(mkfifo(path, 0o600) == 0)
        let (config, diagnostics) = ConfigLoader.load(path: path)
        #expect(config == nil)
        #expect(diagnostics.map(\.description) == ["\(path): error: refusing a FIFO (named pipe): a config must be a regular file"])
    }

    @Test func aCharacterDeviceIsRefused() {
        let (_, diagnostics) = ConfigLoader.load(path: "/dev/zero")
        #expect(diagnostics.map(\.description) == ["/dev/zero: error: refusing a character device: a config must be a regular file"])
    }

    /// Finding 6: past the bound, one error says so, at the first gesture too many.
    @Test func moreGesturesThanTheBoundIsOneError() {
        var yaml = "gestures:\n"
        for i in 0...Config.maximumGestures { yaml += "  - {name: g\(i), gesture: tap, command: x}\n" }
        let errors = check(yaml).filter { $0.contains("error") }
        #expect(errors == ["config.yaml:1002:5: error: this is gesture 1001 of 1001; a config may have at most 1000 gestures (each one is a recognizer every touch goes through)"])
    }

    /// Finding 6: the "can never fire" check still finds the shadowed gestures that its
    /// index now looks up instead of comparing every pair.
    @Test func shadowingIsFoundThroughEveryIndexedDifference() {
        let lines = check("""
            gestures:
              - {name: any-swipe, gesture: swipe, fingers: 3, command: x}
              - {name: pad-left, gesture: swipe, fingers: 3, device: touchpad, direction: left, command: x}
              - {name: edge-any, gesture: tap, edge: [left, right], device: touchscreen, command: x}
              - {name: edge-left, gesture: tap, edge: left, region: {left: 10%}, device-name: 'W*', command: x}
              - {name: far, gesture: swipe, fingers: 3, min-distance: 30mm, command: x}
              - {name: far-left, gesture: swipe, fingers: 3, min-distance: 30mm, direction: [left], command: x}
              - {name: any-tap, gesture: tap, edge: left, command: x, enabled: false}
              - {name: pinned, gesture: tap, edge: left, device-name: 'W*', command: x}
            """)
        #expect(lines == [
            "config.yaml:3:5: warning: gesture 'pad-left' can never fire: 'any-swipe' (line 2) is the same swipe and comes first; add 'simultaneous-with' or change one of them",
            "config.yaml:5:5: warning: gesture 'edge-left' can never fire: 'edge-any' (line 4) is the same tap and comes first; add 'simultaneous-with' or change one of them",
            "config.yaml:7:5: warning: gesture 'far-left' can never fire: 'far' (line 6) is the same swipe and comes first; add 'simultaneous-with' or change one of them",
        ])
    }

    /// Finding 14: a NUL cut the command short where the system read it.
    @Test func aNULInACommandIsAnError() {
        #expect(check("gestures:\n  - {name: a, gesture: tap, command: \"rm -rf /tmp/x\\0/important\"}\n")
                == ["config.yaml:2:38: error: a command holds a NUL character ('\\0'); the system would cut it short there"])
    }

    /// Finding 14: `command: ~` is YAML's null, and ran a program called `~`.
    @Test(arguments: ["~", "null", "NULL"])
    func aNullCommandIsAnErrorButAQuotedTildeIsText(_ null: String) {
        #expect(check("gestures:\n  - {name: a, gesture: tap, command: \(null)}\n")
                == ["config.yaml:2:38: error: a command is YAML's null ('\(null)'), not text; write the text, or quote it (\"\(null)\") to mean the word itself"])
        #expect(check("gestures:\n  - {name: a, gesture: tap, command: '\(null)'}\n") == [])
    }

    /// Finding 14: a tag was ignored and its text ran as written.
    @Test func yamlTagsAreErrorsExceptStr() {
        #expect(check("gestures:\n  - {name: a, gesture: tap, command: !!binary ZWNobyBoaQ==}\n")
                == ["config.yaml:2:38: error: YAML tags such as '!!binary' are not supported: values are read as written; remove the tag"])
        #expect(check("gestures: !!seq\n  - {name: a, gesture: tap, command: !custom x}\n") == [
            "config.yaml:1:11: error: YAML tags such as '!!seq' are not supported: values are read as written; remove the tag",
            "config.yaml:2:38: error: YAML tags such as '!custom' are not supported: values are read as written; remove the tag",
        ])
        #expect(check("gestures:\n  - {name: a, gesture: tap, command: !!str echo hi}\n") == [])
    }

    /// Finding 14: a 200 kB command passed `check`, then failed with E2BIG at every gesture.
    @Test func aCommandTheKernelWouldRefuseIsAnError() {
        let long = String(repeating: "x", count: 200_000)
        #expect(check("gestures:\n  - {name: a, gesture: tap, command: \(long)}\n")
                == ["config.yaml:2:38: error: the command is 200000 bytes; the kernel refuses one argument of more than 131071 (MAX_ARG_STRLEN), so it could never run: put it in a script and run that"])
        let longest = String(repeating: "x", count: Binding.maximumCommandBytes)
        #expect(check("gestures:\n  - {name: a, gesture: tap, command: \(longest)}\n") == [])
    }

    /// Finding 14: an `after:` cycle got neither an error nor a warning, though none of
    /// its gestures can ever fire.
    @Test func afterCyclesAreErrors() {
        #expect(check("""
            gestures:
              - {name: a, gesture: swipe, after: c, command: x}
              - {name: b, gesture: tap, after: a, command: x}
              - {name: c, gesture: hold, after: b, command: x}
            """) == ["config.yaml:3:29: error: 'after' forms a cycle: a → c → b → a; none of them can ever fire, since each counts only right after another of them"])
    }
}
