import GestureEngine
import GestureInput
import LinuxSystem
import TouchModel

/// The daemon driven one loop iteration at a time, for gestured-bench (what the event
/// stream costs per frame): the real `Daemon` with its control socket and no commands,
/// on a device the caller opened.
public final class DaemonHarness {
    private let daemon: Daemon

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public init(configPath: String, controlSocket: String, inputDirectory: String) throws {
        var options = Daemon.Options()
        options.configPath = configPath
        options.controlSocket = controlSocket
        options.inputDirectory = inputDirectory
        options.runCommands = false
        daemon = try Daemon(options: options, logger: Logger(threshold: .warning, environment: [:]), environment: [:])
        guard daemon.startControl() else { throw Failure(description: "cannot claim \(controlSocket)") }
    }

    public func adopt(_ device: any TouchSource) { daemon.adopt(device, announce: false) }

    /// One `epoll_wait` and its handlers; false when nothing was ready.
    @discardableResult
    public func runOnce(timeoutMS: Int32) -> Bool { daemon.runOnce(timeoutMS: timeoutMS) }

    /// Subscribers connected to the event stream.
    public var subscribers: Int { daemon.stream?.count ?? 0 }
}

package extension DaemonHarness {
    /// What encoding one stream line costs, ns: a frame of `contacts` contacts, and a
    /// pan's `changed` gesture line (gestured-bench prints both).
    public static func encodingCost(contacts: Int, iterations: Int) -> (frame: Double, gesture: Double) {
        var list = ContactList()
        for i in 0..<contacts {
            list.append(Contact(id: Int32(100 + i), slot: Int32(i), position: Point(x: 12.345 + Double(i), y: 45.678), normalized: Point(x: 0.1234, y: 0.5678)))
        }
        let frame = TouchFrame(time: Timestamp(microseconds: 12_345_678_901), contacts: list)
        let event = GestureEvent(name: "scroll-vertical", index: 3, kind: .pan, phase: .changed, time: frame.time, fingers: 2, direction: .up,
                                 location: Point(x: 50.5, y: 30.25), translation: Point(x: 1.5, y: -22.75), velocity: Point(x: 12, y: -180))
        var e = StreamEncoder()
        func time(_ body: (inout StreamEncoder) -> Void) -> Double {
            let t0 = monotonicNanoseconds()
            for _ in 0..<iterations {
                e.removeAll()
                body(&e)
            }
            return Double(monotonicNanoseconds() - t0) / Double(iterations)
        }
        return (time { $0.frame(frame, device: "/dev/input/event5") }, time { $0.gesture(event, device: "/dev/input/event5", step: nil) })
    }
}
