import JSON
/// Requests to the socket compositors (sway/i3, Hyprland, niri), each on a connection of its own that ends with
/// its reply: what desktop actions send (Sources/DesktopActions). A connection per
/// request costs one connect (microseconds on a Unix socket) and has no state to
/// lose when the compositor restarts.
package enum CompositorRequest {
    /// sway or i3: RUN_COMMAND with `command` (`workspace next_on_output`). `done` gets
    /// nil when every command succeeded, or what went wrong: the compositor's own error
    /// text, or that it could not be reached.
    package static func i3(socket path: String, command: String, loop: FocusLoop,
                           done: @escaping (String?) -> Void) -> OneShotQuery {
        OneShotQuery(path: path, request: I3IPCSource.frame(.runCommand, command), loop: loop, complete: i3ReplyComplete) { reply in
            guard let reply else { return done("no reply on \(path)") }
            done(i3Outcome(reply))
        }
    }

    /// Hyprland: a request on `.socket.sock`, as `hyprctl` writes it (`dispatch
    /// workspace e+1`); Hyprland answers `ok` or an error, then closes.
    package static func hyprland(socket path: String, request: String, loop: FocusLoop,
                                 done: @escaping (String?) -> Void) -> OneShotQuery {
        OneShotQuery(path: path, request: Array(request.utf8), loop: loop) { reply in
            guard let reply else { return done("no reply on \(path)") }
            let text = trimmed(String(decoding: reply, as: UTF8.self))
            done(text == "ok" ? nil : (text.isEmpty ? "an empty reply" : String(text.prefix(200))))
        }
    }

    /// niri: one request line on `NIRI_SOCKET` (`{"Action":{"FocusWorkspaceDown":{}}}`);
    /// niri answers one line, `{"Ok":"Handled"}` or `{"Err":"…"}`, and would read more
    /// requests: the connection is closed once the line is in.
    package static func niri(socket path: String, request: String, loop: FocusLoop,
                             done: @escaping (String?) -> Void) -> OneShotQuery {
        OneShotQuery(path: path, request: Array((request + "\n").utf8), loop: loop, complete: { $0.contains(UInt8(ascii: "\n")) }) { reply in
            guard let reply else { return done("no reply on \(path)") }
            done(niriOutcome(reply))
        }
    }

    /// niri's reply line: nil for `Ok`, else its error text.
    static func niriOutcome(_ reply: [UInt8]) -> String? {
        let line = reply.prefix { $0 != UInt8(ascii: "\n") }
        guard let json = JSONValue.parse(line, limits: .init(keys: ["Ok", "Err"], maxStringScalars: 200, maxValues: 1000)) else {
            return "a reply that is not niri's JSON"
        }
        if json["Ok"] != nil { return nil }
        return json["Err"]?.string ?? "a reply that is neither Ok nor Err"
    }

    private static func trimmed(_ text: String) -> String {
        var s = Substring(text)
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return String(s)
    }

    /// Whether `bytes` holds a whole i3-ipc message (header and payload).
    static func i3ReplyComplete(_ bytes: [UInt8]) -> Bool {
        bytes.count >= I3IPCSource.headerSize && bytes.count >= I3IPCSource.headerSize + Int(I3IPCSource.u32(bytes, 6))
    }

    /// RUN_COMMAND's reply: one `{"success": bool, "error": "…"}` per command.
    static func i3Outcome(_ reply: [UInt8]) -> String? {
        guard i3ReplyComplete(reply), reply.starts(with: I3IPCSource.magic),
              let json = JSONValue.parse(reply[I3IPCSource.headerSize...]), let results = json.array else {
            return "a reply that is not an i3-ipc command result"
        }
        let failures = results.filter { $0["success"]?.bool != true }
        guard !failures.isEmpty else { return nil }
        return failures.map { String(($0["error"]?.string ?? "failed").prefix(200)) }.joined(separator: "; ")
    }
}

