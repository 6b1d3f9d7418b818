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

/// sway 1.7 headless (one 800×600 output, HEADLESS-1) as that user, in `dir` (made its
/// XDG_RUNTIME_DIR, mode 0700 and theirs), and the path of its IPC socket.
struct HeadlessSway {
    let process: Gestured.Process
    let socket: String
    /// sway's own environment (its clients, foot, need the same).
    let environment: [String]

    init(in dir: TempDir) throws {
        chown(dir.path, Unprivileged.uid, Unprivileged.uid)
        chmod(dir.path, 0o700)
        let config = dir.write("sway.conf", "output HEADLESS-1 resolution 800x600\n", mode: 0o644)
        environment = ["XDG_RUNTIME_DIR=\(dir.path)", "WLR_BACKENDS=headless", "WLR_RENDERER=pixman", "WLR_LIBINPUT_NO_DEVICES=1"]
        process = try Unprivileged.spawn(["sway", "-c", config], environment: environment)
        socket = "\(dir.path)/sway-ipc.\(Unprivileged.uid).\(process.pid).sock"
    }
}
