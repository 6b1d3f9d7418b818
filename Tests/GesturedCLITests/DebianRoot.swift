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

    /// `command` (run by /bin/sh -c, as root) in a throwaway view of the root with `shared`
    /// at its own path, in a session and process group of its own (`Unprivileged.killGroup`
    /// ends it, and the view goes with it). The environment given reaches the command.
    func spawn(_ command: String, sharing shared: String, environment: [String] = []) throws -> Gestured.Process {
        var env = ["PATH=/usr/sbin:/usr/bin:/sbin:/bin"]
        if let cache = Self.environment["GESTURED_ROOTS"] { env.append("GESTURED_ROOTS=\(cache)") }
        return try Gestured.Process([Self.runScript, suite, "--share", shared, "--", "/usr/bin/env"] + environment + ["/bin/sh", "-c", command],
                                    environment: env, executable: "/usr/bin/setsid")
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
