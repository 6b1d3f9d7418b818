import LinuxSystem
import TouchModel

/// A client of the control socket (ControlProtocol.swift): `gestured status|enable|
/// disable|reload|events` and `gestured ui` connect to this user's daemon through it,
/// and believe nothing from a server of another user.
package enum ControlClient {
    /// Longest wait for the daemon's answer.
    package static let timeoutMS: Int32 = 5000

    /// Connects to this user's daemon, or says why not in words a user can act on.
    package static func connect(environment: [String: String]) throws(ControlError) -> StreamSocket {
        guard let path = ControlPath.resolve(environment) else {
            throw ControlError("XDG_RUNTIME_DIR is not set, so there is no control socket to find; run this in the desktop session that runs gestured")
        }
        return try connect(to: path)
    }

    /// Connects to the control socket at `path` and makes sure that this user's process
    /// serves it (getsockopt `SO_PEERCRED`) before a byte is sent or read: in a runtime
    /// directory that is not the user's alone, another user can listen there first, and
    /// its answers (a `hello` naming `~/.bashrc` as the config, escape sequences) must not
    /// be believed nor shown. Every client goes through here: `status`, `enable`,
    /// `disable`, `reload`, `events`, and `gestured ui`'s stream, Save's reload, Try.
    package static func connect(to path: String) throws(ControlError) -> StreamSocket {
        let socket: StreamSocket
        do throws(Errno) {
            socket = try StreamSocket.connect(to: path)
        } catch .noSuchFileOrDirectory {
            throw ControlError("no gestured is running for this user (no control socket at \(path)); start it: systemctl --user start gestured")
        } catch .connectionRefused {
            throw ControlError("no gestured is running: \(path) is a stale socket left by a daemon that did not exit cleanly; starting gestured replaces it")
        } catch where error == .permissionDenied || error == .notPermitted {
            let owner = (try? FileSystem.status(path)).map { "uid \($0.owner)" } ?? "another user"
            throw ControlError("permission denied: \(path) belongs to \(owner); the control socket answers only the user the daemon runs as")
        } catch {
            throw ControlError("cannot connect to \(path): \(error)")
        }
        let server = try? socket.peerCredentials()
        guard let server, server.uid == Process.userID else {
            let who = server.map { "uid \($0.uid) (pid \($0.pid))" } ?? "a process whose user cannot be known"
            let why = ControlPath.unsafeDirectory(of: path).map { "; \($0)" } ?? ""
            throw ControlError("refusing to talk to \(path): it is served by \(who), not by you (uid \(Process.userID)), so it is not your gestured\(why)", foreignServer: true)
        }
        return socket
    }

    package static func exchange(_ request: ControlRequest, environment: [String: String]) -> Result<ControlReply, ControlError> {
        let socket: StreamSocket
        do throws(ControlError) {
            socket = try connect(environment: environment)
        } catch {
            return .failure(error)
        }
        let path = ControlPath.resolve(environment) ?? ""
        // A daemon that refuses us answers and closes before reading: its answer is
        // still there to read after a failed write (EPIPE).
        do throws(Errno) {
            try socket.sendAll(Array((request.line + "\n").utf8))
        } catch where error != .brokenPipe {
            return .failure(ControlError("cannot send the request to \(path): \(error)"))
        } catch {}
        var reply: [UInt8] = []
        let deadline = monotonicNanoseconds() / 1_000_000 + Int64(timeoutMS)
        while true {
            let left = Int32(max(0, deadline - monotonicNanoseconds() / 1_000_000))
            guard (try? Poll.ready([socket.descriptor], timeoutMS: left))?.first == true else {
                return .failure(ControlError("the daemon did not answer within \(timeoutMS / 1000) s"))
            }
            switch socket.readAvailable(into: &reply, limit: 16 << 20) {
            case .drained: continue
            case .failed(let e): return .failure(ControlError("reading the answer: \(e)"))
            case .closed:
                guard let r = ControlReply.parse(String(decoding: reply, as: UTF8.self)) else {
                    return .failure(ControlError("the daemon's answer is not one this gestured understands"))
                }
                return .success(r)
            }
        }
    }
}
