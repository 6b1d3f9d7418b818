import CDesktop
import Glibc
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

    /// A binding's name and its accelerator (`<Super><Alt>w`), as SetShortcuts takes them.
    package typealias Shortcut = (name: String, accelerator: String)

    /// gestured's GNOME Shell extension's `SetShortcuts(a(ss) shortcuts) → (a(ss) refused)`:
    /// `done` gets those GNOME refused (taken, or not an accelerator it knows), or the error.
    package func setShortcuts(destination: String, path: String, interface: String, _ shortcuts: [Shortcut],
                              done: @escaping (Result<[Shortcut], FollowRefusal>) -> Void) {
        guard let b = connect({ done(.failure(FollowRefusal(message: $0 ?? "no session bus"))) }) else { return }
        let call = ReplyCall({ m in
            guard let m else { return done(.failure(FollowRefusal(message: "lost the session bus before SetShortcuts was answered"))) }
            if let error = SessionBus.error(m) { return done(.failure(FollowRefusal(message: error))) }
            guard let refused = Self.readPairs(m) else {
                return done(.failure(FollowRefusal(message: "SetShortcuts' answer is not (a(ss) refused)")))
            }
            done(.success(refused))
        }, self)
        replyCalls.append(call)
        let names = shortcuts.map { strdup($0.name) }, accelerators = shortcuts.map { strdup($0.accelerator) }
        defer { (names + accelerators).forEach { free($0) } }
        let r = names.map { UnsafePointer($0) }.withUnsafeBufferPointer { n in
            accelerators.map { UnsafePointer($0) }.withUnsafeBufferPointer { a in
                gd_bus_call_set_shortcuts(b, nil, destination, path, interface, { m, ud, _ in
                    let call = Unmanaged<ReplyCall>.fromOpaque(ud!).takeUnretainedValue()
                    call.caller?.replyCalls.removeAll { $0 === call }
                    call.done(m)
                    return 0
                }, Unmanaged.passUnretained(call).toOpaque(), n.baseAddress, a.baseAddress, shortcuts.count)
            }
        }
        guard r >= 0 else {
            replyCalls.removeAll { $0 === call }
            return done(.failure(FollowRefusal(message: "cannot send SetShortcuts on the session bus: \(Errno(rawValue: -r))")))
        }
        process()
    }

    /// An `a(ss)` read from `m`: nil when it is not one.
    private static func readPairs(_ m: OpaquePointer) -> [Shortcut]? {
        guard gd_sd_bus_message_enter_container(m, CChar(UInt8(ascii: "a")), "(ss)") > 0 else { return nil }
        var pairs: [Shortcut] = []
        while gd_sd_bus_message_enter_container(m, CChar(UInt8(ascii: "r")), "ss") > 0 {
            guard let name = SessionBus.readString(m), let accelerator = SessionBus.readString(m) else { return nil }
            gd_sd_bus_message_exit_container(m)
            pairs.append((name, accelerator))
        }
        gd_sd_bus_message_exit_container(m)
        return pairs
    }

    /// A call whose reply `done` reads (nil: the connection broke first).
    private final class ReplyCall {
        let done: (OpaquePointer?) -> Void
        weak var caller: SessionBusCaller?
        init(_ done: @escaping (OpaquePointer?) -> Void, _ caller: SessionBusCaller) {
            self.done = done
            self.caller = caller
        }
    }
    private var replyCalls: [ReplyCall] = []

    /// Signals a service sends on this connection (gestured's GNOME extension sends
    /// ShortcutActivated and ShortcutsWanted to the owner of io.github.gestured alone),
    /// each with its first string argument if it has one. Believed only from the unique
    /// name that owns `service` now, as the bus daemon says (`BusNameOwner`): anyone may
    /// send us a signal with that path and interface.
    package struct Listening {
        package var service: String
        package var path: String
        package var interface: String
        package var members: [String]
        package var heard: (_ member: String, _ argument: String?) -> Void
        package init(service: String, path: String, interface: String, members: [String],
                     heard: @escaping (_ member: String, _ argument: String?) -> Void) {
            self.service = service
            self.path = path
            self.interface = interface
            self.members = members
            self.heard = heard
        }
    }
    private var listening: Listening?
    private var serviceOwner: BusNameOwner?
    /// Signals dropped because their sender did not own the service.
    package var ignoredSignals: Int { serviceOwner?.ignored ?? 0 }

    /// Listens from now on, on this connection and on each one opened after it: opens
    /// one now (its name asked for first, with `owning`), so the service can reach it.
    package func listen(_ listening: Listening) {
        self.listening = listening
        if let bus { install(listening, on: bus) } else { _ = connect { _ in } }
        process()
    }

    private func install(_ l: Listening, on b: OpaquePointer) {
        let owner = BusNameOwner(l.service)
        serviceOwner = owner
        let rule = "type='signal',sender='\(l.service)',path='\(l.path)',interface='\(l.interface)'"
        gd_sd_bus_add_match_async(b, nil, rule, { m, ud, _ in
            Unmanaged<SessionBusCaller>.fromOpaque(ud!).takeUnretainedValue().signal(m)
        }, nil, Unmanaged.passUnretained(self).toOpaque())
        owner.follow(on: b) { _, _ in }
    }

    private func signal(_ m: OpaquePointer?) -> Int32 {
        guard let m, let l = listening, serviceOwner?.sent(m) == true else { return 0 }
        for member in l.members where gd_sd_bus_message_is_signal(m, l.interface, member) > 0 {
            l.heard(member, SessionBus.readString(m))
        }
        return 0
    }

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
        // The owner's question and the signals' rule before the name: the bus answers in
        // order, so a signal the name brings comes after the owner is known.
        if let listening { install(listening, on: b) }
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
        let lostReplies = replyCalls
        disconnect()
        for call in lost { call.done(why) }
        for call in lostFollows { call.done(.failure(FollowRefusal(message: why))) }
        for call in lostReplies { call.done(nil) }
    }

    private func disconnect() {
        if fd >= 0 { loop?.unwatch(FileDescriptor(rawValue: fd)) }
        fd = -1
        if let b = bus { gd_sd_bus_close_unref(b) }
        bus = nil
        inflight.removeAll()
        followCalls.removeAll()
        replyCalls.removeAll()
        serviceOwner = nil
    }
}
