import CLinux
import Glibc
import PlainText
import Testing

/// A headless GNOME Shell session (Tests/gnome/session) with gestured's extension installed
/// as `make install-gnome-extension` puts it (here) or as the package does (in a
/// `DebianRoot`), and the test harness extension (Tests/gnome/harness.js: leaves the
/// overview, focuses new windows, turns on Eval), run as nobody when we are root. Its session bus lets root connect, so the daemon under test
/// (in this process) and `gdbus` reach it; GNOME's own state is read with Eval.
final class GNOMESession {
    static let extensionUUID = "gestured@gestured.github.io"
    static let harnessUUID = "harness@gestured.github.io"
    static let root: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // Tests/GesturedCLITests/GNOMESession.swift
        return parts.joined(separator: "/")
    }()
    static let programs = Requires.programs([("gnome-shell", "gnome-shell"), ("gdbus", "libglib2.0-bin"),
                                             ("gnome-extensions", "gnome-shell"), ("dbus-run-session", "dbus-daemon"),
                                             ("foot", "foot"), ("setsid", "util-linux"), ("setpriv", "util-linux"),
                                             ("python3", "python3"), ("make", "make")])
    /// The fake logind is a Python module, not a program.
    static let dbusmock = ConditionTrait.disabled(if: access("/usr/lib/python3/dist-packages/dbusmock/templates/logind.py", R_OK) != 0,
                                                  "missing python3-dbusmock (apt-get install python3-dbusmock)")

    let dir = TempDir()
    /// The session bus (root may connect).
    var address: String { "unix:path=\(dir.path)/session_bus" }
    /// Where GNOME Shell runs: nil for this machine's (Debian 12's GNOME 43), else a root's.
    let root: DebianRoot?
    private var shell: Gestured.Process!
    private var windows: [Gestured.Process] = []

    /// Starts GNOME Shell with `enabled` extensions on and a virtual monitor of each of
    /// `monitors`' sizes (`Meta-0`, `Meta-1`…), and waits until it has started. Here,
    /// gestured's extension is where `make install-gnome-extension` puts it; in `root`,
    /// where the package puts it: `make deb`'s package is installed there first, and its
    /// postinst links the form that root's GNOME loads.
    init(enabled: [String], monitors: [String] = ["1280x800"], in root: DebianRoot? = nil) throws {
        self.root = root
        chmod(dir.path, 0o700)
        let series: String
        if root == nil {
            let make = try Gestured.Process(["-s", "-C", Self.root, "install-gnome-extension", "PREFIX=\(dir.path)/usr"],
                                            executable: "/usr/bin/make")
            try #require(make.wait(timeoutMS: 30_000) == 0, "make install-gnome-extension: \(make.stderr)")
            series = "auto"
        } else {
            series = "45"  // GNOME 48 and 50; the package's own choice is what the tests check
        }
        let harness = try Gestured.Process([series, dir.path + "/home/.local/share/gnome-shell/extensions/" + Self.harnessUUID,
                                            Self.root + "/Tests/gnome/harness.js"], executable: Self.root + "/gnome-extension/build")
        try #require(harness.wait() == 0, "the harness extension built: \(harness.stderr)")
        let session = dir.path + "/session"
        let copy = try Gestured.Process([Self.root + "/Tests/gnome/session", session], executable: "/bin/cp")
        try #require(copy.wait() == 0, "the session script copied: \(copy.stderr)")
        try Unprivileged.own(dir.path)
        let environment = ["GESTURED_GNOME_MONITORS=\(monitors.joined(separator: " "))"]
        let command = [session, dir.path] + enabled
        if let root {
            let link = "/usr/share/gnome-shell/extensions/" + Self.extensionUUID
            shell = try root.spawn(try DebianRoot.installPackage(in: dir.path) + "; readlink \(link) >\(dir.path)/extension-form; "
                                   + "gnome-shell --version >&2; " + DebianRoot.asUser
                                   + command.map { "'\($0)'" }.joined(separator: " "),
                                   sharing: dir.path, environment: environment + ["XDG_DATA_DIRS=/usr/share"])
        } else {
            shell = try Unprivileged.spawn(command, environment: environment + ["XDG_DATA_DIRS=\(dir.path)/usr/share:/usr/share"],
                                           ownSession: true)
        }
        // main.js logs this once start-up is complete (extensions enabled, overview left).
        try #require(shell.waitForLog("GNOME Shell started at", timeoutMS: 120_000),
                     "gnome-shell started: \(shell.poll().map { "exited \($0)" } ?? "running"): \(shell.stderr.suffix(3000))")
    }

    /// In a root: where the package's link to the extension points (the form it chose).
    var extensionForm: String? { LiveDeviceTests.read(dir.path + "/extension-form")?.trimmingSuffix("\n") }

    /// What `gnome-shell --version` said in the root ("GNOME Shell 48.7"), for the record.
    var version: String? {
        shell.pump(ms: 0)
        return shell.stderr.split(separator: "\n").first { $0.hasPrefix("GNOME Shell ") }.map(String.init)
    }

    deinit {
        windows.removeAll()
        if let shell { Unprivileged.killGroup(shell) }
    }

    /// The log so far (for failure messages).
    var log: String {
        shell.pump(ms: 0)
        return String(shell.stderr.suffix(4000))
    }

    /// A foot window with `appID` (the harness focuses it once shown).
    func openWindow(appID: String) throws {
        let env = ["XDG_RUNTIME_DIR=\(dir.path)", "WAYLAND_DISPLAY=wayland-0"]
        windows.append(try Unprivileged.spawn(["foot", "--log-level=error", "--app-id=\(appID)", "sleep", "120"], environment: env))
    }

    /// `gdbus ARGS` on the session bus: its output, or nil with the error recorded.
    @discardableResult
    func gdbus(_ args: [String]) throws -> String? {
        let p = try Gestured.Process([args[0], "--address", address] + args.dropFirst(), executable: "/usr/bin/gdbus")
        let status = p.wait(timeoutMS: 20_000)
        guard status == 0 else {
            Issue.record("gdbus \(args) exited \(status.map(String.init) ?? "late"): \(p.stderr)")
            return nil
        }
        return p.stdout.trimmingSuffix("\n")
    }

    /// GNOME Shell's own state: `code` run by org.gnome.Shell.Eval (the harness turned on
    /// unsafe mode), its JSON result; nil if it threw.
    func eval(_ code: String) throws -> String? {
        guard let out = try gdbus(["call", "--dest", "org.gnome.Shell", "--object-path", "/org/gnome/Shell",
                                   "--method", "org.gnome.Shell.Eval", code]),
              out.hasPrefix("(true, '"), out.hasSuffix("')") else { return nil }
        return String(out.dropFirst(8).dropLast(2))
    }

    /// Turns the monitors as GNOME's display settings do: Mutter's DisplayConfig
    /// GetCurrentState, then ApplyMonitorsConfig (method 1: temporary) with each monitor
    /// in its current mode and `transforms[i]` (Mutter's numbers, wl_output's: 1 is the
    /// picture a quarter counter-clockwise), laid out left to right from Meta-0.
    func turnMonitors(_ transforms: [Int]) throws {
        let displayConfig = ["call", "--dest", "org.gnome.Mutter.DisplayConfig", "--object-path", "/org/gnome/Mutter/DisplayConfig",
                             "--method", "org.gnome.Mutter.DisplayConfig."]
        // (serial, [((connector, …), [(mode id, width, height, …)…], …)…], …)
        let state = try #require(try gdbus(displayConfig.dropLast() + [displayConfig.last! + "GetCurrentState"]))
        let serial = try #require(state.split(separator: ",").first?.split(separator: " ").last)
        var x = 0
        var logical: [String] = []
        for (i, transform) in transforms.enumerated() {
            let mode = try #require(state.quoted(after: "(('Meta-\(i)'", "), [('"), "Meta-\(i)'s mode in \(state)")
            logical.append("(\(x), 0, 1.0, uint32 \(transform), \(i == 0), [('Meta-\(i)', '\(mode)', @a{sv} {})])")
            let size = mode.prefix { $0 != "@" }.split(separator: "x").compactMap { Int($0) }
            x += transform % 2 == 1 ? size.last ?? 0 : size.first ?? 0
        }
        try gdbus(displayConfig.dropLast() + [displayConfig.last! + "ApplyMonitorsConfig", String(serial), "1",
                                              "[" + logical.joined(separator: ", ") + "]", "@a{sv} {}"])
    }

    /// Focuses the window of `appID` as GNOME does when it is clicked.
    func focus(appID: String) throws {
        let js = "Main.activateWindow(global.get_window_actors().map(a => a.meta_window).find(w => w.get_wm_class() === '\(appID)'))"
        #expect(try eval(js) != nil, "focused \(appID)")
    }

    /// `gnome-extensions enable|disable UUID`, as the session's user types it: with its
    /// HOME, since it edits the enabled-extensions setting through dconf.
    func extensions(_ verb: String, _ uuid: String = GNOMESession.extensionUUID) throws {
        let home = dir.path + "/home"
        let p = try Unprivileged.spawn(["env", "HOME=\(home)", "XDG_CONFIG_HOME=\(home)/.config", "DBUS_SESSION_BUS_ADDRESS=\(address)",
                                        "gnome-extensions", verb, uuid], environment: [])
        #expect(p.wait() == 0, "gnome-extensions \(verb) \(uuid): \(p.stderr)")
    }
}

extension String {
    /// What follows the markers, found one after the other, up to the next `'`: a quoted
    /// name in gdbus's output.
    func quoted(after markers: String...) -> String? {
        var rest = Substring(self)
        for marker in markers {
            let parts = rest.split(separator: marker, maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { return nil }
            rest = parts[1]
        }
        return String(rest.prefix { $0 != "'" })
    }

    func trimmingSuffix(_ s: String) -> String { hasSuffix(s) ? String(dropLast(s.count)) : self }
}
