import LinuxSystem
import PlainText
import TouchModel

/// The daemon's control socket: a listening Unix socket in the user's runtime
/// directory, mode 0600, on the event loop. Each client writes one request line and
/// gets one answer; the daemon closes the connection after it. Nothing a client
/// does can stop or stall the daemon:
///
/// - another user (SO_PEERCRED) is answered "permission denied" and closed, even if
///   the socket's mode was loosened;
/// - a request is at most `ControlRequest.maxLength` bytes; a longer one, or one
///   that is not a request, is answered with an error;
/// - at most `maxClients` connections are open at once. When one more arrives, the
///   one that has been open longest without a whole request is made room for: what it
///   has sent is read first (a request there is answered), else it is answered "timed
///   out" and closed. No connection is ever refused for want of room, so silent
///   clients, however many and however often replaced, cannot keep `gestured status`
///   out, and the daemon needs no timer for them. Only a client that sends nothing
///   while `maxClients` newer ones connect can lose its place; a real client writes
///   its request as soon as it has connected;
/// - answers are written without blocking into a send buffer sized for them; a
///   client that does not read is dropped, never waited for.
package final class ControlServer {
    package let path: String
    private let listener: StreamSocket
    private unowned let loop: EventLoop
    /// Open connections: what each has sent, and the refusal it will get (another
    /// user's client is answered after its request is read, so that closing with the
    /// request unread cannot turn our answer into ECONNRESET at the client).
    private var clients: [Int32: Client] = [:]
    private final class Client {
        /// The connection; nil only once handed to the stream (`subscribe`).
        var socket: StreamSocket?
        var buffer: [UInt8] = []
        let refusal: ControlReply?
        /// When it connected (`now`, ns): the oldest gives way first.
        let since: Int64
        /// The process at the other end (SO_PEERCRED), when the kernel said.
        let pid: ProcessID?

        init(_ socket: consuming StreamSocket, refusal: ControlReply?, since: Int64, pid: ProcessID?) {
            self.socket = .some(socket)
            self.refusal = refusal
            self.since = since
            self.pid = pid
        }
    }
    private let handle: (ControlRequest) -> ControlReply
    /// Takes over a connection that asked to `subscribe` (its socket, the rate): it
    /// leaves the request connections and their cap (StreamSubscribers.swift).
    package var subscribe: ((consuming StreamSocket, Int, Bool) -> Void)?
    /// Answers `try PATH|off` for the process that asked (a try lasts as long as it does).
    package var tryConfig: ((String?, ProcessID?) -> ControlReply)?
    private let log: (String) -> Void
    /// The monotonic clock, ns (a test's own clock in tests).
    private let now: () -> Int64
    package static let maxClients = 16
    package static let sendBuffer: Int32 = 1 << 20

    package enum ClaimError: Error, CustomStringConvertible {
        case anotherDaemon(path: String, pid: ProcessID?)
        case unusable(path: String, why: String)
        case unsafeDirectory(why: String)
        case anotherUser(path: String, uid: UserID)

        package var description: String {
            switch self {
            case let .unsafeDirectory(why):
                return "refusing to make the control socket: \(why)"
            case let .anotherUser(path, uid):
                return "uid \(uid) is listening on \(path), not this user: the runtime directory is not ours alone; refusing to start"
            case let .anotherDaemon(path, pid):
                return "another gestured\(pid.map { " (pid \($0))" } ?? "") is already running for this user (its control socket is \(path)); stop it first (systemctl --user stop gestured), or use 'gestured reload'"
            case let .unusable(path, why):
                return "cannot create the control socket \(path): \(why)"
            }
        }
    }

    /// Claims `path`: a live daemon there is an error; a socket nobody listens on
    /// (left by a daemon that crashed) is replaced, and `log` says so.
    package init(path: String, loop: EventLoop, log: @escaping (String) -> Void, now: @escaping () -> Int64 = monotonicNanoseconds,
         handle: @escaping (ControlRequest) -> ControlReply) throws {
        self.path = path
        self.now = now
        self.loop = loop
        self.log = log
        self.handle = handle
        if let why = ControlPath.unsafeDirectory(of: path) { throw ClaimError.unsafeDirectory(why: why) }
        if let existing = try? FileSystem.linkStatus(path) {
            guard existing.isSocket else { throw ClaimError.unusable(path: path, why: "a file that is not a socket is in the way") }
            let answered = Result { () throws(Errno) in
                let probe = try StreamSocket.connect(to: path)
                return try? probe.peerCredentials()
            }
            switch answered {
            case .success(let peer):
                if let peer, peer.uid != Process.userID { throw ClaimError.anotherUser(path: path, uid: peer.uid) }
                throw ClaimError.anotherDaemon(path: path, pid: peer?.pid)
            case .failure(.connectionRefused):
                FileSystem.remove(path)
                log("removed a stale control socket \(path) (left by a gestured that did not exit cleanly)")
            case .failure(let e):
                throw ClaimError.unusable(path: path, why: "\(e)")
            }
        }
        do throws(Errno) {
            listener = try StreamSocket()
            // The socket is created 0600 (umask), never briefly open to others.
            try listener.bind(to: path, umask: 0o177)
            try listener.listen(backlog: 16)
        } catch .addressInUse {
            throw ClaimError.anotherDaemon(path: path, pid: nil)
        } catch {
            throw ClaimError.unusable(path: path, why: "\(error)")
        }
        try loop.add(listener.descriptor) { [unowned self] _ in self.acceptClients() }
    }

    deinit {
        for fd in clients.keys { loop.remove(FileDescriptor(rawValue: fd)) }
        loop.remove(listener.descriptor)
        FileSystem.remove(path)
    }

    private func acceptClients() {
        while let socket = try? listener.accept() {
            try? socket.setSendBufferSize(Self.sendBuffer)
            let me = Process.userID
            let peer = try? socket.peerCredentials()
            var refusal: ControlReply?
            if let peer, peer.uid == me {
                refusal = nil
            } else {
                let who = peer.map { "uid \($0.uid)" } ?? "an unknown user"
                log("control: refused a client of \(who) (the daemon belongs to uid \(me))")
                refusal = .error("permission denied: this gestured belongs to uid \(me), and the control socket answers only its own user (you are \(who))")
            }
            while clients.count >= Self.maxClients { makeRoom() }
            let fd = socket.descriptor.rawValue
            do {
                try loop.add(socket.descriptor) { [unowned self] _ in self.readable(fd) }
                clients[fd] = Client(socket, refusal: refusal, since: now(), pid: peer?.pid)
            } catch {}
        }
    }

    private func readable(_ fd: Int32) {
        guard let client = clients[fd] else { return }
        var buffer = client.buffer
        let refusal = client.refusal
        let result = client.socket?.readAvailable(into: &buffer, limit: ControlRequest.maxLength + 1) ?? .failed(.badFileDescriptor)
        client.buffer = buffer
        if let refusal, buffer.contains(UInt8(ascii: "\n")) || buffer.count > ControlRequest.maxLength || result.ended {
            return answer(fd, reply: refusal)
        }
        if let nl = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            return answer(fd, String(decoding: buffer[..<nl], as: UTF8.self))
        }
        if buffer.count > ControlRequest.maxLength {
            return answer(fd, reply: .error("request too long: more than \(ControlRequest.maxLength) bytes without a newline"))
        }
        switch result {
        case .drained: break
        case .closed:
            // A request without its newline, then end of stream, still counts.
            if buffer.isEmpty { drop(fd) } else { answer(fd, String(decoding: buffer, as: UTF8.self)) }
        case .failed: drop(fd)
        }
    }

    /// Makes room for one more: the connection open longest without a whole request
    /// is read (its request may be waiting behind the accepts), and answered what it
    /// asked, or "timed out" and closed.
    private func makeRoom() {
        guard let (fd, client) = clients.min(by: { $0.value.since < $1.value.since }) else { return }
        readable(fd)
        guard clients[fd] != nil else { return }
        let silent = Double(now() - client.since) / 1e9
        answer(fd, reply: .error("timed out: no request in \(silent.fixed(1)) s, while \(Self.maxClients) newer connections came"))
    }

    private func answer(_ fd: Int32, _ line: String) {
        switch ControlRequest.parse(line) {
        case .success(.subscribe(let rate, let shared)) where subscribe != nil:
            loop.remove(FileDescriptor(rawValue: fd))
            guard let socket = clients.removeValue(forKey: fd)?.socket.take() else { return }
            subscribe?(socket, rate, shared)
        case .success(.tryConfig(let path)) where tryConfig != nil:
            answer(fd, reply: tryConfig?(path, clients[fd]?.pid) ?? .error("this gestured cannot try a config"))
        case .success(let request): answer(fd, reply: handle(request))
        case .failure(let error): answer(fd, reply: .error(error.description))
        }
    }

    /// Writes the answer without blocking and closes (the socket goes with its
    /// client). What the client sent beyond its request is read first (bounded), so the
    /// close does not reset the connection under the answer.
    private func answer(_ fd: Int32, reply: ControlReply) {
        loop.remove(FileDescriptor(rawValue: fd))
        guard let client = clients.removeValue(forKey: fd), let socket = client.socket.take() else { return }
        do throws(Errno) {
            try socket.sendAll(Array(reply.wire.utf8))
        } catch {
            log("control: a client did not take its answer; dropped")
        }
        socket.shutdownWrite()
        var rest: [UInt8] = []
        _ = socket.readAvailable(into: &rest, limit: 1 << 16)
    }

    private func drop(_ fd: Int32) {
        loop.remove(FileDescriptor(rawValue: fd))
        clients[fd] = nil
    }
}
