import Glibc
import Testing

/// Programs that refuse to run as root (sway, gnome-shell) and their clients: as root the
/// tests run them as `nobody` (setpriv, util-linux), else as ourselves.
enum Unprivileged {
    static let nobody: uid_t = 65534
    /// Who they run as.
    static let uid: uid_t = getuid() == 0 ? nobody : getuid()

    /// `argv` (a program in /usr/bin, or a path) as that user. `ownSession`: in a session
    /// and process group of its own (setsid), which `killGroup` ends with all it started.
    static func spawn(_ argv: [String], environment: [String], ownSession: Bool = false) throws -> Gestured.Process {
        var command = argv
        if getuid() == 0 { command = ["setpriv", "--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups"] + command }
        if ownSession { command = ["setsid"] + command }
        let executable = command[0].hasPrefix("/") ? command[0] : "/usr/bin/" + command[0]
        return try Gestured.Process(Array(command.dropFirst()), environment: environment, executable: executable)
    }

    /// SIGTERM to the process group `spawn(ownSession: true)` made, then SIGKILL to what is left.
    static func killGroup(_ leader: Gestured.Process) {
        kill(-leader.pid, SIGTERM)
        if leader.wait(timeoutMS: 5_000) == nil { kill(-leader.pid, SIGKILL) }
        _ = leader.wait(timeoutMS: 5_000)
        kill(-leader.pid, SIGKILL)  // daemons it started that outlived it (dconf-service)
    }

    /// Hands `path` and everything in it to that user (the session writes its home).
    static func own(_ path: String) throws {
        guard getuid() == 0 else { return }
        let chown = try Gestured.Process(["-R", "\(nobody):\(nobody)", path], executable: "/bin/chown")
        #expect(chown.wait() == 0, "chown -R \(path): \(chown.stderr)")
    }
}

/// sway headless as that user: here, Debian 12's sway 1.7 (one 800×600 output,
/// HEADLESS-1) in `dir` (made its XDG_RUNTIME_DIR, mode 0700 and theirs); or in a
/// `DebianRoot` (sway 1.10 in Debian 13, 1.12 in testing: Tests/roots/sway-session, one
/// 1280×800 HEADLESS-1), its sockets in `dir` all the same.
struct HeadlessSway {
    /// Its IPC socket.
    let socket: String
    /// sway's own environment (its clients, foot, need the same).
    let environment: [String]
    /// WAYLAND_DISPLAY for its clients: a name in `dir`, or a path.
    let display: String
    private let process: Gestured.Process?
    private let session: RootSession?

    init(in dir: TempDir, root: DebianRoot? = nil) throws {
        if let root {
            let session = try RootSession("sway", in: root, dir: dir)
            self.session = session
            process = nil
            socket = try #require(session.env["SWAYSOCK"])
            display = try #require(session.env["WAYLAND_DISPLAY"])
            environment = ["XDG_RUNTIME_DIR=\(dir.path)"]
            return
        }
        session = nil
        chown(dir.path, Unprivileged.uid, Unprivileged.uid)
        chmod(dir.path, 0o700)
        let config = dir.write("sway.conf", "output HEADLESS-1 resolution 800x600\n", mode: 0o644)
        environment = ["XDG_RUNTIME_DIR=\(dir.path)", "WLR_BACKENDS=headless", "WLR_RENDERER=pixman", "WLR_LIBINPUT_NO_DEVICES=1"]
        let process = try Unprivileged.spawn(["sway", "-c", config], environment: environment)
        self.process = process
        socket = "\(dir.path)/sway-ipc.\(Unprivileged.uid).\(process.pid).sock"
        display = "wayland-1"
    }

    /// Whether it still runs (for failure messages), and which sway.
    var state: String {
        if let session { return "\(session.version): \(session.log)" }
        return process?.poll().map { "sway exited \($0)" } ?? "running"
    }
}
