import GestureInput
import GestureTestSupport
import Testing
import TouchModel

/// Real recordings from real devices, decoded: what the frames must say.
@Suite struct RecordingDecodeTests {
    @Test func cypressTracksTwoSlotsButReportsThreeFingers() throws {
        let frames = try Recordings.frames("touchpads_CyPS2_Cypress_Trackpad.three_finger_tap.events")
        #expect(fingerProfile(frames) == [3, 0])
        // Slot 1 carries a tracking id but never a position: counted, not invented.
        #expect(frames.first?.contacts.count == 1)
        let first = try #require(frames.first?.contacts.first)
        // 642 units / 16 units per mm, 252 / 15.
        #expect(abs(first.position.x - 40.125) < 1e-9)
        #expect(abs(first.position.y - 16.8) < 1e-9)
    }

    @Test func protocolABcm5974ThroughMtdev() throws {
        let r = try Recordings.load("data_bcm5974.event")
        let caps = try TouchCapabilities(r.device)
        #expect(caps.touchProtocol == .anonymous)
        #expect(caps.resolutionIsEstimated)
        let frames = try Recordings.frames("data_bcm5974.event")
        let counts = Set(frames.map(\.fingerCount))
        #expect(counts == [0, 1, 2, 3, 4])
        // Every frame's contacts carry distinct ids, and 2-finger frames have two positions.
        for f in frames {
            #expect(Set(f.contacts.map(\.id)).count == f.contacts.count)
            if f.fingerCount == 2 { #expect(f.contacts.count == 2) }
        }
        // Two 4-finger taps: two separate runs of 4-finger frames.
        let runs = fingerProfile(frames).filter { $0 == 4 }.count
        #expect(runs == 2)
    }

    @Test func atmelFourFingerDragDownOnATouchscreen() throws {
        let r = try Recordings.load("touchscreens_Atmel_maXTouch_Touchscreen.4-finger-drag-down.events")
        let caps = try TouchCapabilities(r.device)
        #expect(caps.kind == .touchscreen)
        let frames = try Recordings.frames("touchscreens_Atmel_maXTouch_Touchscreen.4-finger-drag-down.events")
        #expect(fingerProfile(frames) == [1, 3, 4, 3, 0])
        let four = frames.filter { $0.fingerCount == 4 }
        let start = try #require(four.first), end = try #require(four.last)
        // The same four contacts from start to end of the drag, all moving down.
        #expect(Set(start.contacts.map(\.id)) == Set(end.contacts.map(\.id)))
        for c in start.contacts {
            let later = try #require(end.contacts.contact(withID: c.id))
            #expect(later.position.y - c.position.y > 10, "contact \(c.id) moved down by more than 10 mm")
            #expect((0...1).contains(later.normalized.y))
        }
    }

    @Test func resolutionZeroFallsBackToAnEstimatedSize() throws {
        let r = try Recordings.load("python_evemu_tests_data_ntrig-xt2_ntrig-xt2-2-tap.event",
                                    description: "python_evemu_tests_data_ntrig-xt2_ntrig-xt2.device")
        let caps = try TouchCapabilities(r.device)
        #expect(caps.resolutionIsEstimated)
        #expect(caps.kind == .touchscreen)
        #expect(caps.size == TouchCapabilities.fallbackTouchscreenSizeMM)
        let frames = try Recordings.frames("python_evemu_tests_data_ntrig-xt2_ntrig-xt2-2-tap.event",
                                           description: "python_evemu_tests_data_ntrig-xt2_ntrig-xt2.device")
        #expect(fingerProfile(frames) == [1, 2, 1, 0])
    }

    @Test func singleTouchSynapticsCountsFingersFromBtnTool() throws {
        let frames = try Recordings.frames("recordings_touchpads_SynPS2-Synaptics-TouchPad-two-finger-scroll-down.events",
                                           description: "recordings_touchpads_SynPS2-Synaptics-TouchPad.desc")
        #expect(fingerProfile(frames).first == 2)
        #expect(frames.contains { $0.fingerCount == 2 && $0.contacts.count == 1 })
    }

    /// Every bundled recording decodes, and every frame is internally consistent.
    @Test(arguments: Recordings.all)
    func everyRecordingDecodes(name: String, description: String?) throws {
        let frames = try Recordings.frames(name, description: description)
        #expect(frames.count > 1)
        #expect(frames.last?.fingerCount == 0, "the recording ends with every finger lifted")
        #expect(frames.contains { $0.fingerCount >= 1 })
        for f in frames {
            #expect(f.contacts.count <= f.fingerCount)
            #expect(Set(f.contacts.map(\.id)).count == f.contacts.count)
        }
    }

    @Test func twoFingerTapsOnTouchpadsAndTablets() throws {
        #expect(fingerProfile(try Recordings.frames("touchpads_AlpsPS2_ALPS_GlidePoint.2-finger-tap.events")) == [1, 2, 1, 0])
        #expect(fingerProfile(try Recordings.frames("touchpads_AlpsPS2_ALPS_GlidePoint.double-tap.events")) == [1, 0, 1, 0])
        #expect(try Recordings.frames("tablets_Wacom_ISDv4_E6_Finger.2fg-tap.events", description: "tablets_Wacom_ISDv4_E6_Finger.desc").map(\.fingerCount).max() == 2)
        let taps = fingerProfile(try Recordings.frames("touchscreens_Atmel_maXTouch_Touchscreen.1-finger-fast-taps.events"))
        #expect(taps.filter { $0 == 1 }.count == 9, "nine separate one-finger taps")
    }
}
