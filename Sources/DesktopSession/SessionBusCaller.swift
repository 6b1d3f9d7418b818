import CDesktop
import LinuxSystem

/// Method calls with one string argument on the session bus, through sd-bus on the
/// loop: what desktop actions send to kglobalaccel (KDE Plasma) and to gestured's GNOME
/// Shell extension. The connection opens at the first call and is opened again at the
/// next call after it broke; each call's reply (or error) goes to its own `done`.
/// With `owning`, each connection first asks for that well-known name, before any call
/// goes out on it (the GNOME extension answers only the owner of `io.github.gestured`):
/// the bus handles a connection's messages in order, so the callee knows the owner first.
package final class SessionBusCaller {
    package let address: String
    private let owning: String?
    /// Told when the bus will not give `owning` to this connection: why.
    private let ownProblem: (String) -> Void
    private var bus: OpaquePointer?
    private var fd: Int32 = -1
    private weak var loop: FocusLoop?
    /// Calls sent and not yet answered: what each callback's userdata points at.
    private var inflight: [Call] = []

    private final class Call {
        let done: (String?) -> Void
        weak var caller: SessionBusCaller?
        init(_ done: @escaping (String?) -> Void, _ caller: SessionBusCaller) {
            self.done = done
            self.caller = caller
        }
    }

    package init(address: String, loop: FocusLoop, owning: String? = nil, problem: @escaping (String) -> Void = { _ in }) {
        self.address = address
        self.loop = loop
        self.owning = owning
        ownProblem = problem
    }

    deinit { disconnect() }

    /// Calls `member(argument)`; `done` gets nil for a method return, else the error
    /// (the bus's, the callee's, or why the bus could not be reached).
    package func call(destination: String, path: String, interface: String, member: String, argument: String,
                      done: @escaping (String?) -> Void) {
        guard let b = connect(done) else { return }
        let call = Call(done, self)
        inflight.append(call)
        let r = gd_bus_call_s(b, nil, destination, path, interface, member, { m, ud, _ in
            let call = Unmanaged<Call>.fromOpaque(ud!).takeUnretainedValue()
            call.caller?.answered(call, SessionBus.error(m))
            return 0
        }, Unmanaged.passUnretained(call).toOpaque(), argument)
        guard r >= 0 else {
            inflight.removeAll { $0 === call }
            return done("cannot send \(member) on the session bus: \(Errno(rawValue: -r))")
        }
        process()
    }

    /// RequestName(`name`) on the connection just opened; its answer: 1 the owner now, 2
    /// queued behind another owner, 3 refused (the owner does not queue), 4 already.
    private func requestName(_ b: OpaquePointer, _ name: String) {
        let call = Call({ [weak self] problem in if let problem { self?.ownProblem(problem) } }, self)
        inflight.append(call)
        let r = gd_sd_bus_request_name_async(b, nil, name, 0, { m, ud, _ in
            let call = Unmanaged<Call>.fromOpaque(ud!).takeUnretainedValue()
            var answer: UInt32 = 0
            let problem: String? = if let error = SessionBus.error(m) {
                "cannot own \(call.caller?.owning ?? "the name") on the session bus: \(error)"
            } else if let m, gd_sd_bus_message_read_basic(m, CChar(UInt8(ascii: "u")), &answer) > 0, answer == 2 || answer == 3 {
                "another program owns \(call.caller?.owning ?? "the name") on the session bus (another gestured?)"
            } else {
                nil
            }
            call.caller?.answered(call, problem)
            return 0
        }, Unmanaged.passUnretained(call).toOpaque())
        if r < 0 {
            inflight.removeAll { $0 === call }
            ownProblem("cannot ask for \(name) on the session bus: \(Errno(rawValue: -r))")
        }
    }

    /// gestured's GNOME Shell extension's `FollowBeginChannel(kind, source, time, channel)`:
    /// `channel` (a pipe's read end) goes with the call (sd-bus sends a duplicate; the
    /// caller closes its own). `done` gets the session, GNOME's axis and where its
    /// transition stood, or the error.
    package func followBegin(destination: String, path: String, interface: String, kind: String, source: String, time: UInt32,
                             channel: FileDescriptor, done: @escaping (Result<(session: UInt32, axis: String, start: Double), FollowRefusal>) -> Void) {
        guard let b = connect({ done(.failure(FollowRefusal(message: $0 ?? "no session bus"))) }) else { return }
        let call = FollowCall(done, self)
        followCalls.append(call)
        let r = gd_bus_call_follow_begin(b, nil, destination, path, interface, { m, ud, _ in
            let call = Unmanaged<FollowCall>.fromOpaque(ud!).takeUnretainedValue()
            call.caller?.followAnswered(call, m)
            return 0
        }, Unmanaged.passUnretained(call).toOpaque(), kind, source, time, channel.rawValue)
        guard r >= 0 else {
            followCalls.removeAll { $0 === call }
            return done(.failure(FollowRefusal(message: "cannot send FollowBeginChannel on the session bus: \(Errno(rawValue: -r))")))
        }
        process()
    }

    package struct FollowRefusal: Error { package var message: String }

    private final class FollowCall {
        let done: (Result<(session: UInt32, axis: String, start: Double), FollowRefusal>) -> Void
        weak var caller: SessionBusCaller?
        init(_ done: @escaping (Result<(session: UInt32, axis: String, start: Double), FollowRefusal>) -> Void, _ caller: SessionBusCaller) {
            self.done = done
            self.caller = caller
        }
    }
    private var followCalls: [FollowCall] = []

    private func followAnswered(_ call: FollowCall, _ m: OpaquePointer?) {
        followCalls.removeAll { $0 === call }
        if let error = SessionBus.error(m) { return call.done(.failure(FollowRefusal(message: error))) }
        var session: UInt32 = 0
        var axis: UnsafePointer<CChar>?
        var start: Double = 0
        guard let m, gd_sd_bus_message_read_basic(m, CChar(UInt8(ascii: "u")), &session) > 0,
              gd_sd_bus_message_read_basic(m, CChar(UInt8(ascii: "s")), &axis) > 0, let axis,
              gd_sd_bus_message_read_basic(m, CChar(UInt8(ascii: "d")), &start) > 0 else {
            return call.done(.failure(FollowRefusal(message: "FollowBeginChannel's answer is not (u session, s axis, d start)")))
        }
        call.done(.success((session, String(cString: axis), start)))
    }

    private func answered(_ call: Call, _ error: String?) {
        inflight.removeAll { $0 === call }
        call.done(error)
    }

    private func connect(_ done: (String?) -> Void) -> OpaquePointer? {
        if let bus { return bus }
        let (b, why) = SessionBus.open(address: address)
        guard let b, let loop else {
            done(why ?? "no event loop")
            return nil
        }
        let fd = gd_sd_bus_get_fd(b)
        do {
            try loop.watch(FileDescriptor(rawValue: fd)) { [weak self] in self?.process() }
        } catch {
            gd_sd_bus_close_unref(b)
            done("cannot watch the session bus")
            return nil
        }
        self.fd = fd
        bus = b
        if let owning { requestName(b, owning) }
        return b
    }

    /// sd-bus refuses to process from inside its own processing (EBUSY): a reply's
    /// callback that makes another call has it sent by the processing under way.
    private var processing = false

    private func process() {
        guard !processing else { return }
        processing = true
        let broken = SessionBus.process({ bus })
        processing = false
        guard let why = broken else { return }
        let lost = inflight
        let lostFollows = followCalls
        disconnect()
        for call in lost { call.done(why) }
        for call in lostFollows { call.done(.failure(FollowRefusal(message: why))) }
    }

    private func disconnect() {
        if fd >= 0 { loop?.unwatch(FileDescriptor(rawValue: fd)) }
        fd = -1
        if let b = bus { gd_sd_bus_close_unref(b) }
        bus = nil
        inflight.removeAll()
        followCalls.removeAll()
    }
}
