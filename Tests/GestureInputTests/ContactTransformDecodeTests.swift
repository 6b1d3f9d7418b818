import GestureInput
import GestureTestSupport
import Testing
import TouchModel

/// The decoder's one contact transform: udev's calibration (the udev layer's seam is
/// the description's `udevProperties`, which a live device gets from libudev and a
/// `libinput record` file carries), then the screen's rotation between sequences.
@Suite struct ContactTransformDecodeTests {
    static let drag = "touchscreens_Atmel_maXTouch_Touchscreen.4-finger-drag-down.events"

    /// How far the first contact moved from the first 4-finger frame to the last.
    static func motion(_ decoder: TouchDecoder, _ recording: Recording) throws -> Point {
        var frames: [TouchFrame] = []
        for e in recording.events where decoder.feed(e) { frames.append(decoder.frame) }
        let four = frames.filter { $0.fingerCount == 4 }
        let first = try #require(four.first?.contacts.first)
        let last = try #require(four.last?.contacts.contact(withID: first.id))
        return last.position - first.position
    }

    /// A panel mounted turned a quarter in its case (hwdb gives `0 -1 1 1 0 0`): the
    /// recorded drag toward the panel's bottom edge is, on the screen, to the left.
    @Test func udevsCalibrationMatrixTurnsAMountedPanel() throws {
        var r = try Recordings.load(Self.drag)
        r.device.udevProperties["LIBINPUT_CALIBRATION_MATRIX"] = "0 -1 1 1 0 0"
        let decoder = try TouchDecoder(description: r.device)
        #expect(decoder.calibration == ContactTransform(.quarter))
        let d = try Self.motion(decoder, r)
        #expect(d.x < -20 && abs(d.y) < 3, "\(d)")
        // The screen is the panel turned: 165 mm wide, 294 tall.
        #expect(decoder.deviceInfo(name: "").size == Size(width: 165, height: 294))
    }

    /// libinput calibrates touchscreens only; on a touchpad the property is not used.
    @Test func aTouchpadIgnoresTheMatrix() throws {
        var r = try Recordings.load("recordings_touchpads_SynPS2-Synaptics-TouchPad-Clickpad.two-finger-scroll-down.events",
                                    description: "recordings_touchpads_SynPS2-Synaptics-TouchPad-Clickpad.desc")
        r.device.udevProperties["LIBINPUT_CALIBRATION_MATRIX"] = "0 -1 1 1 0 0"
        #expect(try TouchDecoder(description: r.device).calibration == .identity)
    }

    @Test func anUnusableMatrixIsSaidAndIgnored() throws {
        var r = try Recordings.load(Self.drag)
        r.device.udevProperties["LIBINPUT_CALIBRATION_MATRIX"] = "0 0 0 0 0 0"
        let decoder = try TouchDecoder(description: r.device)
        #expect(decoder.calibration == .identity)
        #expect(decoder.calibrationProblem?.contains("LIBINPUT_CALIBRATION_MATRIX") == true)
        let d = try Self.motion(decoder, r)
        #expect(d.y > 20)
    }

    /// The rotation comes after the calibration: a panel mounted a quarter turned, on a
    /// screen turned a further three quarters, reads as the panel itself.
    @Test func theRotationFollowsTheCalibration() throws {
        var r = try Recordings.load(Self.drag)
        r.device.udevProperties["LIBINPUT_CALIBRATION_MATRIX"] = "0 -1 1 1 0 0"
        let decoder = try TouchDecoder(description: r.device)
        decoder.setOrientation(.threeQuarters)
        #expect(decoder.transform == .identity)
        let d = try Self.motion(decoder, r)
        #expect(d.y > 20 && abs(d.x) < 3, "\(d)")
    }

    /// A rotation told with fingers down waits for the next sequence: the gesture in
    /// flight keeps its frame, the next one is turned.
    @Test func aRotationDuringATouchAppliesFromTheNextSequence() throws {
        let r = try Recordings.load(Self.drag)
        let decoder = try TouchDecoder(description: r.device)
        var first: [TouchFrame] = []
        for e in r.events where decoder.feed(e) {
            first.append(decoder.frame)
            if first.count == 5 {
                #expect(decoder.fingersDown)
                decoder.setOrientation(.half)
            }
        }
        // Still the panel's frame to the end of the sequence: the drag goes on down.
        #expect(decoder.orientation == .normal)
        let four = first.filter { $0.fingerCount == 4 }
        let a = try #require(four.first?.contacts.first), b = try #require(four.last?.contacts.contact(withID: a.id))
        #expect(b.position.y - a.position.y > 20)
        // The same touches again: the first frame of the new sequence is turned.
        var second: TouchFrame?
        for e in r.events where decoder.feed(e) {
            second = decoder.frame
            break
        }
        #expect(decoder.orientation == .half)
        let p = try #require(first.first?.contacts.first?.position), q = try #require(second?.contacts.first?.position)
        let size = decoder.deviceInfo(name: "").size
        #expect(abs(q.x - (size.width - p.x)) < 1e-6 && abs(q.y - (size.height - p.y)) < 1e-6, "\(p) → \(q)")
    }

    /// Turned back to normal, the decoder is the identity again, position for position.
    @Test func turnedBackItIsTheIdentity() throws {
        let r = try Recordings.load(Self.drag)
        let plain = try TouchDecoder(description: r.device), turned = try TouchDecoder(description: r.device)
        turned.setOrientation(.quarter)
        turned.setOrientation(.normal)
        #expect(turned.transform == .identity)
        for e in r.events {
            let a = plain.feed(e), b = turned.feed(e)
            #expect(a == b)
            if a { #expect(plain.frame == turned.frame) }
        }
    }
}
