import DaemonCore
import JSON
import LinuxSystem

/// The control socket's protocol (docs/CONTROL.md). A client connects to
/// `$XDG_RUNTIME_DIR/gestured.sock`, writes one request line, and reads the answer
/// until the daemon closes: a first line `ok` or `error: MESSAGE`, then the body.
///
///     status            the daemon's state as text
///     status --json     the same as one JSON object
///     enable NAME       enable a gesture until the daemon stops
///     disable NAME      disable it
///     reload            read the config again (as SIGHUP)
///     subscribe [rate=N]  `ok`, then the event stream's JSON lines until the client
///                       closes (Stream/, StreamSubscribers.swift)
///     subscribe [rate=N] shared  `ok shared SIZE POS` with the stream's ring passed
///                       (SCM_RIGHTS), then `hello`; the client reads the ring
///                       (StreamRing.swift, SharedStreamReader.swift)
///     try PATH          run the config at PATH beside the running one, in dry run, on
///                       the same frames; its lines join the stream with
///                       `"source":"try"` (gestured ui's Try; Stream/TryRun.swift)
///     try off           stop it
///     trigger NAME [app=APP] [from=manual|shortcut]
///                       run binding NAME as if its gesture had been performed
///                       (`Daemon.trigger`); `app=`: its `apps:` variant for APP (default:
///                       the focused app); the answer says what ran, or would in a dry run
package enum ControlRequest: Equatable {
    case status(json: Bool)
    case enable(String)
    case disable(String)
    case reload
    /// Frames per second per device, `streamRates`; `shared`: through the ring.
    case subscribe(rate: Int, shared: Bool = false)
    /// `try PATH`: a config file to try beside the running one; nil: `try off`.
    case tryConfig(String?)
    /// `trigger NAME [app=APP] [from=ORIGIN]`: app nil, the focused one.
    case trigger(String, app: String? = nil, origin: TriggerOrigin = .manual)

    /// `subscribe`'s `rate=`: frames per second per device.
    package static let streamRates = 1...1000
    package static let defaultStreamRate = 60

    /// A request longer than this is refused unread.
    package static let maxLength = 4096

    package static let usage = "expected one of: status, status --json, enable NAME, disable NAME, reload, subscribe [rate=N] [shared], try PATH, try off, trigger NAME [app=APP] [from=manual|shortcut]"

    /// Parses one request line; the error is the answer to send.
    package static func parse(_ line: String) -> Result<ControlRequest, ControlError> {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
        switch (words.first, words.count) {
        case ("status", 1): return .success(.status(json: false))
        case ("status", 2) where words[1] == "--json": return .success(.status(json: true))
        case ("enable", 2): return .success(.enable(words[1]))
        case ("disable", 2): return .success(.disable(words[1]))
        case ("reload", 1): return .success(.reload)
        case ("subscribe", _):
            var rate = defaultStreamRate, shared = false, rated = false
            for word in words.dropFirst() {
                if word == "shared", !shared {
                    shared = true
                } else if word.hasPrefix("rate="), !rated {
                    rated = true
                    guard let n = Int(word.dropFirst(5)), streamRates.contains(n) else {
                        return .failure(ControlError("'rate=' takes frames per second, \(streamRates.lowerBound)…\(streamRates.upperBound)"))
                    }
                    rate = n
                } else {
                    return .failure(ControlError("'subscribe' takes only 'rate=N' and 'shared', each once"))
                }
            }
            return .success(.subscribe(rate: rate, shared: shared))
        case ("try", 2) where words[1] == "off": return .success(.tryConfig(nil))
        case ("try", 2) where words[1].hasPrefix("/"): return .success(.tryConfig(words[1]))
        case ("try", _): return .failure(ControlError("'try' takes the absolute path of a config file (without spaces), or 'off'"))
        case ("trigger", 2...): return parseTrigger(words)
        case ("enable", _), ("disable", _), ("trigger", _): return .failure(ControlError("'\(words[0])' takes one gesture name"))
        default:
            let shown = line.unicodeScalars.prefix(40).map { $0.value < 0x20 || $0.value == 0x7f ? "?" : Character($0) }
            return .failure(ControlError("unknown request '\(String(shown))'; \(usage)"))
        }
    }

    /// `trigger NAME [app=APP] [from=ORIGIN]`, each option once. An app id with a
    /// space cannot be asked for (the request's words are split at spaces).
    private static func parseTrigger(_ words: [String]) -> Result<ControlRequest, ControlError> {
        var app: String?, origin: TriggerOrigin?
        for word in words.dropFirst(2) {
            if word.hasPrefix("app="), app == nil, word.count > 4 {
                app = String(word.dropFirst(4))
            } else if word.hasPrefix("from="), origin == nil, let o = TriggerOrigin(rawValue: String(word.dropFirst(5))) {
                origin = o
            } else {
                let origins = TriggerOrigin.allCases.map(\.rawValue).joined(separator: "|")
                return .failure(ControlError("'trigger' takes one gesture name, then only 'app=APP' and 'from=\(origins)', each once"))
            }
        }
        return .success(.trigger(words[1], app: app, origin: origin ?? .manual))
    }

    package var line: String {
        switch self {
        case .status(let json): return json ? "status --json" : "status"
        case .enable(let name): return "enable \(name)"
        case .disable(let name): return "disable \(name)"
        case .reload: return "reload"
        case .subscribe(let rate, let shared):
            return (rate == Self.defaultStreamRate ? "subscribe" : "subscribe rate=\(rate)") + (shared ? " shared" : "")
        case .tryConfig(let path): return "try " + (path ?? "off")
        case .trigger(let name, let app, let origin):
            return "trigger \(name)" + (app.map { " app=\($0)" } ?? "") + (origin == .manual ? "" : " from=\(origin.rawValue)")
        }
    }
}

package struct ControlError: Error, CustomStringConvertible {
    package var description: String
    /// The socket is served by another user's process (`ControlClient.connect`).
    package var foreignServer = false
    package init(_ message: String, foreignServer: Bool = false) {
        description = message
        self.foreignServer = foreignServer
    }
}

/// The answer to one request.
package struct ControlReply: Equatable {
    package var ok: Bool
    package var message: String
    package var body: String

    package static func ok(_ body: String) -> ControlReply { ControlReply(ok: true, message: "", body: body) }
    package static func error(_ message: String) -> ControlReply { ControlReply(ok: false, message: message, body: "") }

    package var wire: String { (ok ? "ok\n" : "error: \(message)\n") + body }

    /// Reads a reply from its wire form.
    package static func parse(_ text: String) -> ControlReply? {
        guard let nl = text.firstIndex(of: "\n") else { return nil }
        let first = text[..<nl], body = String(text[text.index(after: nl)...])
        if first == "ok" { return .ok(body) }
        if first.hasPrefix("error: ") { return ControlReply(ok: false, message: String(first.dropFirst(7)), body: body) }
        return nil
    }
}

package enum ControlPath {
    /// `$XDG_RUNTIME_DIR/gestured.sock`, or nil where there is no runtime directory.
    package static func resolve(_ environment: [String: String]) -> String? {
        guard let dir = environment["XDG_RUNTIME_DIR"], dir.hasPrefix("/") else { return nil }
        return dir + "/gestured.sock"
    }

    /// Why the directory of `socket` is no place for the control socket, or nil if it
    /// is. The XDG base directory spec's rule, which systemd keeps for /run/user/UID:
    /// owned by the user, mode 0700. Anywhere else another user can listen on
    /// `gestured.sock` first, and answer `gestured status` and `disable` in our place.
    package static func unsafeDirectory(of socket: String, uid: UserID = Process.userID) -> String? {
        let dir = String(socket[..<(socket.lastIndex(of: "/") ?? socket.startIndex)])
        let st: FileStatus
        do throws(Errno) {
            st = try FileSystem.status(dir.isEmpty ? "/" : dir)
        } catch {
            return "XDG_RUNTIME_DIR \(dir): \(error)"
        }
        let mode = st.permissions
        let octal = "0" + String(mode, radix: 8)
        guard st.isDirectory else { return "XDG_RUNTIME_DIR \(dir) is not a directory" }
        guard st.owner == uid, mode & 0o077 == 0 else {
            let owner = st.owner == uid ? "yours" : "owned by uid \(st.owner)"
            return "XDG_RUNTIME_DIR \(dir) is \(owner) with mode \(octal); it must be yours (uid \(uid)) with mode 0700, as systemd makes /run/user/\(uid), or another user could stand in for gestured on its socket"
        }
        return nil
    }
}
