import GestureInput
import GestureTestSupport
import Testing
import TouchModel

/// Made-up streams for what no recording covers: drops, palms, reuse, hostile input.
@Suite struct DecoderStreamTests {
    @Test func synDroppedDiscardsToTheNextReportAndFlagsTheFrame() throws {
        let decoder = try TouchDecoder(description: syntheticTouchpad())
        var s = EventScript()
        s.down(slot: 0, id: 10, x: 100, y: 100); s.syn()
        s.wait(ms: 10); s.move(slot: 0, x: 150, y: 100); s.syn()
        s.wait(ms: 10)
        s.syn(SynCode.dropped)
        s.move(slot: 0, x: 900, y: 500) // lost with the drop
        s.syn()
        s.wait(ms: 10); s.move(slot: 0, x: 160, y: 100); s.syn()
        let frames = s.decode(decoder)
        #expect(frames.count == 4)
        #expect(frames[2].flags.contains(.resynced))
        #expect(frames[2].contacts[0].position.x == 15, "the dropped move to 90 mm is not applied")
        #expect(!frames[3].flags.contains(.resynced))
        #expect(frames[3].contacts[0].id == frames[0].contacts[0].id)
    }

    @Test func markResyncFlagsTheNextFrameOnly() throws {
        let decoder = try TouchDecoder(description: syntheticTouchpad())
        var s = EventScript()
        s.down(slot: 0, id: 1, x: 10, y: 10); s.syn(); s.syn()
        decoder.markResync()
        let frames = s.decode(decoder)
        #expect(frames.map { $0.flags.contains(.resynced) } == [true, false])
    }

    @Test func palmsAreNeitherContactsNorFingers() throws {
        let decoder = try TouchDecoder(description: syntheticTouchpad())
        var s = EventScript()
        s.down(slot: 0, id: 1, x: 100, y: 100)
        s.down(slot: 1, id: 2, x: 500, y: 550); s.abs(AbsCode.mtToolType, MTTool.palm)
        s.down(slot: 2, id: 3, x: 300, y: 100)
        s.key(KeyCode.btnToolTripleTap, 1)
        s.syn()
        let f = try #require(s.decode(decoder).last)
        #expect(f.fingerCount == 2)
        #expect(f.contacts.map(\.slot) == [0, 2])
    }

    @Test func aReusedTrackingIDIsANewContact() throws {
        let decoder = try TouchDecoder(description: syntheticTouchpad())
        var s = EventScript()
        s.down(slot: 0, id: 7, x: 100, y: 100); s.syn()
        s.wait(ms: 10); s.up(slot: 0); s.syn()
        s.wait(ms: 10); s.down(slot: 0, id: 7, x: 100, y: 100); s.syn()
        // And a tracking id replaced without a lift in between.
        s.wait(ms: 10); s.abs(AbsCode.mtTrackingID, 8); s.syn()
        let ids = s.decode(decoder).compactMap { $0.contacts.first?.id }
        #expect(ids.count == 3)
        #expect(Set(ids).count == 3, "each touch-down gets its own id: \(ids)")
    }

    @Test func slotsOutOfRangeAreIgnored() throws {
        let decoder = try TouchDecoder(description: syntheticTouchpad(slots: 2))
        var s = EventScript()
        s.down(slot: 0, id: 1, x: 100, y: 100)
        s.down(slot: 5, id: 2, x: 200, y: 200)
        s.down(slot: -3, id: 3, x: 300, y: 300)
        s.down(slot: Int32.max, id: 4, x: 300, y: 300)
        s.syn()
        let f = try #require(s.decode(decoder).last)
        #expect(f.fingerCount == 1)
        #expect(f.contacts[0].position == Point(x: 10, y: 10))
    }

    @Test func moreFingersThanSlotsComeFromBtnTool() throws {
        let decoder = try TouchDecoder(description: syntheticTouchpad(slots: 2, tools: [KeyCode.btnToolFinger, KeyCode.btnToolDoubleTap, KeyCode.btnToolTripleTap, KeyCode.btnToolQuadTap]))
        #expect(decoder.capabilities.maxFingers == 4)
        var s = EventScript()
        s.down(slot: 0, id: 1, x: 100, y: 100); s.down(slot: 1, id: 2, x: 200, y: 100)
        s.key(KeyCode.btnToolTripleTap, 1); s.syn()
        s.wait(ms: 10); s.key(KeyCode.btnToolTripleTap, 0); s.key(KeyCode.btnToolQuadTap, 1); s.syn()
        s.wait(ms: 10); s.key(KeyCode.btnToolQuadTap, 0); s.key(KeyCode.btnToolDoubleTap, 1); s.syn()
        let frames = s.decode(decoder)
        #expect(frames.map(\.fingerCount) == [3, 4, 2])
        #expect(frames.allSatisfy { $0.contacts.count == 2 })
    }

    @Test func hostileValuesAndTimesAreSurvived() throws {
        let decoder = try TouchDecoder(description: syntheticTouchpad())
        var s = EventScript()
        s.down(slot: 0, id: Int32.max, x: Int32.max, y: Int32.min); s.syn()
        s.time = Timestamp(microseconds: 5) // time going backwards
        s.abs(AbsCode.mtTrackingID, Int32.min); s.syn()
        s.abs(0x3f, 12345); s.key(0x2ff, 1); s.syn(0x0e)
        s.syn()
        let frames = s.decode(decoder)
        #expect(frames.count == 3)
        #expect(frames[0].contacts[0].normalized == Point(x: 1, y: 0), "normalized positions are clamped")
        #expect(frames[1].fingerCount == 0)
    }

    @Test func randomEventStreamsNeverTrap() throws {
        var rng = SplitMix64(seed: 0x5eed)
        for device in [syntheticTouchpad(), syntheticTouchpad(slots: 1)] {
            let decoder = try TouchDecoder(description: device)
            var frames = 0
            for _ in 0..<200_000 {
                let type = UInt16(rng.next() % 5)
                let code = UInt16(rng.next() % 0x50)
                let value = Int32(truncatingIfNeeded: Int64(bitPattern: rng.next()) % 3000)
                let t = Timestamp(microseconds: Int64(rng.next() % 1_000_000_000))
                if decoder.feed(InputEvent(time: t, type: type, code: code, value: value)) {
                    frames += 1
                    #expect(decoder.frame.contacts.count <= ContactList.capacity)
                }
            }
            #expect(frames > 0)
        }
    }
}
