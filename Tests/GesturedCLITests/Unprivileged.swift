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
