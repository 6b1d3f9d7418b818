import CBenchFloor
import Glibc
import GestureInput
import TouchModel

/// One device's events, replayed again and again: each pass shifts the timestamps by
/// `passSpan` so time only moves forward, as it would on a device used all day.
struct Workload {
    let name: String
    let device: DeviceDescription
    let events: [InputEvent]
    /// µs between the starts of two passes: the recording's length plus a 1 s pause.
    let passSpan: Int64

    init(name: String, device: DeviceDescription, events: [InputEvent]) {
        self.name = name
        self.device = device
        self.events = events
        let first = events.first?.time.microseconds ?? 0, last = events.last?.time.microseconds ?? 0
        passSpan = last - first + 1_000_000
    }

    var capabilities: TouchCapabilities {
        do { return try TouchCapabilities(device) } catch { fail("\(name): \(error)") }
    }

    func makeDecoder() -> TouchDecoder {
        do { return try TouchDecoder(description: device) } catch { fail("\(name): \(error)") }
    }

    /// The numbers TouchDecoder derives from the description, for the C floor.
    func floorAxes() -> bench_axes {
        let c = capabilities
        var a = bench_axes()
        a.x_min = Double(c.xAxis.minimum)
        a.y_min = Double(c.yAxis.minimum)
        a.x_per_mm = c.xUnitsPerMM
        a.y_per_mm = c.yUnitsPerMM
        a.x_span = Double(Int64(c.xAxis.maximum) - Int64(c.xAxis.minimum))
        a.y_span = Double(Int64(c.yAxis.maximum) - Int64(c.yAxis.minimum))
        let majorRes = device.absinfo[AbsCode.mtTouchMajor]?.resolution ?? 0
        a.major_per_mm = majorRes > 0 ? Double(majorRes) : c.xUnitsPerMM
        a.slot_count = Int32(c.slotCount)
        // The codes TouchDecoder accepts (its `isDeclared`), so the floor checks each
        // event as the decoder does.
        a.declared_abs = device.acceptedAbsMask
        withUnsafeMutableBytes(of: &a.declared_keys) { words in
            for (i, word) in device.acceptedKeyWords.enumerated() { words.storeBytes(of: word, toByteOffset: i * 8, as: UInt64.self) }
        }
        switch c.touchProtocol {
        case .singleTouch: a.protocol = BENCH_SINGLE_TOUCH
        case .slots: a.protocol = BENCH_SLOTS
        case .anonymous: a.protocol = BENCH_ANONYMOUS
        }
        withUnsafeMutableBytes(of: &a.mt_min) { min in
            withUnsafeMutableBytes(of: &a.mt_max) { max in
                withUnsafeMutableBytes(of: &a.mt_fuzz) { fuzz in
                    withUnsafeMutableBytes(of: &a.mt_res) { res in
                        withUnsafeMutableBytes(of: &a.mt_present) { present in
                            for (code, info) in device.absinfo where code >= AbsCode.mtTouchMajor && code <= AbsCode.max {
                                let i = Int(code - AbsCode.mtTouchMajor)
                                min.storeBytes(of: info.minimum, toByteOffset: i * 4, as: Int32.self)
                                max.storeBytes(of: info.maximum, toByteOffset: i * 4, as: Int32.self)
                                fuzz.storeBytes(of: info.fuzz, toByteOffset: i * 4, as: Int32.self)
                                res.storeBytes(of: info.resolution, toByteOffset: i * 4, as: Int32.self)
                                present[i] = 1
                            }
                        }
                    }
                }
            }
        }
        return a
    }
}

enum Workloads {
    /// Every recording in Tests/Recordings, each with its description file where
    /// MANIFEST.md names one.
    static func recordings(root: String) -> [Workload] {
        let dir = root + "/Tests/Recordings"
        guard let manifest = readFile(dir + "/MANIFEST.md") else { fail("cannot read \(dir)/MANIFEST.md (run from the repository root or pass --root)") }
        var out: [Workload] = []
        for line in manifest.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters() }
            guard cells.count >= 2 else { continue }
            let file = cells[0].strippingBackticks()
            let desc = cells[1].contains("header in the file") ? nil : dir + "/" + cells[1].strippingBackticks()
            let recording: Recording
            do { recording = try Recording.load(path: dir + "/" + file, descriptionPath: desc) } catch { fail("\(error)") }
            out.append(Workload(name: file, device: recording.device, events: Array(recording.events)))
        }
        guard !out.isEmpty else { fail("no recordings listed in \(dir)/MANIFEST.md") }
        return out
    }

    /// The worst case of the issue: a 10-slot touchscreen with ten fingers that all
    /// move every frame, at 1 kHz. One pass: ten fingers down, 1 s of motion in a
    /// circle (a different phase per finger), all up.
    static func tenFingers() -> Workload {
        let resolution: Int32 = 10 // units/mm: 300 × 200 mm
        let device = DeviceDescription(
            name: "gestured-bench 10-finger touchscreen", properties: [InputProperty.direct],
            codes: [EventType.syn: [0], EventType.key: [KeyCode.btnTouch],
                    EventType.abs: [AbsCode.x, AbsCode.y, AbsCode.mtSlot, AbsCode.mtPositionX, AbsCode.mtPositionY, AbsCode.mtTrackingID]],
            absinfo: [AbsCode.x: AbsInfo(minimum: 0, maximum: 3000, resolution: resolution),
                      AbsCode.y: AbsInfo(minimum: 0, maximum: 2000, resolution: resolution),
                      AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: 9),
                      AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 3000, resolution: resolution),
                      AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 2000, resolution: resolution),
                      AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535)])
        var events: [InputEvent] = []
        var t: Int64 = 1_000_000
        func ev(_ type: UInt16, _ code: UInt16, _ value: Int32) {
            events.append(InputEvent(time: Timestamp(microseconds: t), type: type, code: code, value: value))
        }
        func position(_ finger: Int, _ frame: Int) -> (Int32, Int32) {
            let angle = Double(frame) / 1000 * 2 * Double.pi + Double(finger) * 0.6
            let cx = 300.0 + Double(finger % 5) * 600, cy = 600.0 + Double(finger / 5) * 800
            return (Int32(cx + 250 * cos(angle)), Int32(cy + 250 * sin(angle)))
        }
        for finger in 0..<10 {
            let (x, y) = position(finger, 0)
            ev(EventType.abs, AbsCode.mtSlot, Int32(finger))
            ev(EventType.abs, AbsCode.mtTrackingID, Int32(100 + finger))
            ev(EventType.abs, AbsCode.mtPositionX, x)
            ev(EventType.abs, AbsCode.mtPositionY, y)
        }
        ev(EventType.key, KeyCode.btnTouch, 1)
        ev(EventType.syn, SynCode.report, 0)
        for frame in 1..<1000 {
            t += 1000
            for finger in 0..<10 {
                let (x, y) = position(finger, frame)
                ev(EventType.abs, AbsCode.mtSlot, Int32(finger))
                ev(EventType.abs, AbsCode.mtPositionX, x)
                ev(EventType.abs, AbsCode.mtPositionY, y)
            }
            ev(EventType.syn, SynCode.report, 0)
        }
        t += 1000
        for finger in 0..<10 {
            ev(EventType.abs, AbsCode.mtSlot, Int32(finger))
            ev(EventType.abs, AbsCode.mtTrackingID, -1)
        }
        ev(EventType.key, KeyCode.btnTouch, 0)
        ev(EventType.syn, SynCode.report, 0)
        return Workload(name: "synthetic 10 fingers @ 1 kHz", device: device, events: events)
    }
}

extension Substring {
    func trimmingCharacters() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}

extension String {
    func strippingBackticks() -> String { filter { $0 != "`" } }
}
