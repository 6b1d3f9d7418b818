/// What every part of the program says of itself: its version and its exit codes.
public enum Gestured {
    /// The version `--version`, `status` and the event stream's `hello` report (the
    /// package's, debian/changelog, must agree: debian/rules checks).
    public static let version = "0.1.0"

    /// Exit codes, documented in `--help`, the README and gestured(1).
    public enum ExitCode: Int32 {
        case success = 0
        /// A runtime failure: unreadable file, device error, daemon could not start.
        case failure = 1
        /// The command line was wrong.
        case usage = 2
        /// The config file has errors (`check`, or `run` with no usable config).
        case invalidConfig = 3
    }
}
