import Glibc
import Testing

/// Conditions for tests that run real programs this machine may lack. Such a test is
/// *skipped*, and the run says which Debian package would let it run, rather than
/// returning early and counting as passed without having tested anything.
/// `make test` installs these packages when it runs as root.
enum Requires {
    /// Every program in `/usr/bin`, each with the Debian package that has it.
    static func programs(_ programs: [(program: String, package: String)]) -> ConditionTrait {
        let absent = programs.filter { access("/usr/bin/" + $0.program, X_OK) != 0 }
        let why = "missing " + absent.map { "\($0.program) (apt-get install \($0.package))" }.joined(separator: ", ")
        return .disabled(if: !absent.isEmpty, Comment(rawValue: why))
    }

    /// Root, to run a client as another user.
    static var root: ConditionTrait { .enabled(if: getuid() == 0, "needs root, to run a client as another user") }
}
