import CLinux
import Glibc
import Testing

/// A Debian root with today's desktops in it (Tests/roots/build: Debian 13 "trixie" with
/// GNOME 48, KWin 6.3, sway 1.10, labwc; Debian testing "forky" with GNOME 50, KWin 6.7,
/// sway 1.12, labwc, Hyprland), built once and cached outside the repository. A desktop
/// runs in a throwaway view of it (Tests/roots/run) as a user of the root, and shares
/// the test's directory at its own path, so the daemon under test here reaches its
/// sockets and buses as it would on the user's machine.
///
/// `make test`'s "desktops" part (Tests/roots/desktops) builds the roots and `make deb`'s
/// package, then runs these tests with GESTURED_TEST_ROOTS and GESTURED_TEST_DEB set; a
/// root that cannot be built fails that part, loudly. Alone (`swift test`), the tests
/// that need a root are skipped and say how to run them.
struct DebianRoot: Sendable, CustomStringConvertible {
    let suite: String
    /// As the tests name it: "Debian 13 (trixie)".
    let release: String

    static let trixie = DebianRoot(suite: "trixie", release: "Debian 13")
    static let forky = DebianRoot(suite: "forky", release: "Debian testing")

    var description: String { "\(release) (\(suite))" }

    static let environment: [String: String] = {
        var env: [String: String] = [:]
        for name in ["GESTURED_TEST_ROOTS", "GESTURED_TEST_DEB", "GESTURED_ROOTS"] {
            if let value = getenv(name) { env[name] = String(cString: value) }
        }
        return env
    }()

    /// The package the desktops part built (`make deb`), installed in each view as a user
    /// would install it.
    static var package: String? { environment["GESTURED_TEST_DEB"] }

    /// Enabled where the desktops part runs the tests: the roots built, the package made, as root.
    static var available: ConditionTrait {
        .enabled(if: environment["GESTURED_TEST_ROOTS"] == "1" && package != nil && getuid() == 0,
                 "needs the Debian 13 and testing roots and the package: make test runs these in its desktops part (Tests/roots/desktops, as root)")
    }

    static let runScript = GNOMESession.root + "/Tests/roots/run"

    /// What Tests/roots' scripts are run with: a plain PATH, and the roots' cache where the
    /// caller names one.
    static var scriptEnvironment: [String] {
        ["PATH=/usr/sbin:/usr/bin:/sbin:/bin"] + (environment["GESTURED_ROOTS"].map { ["GESTURED_ROOTS=\($0)"] } ?? [])
    }

    /// The shell words that run what follows as the user the tests run desktops as.
    static let asUser = "exec setpriv --reuid=\(Unprivileged.uid) --regid=\(Unprivileged.uid) --clear-groups "

    /// `command` (run by /bin/sh -c, as root) in a throwaway view of the root with `shared`
    /// at its own path, in a session and process group of its own (`Unprivileged.killGroup`
    /// ends it, and the view goes with it). The environment given reaches the command.
    func spawn(_ command: String, sharing shared: String, environment: [String] = []) throws -> Gestured.Process {
        try Gestured.Process([Self.runScript, suite, "--share", shared, "--", "/usr/bin/env"] + environment + ["/bin/sh", "-c", command],
                             environment: Self.scriptEnvironment, executable: "/usr/bin/setsid")
    }

    /// The shell text that installs the package in the view (apt's way: dpkg, with its
    /// maintainer scripts and triggers), from a copy in `dir`; its output in `dir/dpkg.log`.
    static func installPackage(in dir: String) throws -> String {
        let deb = try #require(package, "GESTURED_TEST_DEB names the package")
        let copy = dir + "/gestured.deb"
        let cp = try Gestured.Process([deb, copy], executable: "/bin/cp")
        try #require(cp.wait() == 0, "cp \(deb): \(cp.stderr)")
        return "dpkg -i '\(copy)' >'\(dir)/dpkg.log' 2>&1 || { cat '\(dir)/dpkg.log' >&2; exit 3; }"
    }
}

/// A desktop running in a `DebianRoot` (Tests/roots/session SUITE DESKTOP DIR: sway,
/// labwc, kwin…), as the user the tests run desktops as (`Unprivileged.uid`), its sockets
/// and buses in `dir` on this machine; started, and waited for until it answers on its
/// own interface (Tests/roots/DESKTOP-session writes DIR/session.env then).
final class RootSession {
    let dir: TempDir
    let root: DebianRoot
    /// DIR/session.env: DESKTOP, VERSION, WAYLAND_DISPLAY (a path), and the desktop's own
    /// SWAYSOCK or DBUS_SESSION_BUS_ADDRESS.
    let env: [String: String]
    private let process: Gestured.Process

    init(_ desktop: String, in root: DebianRoot, dir: TempDir = TempDir()) throws {
        self.dir = dir
        self.root = root
        process = try Gestured.Process([GNOMESession.root + "/Tests/roots/session", root.suite, desktop, dir.path],
                                       environment: DebianRoot.scriptEnvironment + ["GESTURED_ROOTS_UID=\(Unprivileged.uid)"],
                                       executable: "/usr/bin/setsid")
        let file = dir.path + "/session.env"
        let deadline = clinux_monotonic_ns() + 90_000_000_000
        while access(file, R_OK) != 0 && process.poll() == nil && clinux_monotonic_ns() < deadline { process.pump(ms: 50) }
        let text = try #require(LiveDeviceTests.read(file), "\(desktop) in \(root) answered: \(process.stderr.suffix(3000))")
        var env: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            env[String(line[..<eq])] = String(line[line.index(after: eq)...]).trimmingCharacters(in: "'")
        }
        self.env = env
    }

    deinit { Unprivileged.killGroup(process) }

    /// "sway 1.12", "KWin 6.7.4": for the record.
    var version: String { "\(env["DESKTOP"] ?? "?") \(env["VERSION"] ?? "?")" }

    var log: String {
        process.pump(ms: 0)
        return String(process.stderr.suffix(3000))
    }

    /// `command` (sh) in the root, as the desktop's user, with the desktop's environment
    /// (its Wayland display, bus, runtime directory): what it printed, and how it exited.
    func run(_ command: String) throws -> (status: Int32?, output: String) {
        var environment = ["XDG_RUNTIME_DIR=\(dir.path)", "HOME=\(dir.path)/home", "QT_QPA_PLATFORM=wayland"]
        for name in ["WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "SWAYSOCK"] where env[name] != nil { environment.append("\(name)=\(env[name]!)") }
        let p = try root.spawn(DebianRoot.asUser + command,
                               sharing: dir.path, environment: environment)
        let status = p.wait(timeoutMS: 30_000)
        return (status, p.stdout + p.stderr)
    }

    /// A foot window of `appID` on this desktop: the root's own foot, as that user (Debian
    /// 12's foot 1.13 dies of SIGFPE on KWin 6's virtual output). `Unprivileged.killGroup` closes it.
    func openWindow(appID: String) throws -> Gestured.Process {
        try root.spawn(DebianRoot.asUser + "foot --log-level=error --app-id='\(appID)' sleep 120", sharing: dir.path,
                       environment: ["XDG_RUNTIME_DIR=\(dir.path)", "WAYLAND_DISPLAY=\(env["WAYLAND_DISPLAY"] ?? "")"])
    }
}

extension String {
    func trimmingCharacters(in c: Character) -> String {
        var s = Substring(self)
        while s.first == c { s = s.dropFirst() }
        while s.last == c { s = s.dropLast() }
        return String(s)
    }
}
