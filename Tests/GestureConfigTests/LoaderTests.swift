import Glibc
import Testing
@testable import GestureConfig

/// A file in a fresh temporary directory, removed afterwards.
private final class TempFile {
    let dir: String
    let path: String
    init(_ contents: String, mode: mode_t = 0o644) {
        var template = Array("/tmp/gestured-config-XXXXXX".utf8CString)
        dir = String(cString: mkdtemp(&template))
        path = dir + "/config.yaml"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        _ = contents.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
        close(fd)
        chmod(path, mode)
    }
    deinit {
        unlink(path)
        rmdir(dir)
    }
}

private let valid = "gestures:\n  - {name: t, gesture: tap, fingers: 3, command: echo hi}\n"

@Suite struct LoaderTests {
    @Test func loadsAFileAndNamesItInDiagnostics() throws {
        let f = TempFile(valid + "  - {name: u, gesture: tapp, command: x}\n")
        let (config, diagnostics) = ConfigLoader.load(path: f.path)
        #expect(config == nil)
        #expect(diagnostics.map(\.description) == ["\(f.path):3:24: error: unknown gesture kind 'tapp', expected one of: tap, hold, pan, swipe, pinch, rotate, edgepan, transform, scrub, circle, tip-tap, tip-swipe, shape; did you mean 'tap'?"])
        let ok = TempFile(valid)
        let (c, d) = ConfigLoader.load(path: ok.path)
        #expect(d.isEmpty)
        #expect(c?.file == ok.path)
        #expect(c?.specs.first?.fingers == 3...3)
    }

    @Test func missingFile() {
        let (config, diagnostics) = ConfigLoader.load(path: "/nonexistent/gestured.yaml")
        #expect(config == nil)
        #expect(diagnostics.map(\.description) == ["/nonexistent/gestured.yaml: error: cannot open the config file: ENOENT (No such file or directory) (looked for it because it was named with --config or found on the search path)"])
    }

    @Test(arguments: [(mode_t(0o666), "everyone (mode 0666)"), (0o664, "its group (mode 0664)"), (0o602, "everyone (mode 0602)")])
    func refusesFilesOthersCanWrite(_ mode: mode_t, _ who: String) {
        let f = TempFile(valid, mode: mode)
        let (config, diagnostics) = ConfigLoader.load(path: f.path)
        #expect(config == nil)
        #expect(diagnostics.map(\.description) == ["\(f.path): error: refusing a config file writable by \(who): its commands run as this user; fix it with 'chmod go-w'"])
    }

    @Test func refusesFilesOfAnotherUserButAcceptsRoots() {
        #expect(ConfigLoader.ownershipProblem(mode: S_IFREG | 0o644, owner: 1001, uid: 1000)
                == "refusing a config file owned by another user (uid 1001): its commands would run as this user (uid 1000); take ownership of it or use your own file")
        #expect(ConfigLoader.ownershipProblem(mode: S_IFREG | 0o644, owner: 0, uid: 1000) == nil)      // /etc/gestured/config.yaml
        #expect(ConfigLoader.ownershipProblem(mode: S_IFREG | 0o600, owner: 1000, uid: 1000) == nil)
        #expect(ConfigLoader.ownershipProblem(mode: S_IFDIR | 0o755, owner: 1000, uid: 1000) == "refusing a directory: a config must be a regular file")

        let f = TempFile(valid)
        guard chown(f.path, 4242, 4242) == 0 else { return }  // only root can give a file away
        let (config, diagnostics) = ConfigLoader.load(path: f.path, uid: 1000)
        #expect(config == nil)
        #expect(diagnostics.first?.message.hasPrefix("refusing a config file owned by another user (uid 4242)") == true)
    }

    @Test func refusesADirectoryAndAHugeFile() {
        let (_, d) = ConfigLoader.load(path: "/tmp")
        #expect(d.map(\.description) == ["/tmp: error: refusing a directory: a config must be a regular file"])
        let f = TempFile("# " + String(repeating: "x", count: ConfigLoader.maximumFileSize) + "\n")
        let (config, diagnostics) = ConfigLoader.load(path: f.path)
        #expect(config == nil)
        #expect(diagnostics.map(\.description) == ["\(f.path): error: the file is \(ConfigLoader.maximumFileSize + 3) bytes, more than the 4 MiB a config may be"])
    }

    @Test func searchPathOrder() {
        let env = ["XDG_CONFIG_HOME": "/x", "HOME": "/home/u"]
        #expect(configSearchPath(environment: env) == ["/x/gestured/config.yaml", "/etc/gestured/config.yaml"])
        #expect(configSearchPath(environment: ["HOME": "/home/u"]) == ["/home/u/.config/gestured/config.yaml", "/etc/gestured/config.yaml"])
        // A relative XDG_CONFIG_HOME is invalid per the XDG spec and ignored.
        #expect(configSearchPath(environment: ["XDG_CONFIG_HOME": "rel", "HOME": "/h"]) == ["/h/.config/gestured/config.yaml", "/etc/gestured/config.yaml"])
        #expect(configSearchPath(environment: [:]) == ["/etc/gestured/config.yaml"])

        #expect(resolveConfigPath(explicit: "my.yaml", environment: env, exists: { _ in false }) == .file("my.yaml"))
        #expect(resolveConfigPath(explicit: nil, environment: env, exists: { _ in true }) == .file("/x/gestured/config.yaml"))
        #expect(resolveConfigPath(explicit: nil, environment: env, exists: { $0.hasPrefix("/etc") }) == .file("/etc/gestured/config.yaml"))
        #expect(resolveConfigPath(explicit: nil, environment: env, exists: { _ in false }) == .builtIn)
    }
}
