import DesktopSession
@testable import DaemonCore
@testable import GestureActions
import GestureEngine
import Testing
import TouchModel
@testable import Commands
@testable import DaemonLoop
import JSON
@testable import LiveView

/// One gesture event, three writers: `replay --json`, the event stream's `gesture`
/// line and the `GESTURE_*` variables a command gets. A script reading any of them
/// must see the same values with the same rounding, for every kind; only the names
/// differ, by `GestureField`'s mapping (`dx_mm` is `GESTURE_DX_MM`).
@Suite struct GestureCodecTests {
    static let pad = DeviceInfo(name: "Pad", kind: .touchpad, size: Size(width: 100, height: 60))

    /// An event of `kind` whose every value has more decimals than any writer keeps,
    /// so a writer rounding one differently reads differently.
    static func event(_ kind: GestureKind, _ phase: GesturePhase) -> GestureEvent {
        var e = GestureEvent(name: "g-\(kind.rawValue)", index: 0, kind: kind, phase: phase,
                             time: Timestamp(microseconds: 8_312_402_117), fingers: 3,
                             location: Point(x: 12.345678, y: -7.654321), translation: Point(x: -31.256789, y: 4.444449),
                             velocity: Point(x: 123.456789, y: -98.765432), scale: 1.23456789, scaleVelocity: -0.12345678,
                             rotation: 0.4321, rotationVelocity: 1.2345, duration: 0.2345678)
        switch kind.traits.directions {
        case .none: break
        case .compass: e.direction = .upLeft
        case .pinch: e.sense = .out
        case .rotation: e.sense = .counterclockwise
        }
        if kind.traits.reports.contains(.side) { e.side = .left }
        if kind.traits.reports.contains(.shape) {
            e.shape = "z"
            e.score = 0.87654321
        }
        return e
    }

    static func written(_ e: GestureEvent) throws -> (replay: [String: JSONValue], stream: [String: JSONValue], environment: [String: String]) {
        let replayText = GestureText.json(e, time: 1.5, device: pad.name, commands: ["echo hi"])
        guard case .object(let replay)? = JSONValue.parse(Array(replayText.utf8)) else { throw Unparsed(text: replayText) }
        var encoder = StreamEncoder()
        encoder.gesture(e, device: "/dev/input/event5", step: nil)
        let streamText = String(decoding: encoder.bytes.dropLast(), as: UTF8.self)
        guard case .object(let stream)? = JSONValue.parse(Array(streamText.utf8)) else { throw Unparsed(text: streamText) }
        let pairs = ActionMapper.environment(e, e.phase, pad, nil)
        #expect(Set(pairs.map(\.name)).count == pairs.count, "no variable twice")
        return (replay, stream, Dictionary(pairs.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a }))
    }

    struct Unparsed: Error { var text: String }

    @Test(arguments: GestureKind.allCases)
    func theThreeWritersAgree(_ kind: GestureKind) throws {
        for phase in kind.traits.discrete ? [GesturePhase.recognized] : [.began, .changed, .ended] {
            let e = Self.event(kind, phase)
            let (replay, stream, env) = try Self.written(e)
            for field in GestureField.allCases {
                let variable = try #require(env[field.environmentName], "\(kind) \(phase): \(field.environmentName) is missing")
                guard let key = field.key?.description else { continue }
                let json = try #require(replay[key], "\(kind) \(phase): replay --json has no \(key)")
                #expect(stream[key] == json, "\(kind) \(phase): \(key) is \(String(describing: stream[key])) on the stream, \(json) in replay --json")
                switch json {
                case .null: #expect(variable == "", "\(kind) \(phase): \(key) is null, \(field.environmentName)=\(variable)")
                case .string(let s): #expect(variable == s, "\(kind) \(phase): \(key) is \(s), \(field.environmentName)=\(variable)")
                case .number(let n):
                    #expect(Double(variable) == n, "\(kind) \(phase): \(key) is \(n), \(field.environmentName)=\(variable)")
                    if case .number(_, let places) = field.value(of: e) {
                        #expect(variable.split(separator: ".").last?.count == places, "\(field.environmentName)=\(variable): \(places) decimals")
                    }
                default: Issue.record("\(kind) \(phase): \(key) is \(json)")
                }
            }
            // The values are really there: what the kind reports is not its default.
            #expect(env["GESTURE_SCALE"] == "1.2346" && env["GESTURE_ROTATION_DEG"] == "24.76", "\(env)")
            #expect(env["GESTURE_VELOCITY"] == "158.1", "the speed: the length of (123.5, -98.8) mm/s")
            #expect(env["GESTURE_SIDE"] == (kind.traits.reports.contains(.side) ? "left" : ""))
            #expect(stream["direction"] == (e.directionWord.map(JSONValue.string) ?? .null))
        }
    }

    /// What each writer has beside the event's fields is its own, and no more: the
    /// names the docs list (docs/CONTROL.md, docs/CONFIG.md, `replay --json`).
    @Test func eachWriterAddsOnlyItsOwn() throws {
        let (replay, stream, env) = try Self.written(Self.event(.pan, .changed))
        let keys = Set(GestureField.allCases.compactMap { $0.key?.description })
        #expect(Set(replay.keys).subtracting(keys) == ["time", "device", "commands"])
        #expect(Set(stream.keys).subtracting(keys) == ["type", "device", "t", "progress", "step"])
        #expect(Set(env.keys).subtracting(GestureField.allCases.map(\.environmentName)) == ["GESTURE_DEVICE", "GESTURE_DEVICE_KIND"])
        #expect(replay["device"] == .string("Pad") && stream["device"] == .string("/dev/input/event5") && env["GESTURE_DEVICE"] == "Pad")
    }

    /// `hello` says what every kind reports, from the engine's table: the live view
    /// shows a card's values from it (a circle's rotation, which its own copy lost).
    @Test func helloListsEachKindsValues() throws {
        var encoder = StreamEncoder()
        encoder.hello(StreamLine.Hello(version: "0", pid: 1, config: "c", dryRun: false, rate: 60, gestures: [], devices: [], focus: nil))
        let hello = try #require(JSONValue.parse(encoder.bytes.dropLast()))
        guard case .object(let kinds)? = hello["kinds"] else { Issue.record("no kinds in \(hello)"); return }
        #expect(Set(kinds.keys) == Set(GestureKind.allCases.map(\.rawValue)))
        for kind in GestureKind.allCases {
            let expected = JSONValue.array(kind.traits.values.compactMap { $0.key.map { .string($0.description) } })
            #expect(kinds[kind.rawValue]?["values"] == expected, "\(kind)")
            #expect(kinds[kind.rawValue]?["discrete"] == .bool(kind.traits.discrete), "\(kind)")
        }
        #expect(kinds["circle"]?["values"] == .array([.string("rotation_deg"), .string("rotation_velocity_deg_s")]))
        #expect(kinds["tip-tap"]?["values"] == .array([.string("side"), .string("x_mm"), .string("y_mm")]))
    }
}
