import Glibc
import LinuxSystem
import YAMLTree

/// Where the config comes from.
public enum ConfigSource: Sendable, Equatable {
    case file(String)
    /// No file anywhere on the search path: the built-in default (config/default.yaml).
    case builtIn
}

/// The search order of SPEC §6: `--config PATH`, then `$XDG_CONFIG_HOME/gestured/config.yaml`
/// (`~/.config/gestured/config.yaml` when unset), then `/etc/gestured/config.yaml`,
/// then the built-in default. An explicit path is returned even if missing, so that
/// loading it reports the problem instead of silently using another file.
public func resolveConfigPath(explicit: String?, environment: [String: String],
                              exists: (String) -> Bool = FileSystem.exists) -> ConfigSource {
    if let explicit { return .file(explicit) }
    for path in configSearchPath(environment: environment) where exists(path) { return .file(path) }
    return .builtIn
}

/// The candidate files in search order, for `--help` and for error messages.
public func configSearchPath(environment: [String: String]) -> [String] {
    var paths: [String] = []
    if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
        paths.append(xdg + "/gestured/config.yaml")
    } else if let home = environment["HOME"], home.hasPrefix("/") {
        paths.append(home + "/.config/gestured/config.yaml")
    }
    paths.append("/etc/gestured/config.yaml")
    return paths
}

public enum ConfigLoader {
    /// Bigger than any hand-written config; refused rather than read into memory.
    public static let maximumFileSize = 4 << 20

    /// Reads, checks and parses a config file. The config is nil when there is any
    /// error; the diagnostics hold every error and warning, in file order.
    /// `uid` is whose file is acceptable besides root's (the daemon's user by default).
    public static func load(path: String, uid: uid_t = getuid()) -> (Config?, [Diagnostic]) {
        switch readFile(path, uid: uid) {
        case .failure(let d): return (nil, [d])
        case .success(let bytes): return parse(bytes, file: path)
        }
    }

    /// Loads whatever `source` names.
    public static func load(_ source: ConfigSource, uid: uid_t = getuid()) -> (Config?, [Diagnostic]) {
        switch source {
        case .file(let path): return load(path: path, uid: uid)
        case .builtIn: return parse(Array(defaultConfigYAML.utf8), file: builtInName)
        }
    }

    public static let builtInName = "<built-in default>"

    /// The built-in default's text (config/default.yaml): what `gestured ui` shows to
    /// edit when no file exists yet.
    public static var builtInText: String { defaultConfigYAML }

    /// Parses config text; `file` is the name diagnostics carry.
    public static func parse(_ bytes: [UInt8], file: String) -> (Config?, [Diagnostic]) {
        var log = DiagnosticLog(file: file)
        let (root, problem) = YAMLReader.read(bytes, fileKind: "a config file")
        if let problem { log.error(problem.mark, problem.message) }
        var parser = ConfigParser(file: file)
        parser.log = log
        parser.shapeDirectory = ShapeFile.directory(besideConfig: file)
        let config = log.hasErrors ? nil : parser.parse(root)
        let all = parser.log.all.enumerated().sorted { a, b in
            // File order; problems with the whole file first; stable otherwise.
            (a.element.mark ?? SourceMark(line: 0, column: 0), a.offset) < (b.element.mark ?? SourceMark(line: 0, column: 0), b.offset)
        }.map(\.element)
        return (config, all)
    }

    public static func parse(_ text: String, file: String) -> (Config?, [Diagnostic]) {
        parse(Array(text.utf8), file: file)
    }

    /// Opens the file and refuses one that another user could have written: its
    /// commands run as the daemon's user.
    static func readFile(_ path: String, uid: uid_t) -> Result<[UInt8], Diagnostic> {
        func fail(_ message: String) -> Result<[UInt8], Diagnostic> {
            .failure(Diagnostic(.error, file: path, mark: nil, message))
        }
        // A FIFO would block open() (and the daemon with it, deaf to SIGTERM) until a
        // writer came; a device could be read forever. Only a regular file is a config:
        // checked before opening, and opened non-blocking so that one swapped in
        // between cannot block either (fstat below checks again).
        if let before = try? FileSystem.status(path), let problem = fileTypeProblem(before.mode) { return fail(problem) }
        let file: OwnedFileDescriptor
        do throws(Errno) {
            file = try OwnedFileDescriptor(opening: path, O_RDONLY | O_NOCTTY | O_NONBLOCK)
        } catch {
            return fail("cannot open the config file: \(error)\(error == .noSuchFileOrDirectory ? " (looked for it because it was named with --config or found on the search path)" : "")")
        }
        let st: FileStatus
        do throws(Errno) { st = try file.descriptor.status() } catch { return fail("cannot stat the config file: \(error)") }
        if let problem = ownershipProblem(mode: st.mode, owner: st.owner, uid: uid) { return fail(problem) }
        guard st.size <= maximumFileSize else {
            return fail("the file is \(st.size) bytes, more than the \(maximumFileSize >> 20) MiB a config may be")
        }
        do throws(Errno) {
            return .success(try file.descriptor.readToEnd(maximumBytes: maximumFileSize))
        } catch .fileTooLarge {
            return fail("the file is more than the \(maximumFileSize >> 20) MiB a config may be")
        } catch {
            return fail("cannot read the config file: \(error)")
        }
    }

    /// The reason a file with this mode and owner must not be trusted, or nil.
    static func ownershipProblem(mode: mode_t, owner: uid_t, uid: uid_t) -> String? {
        if let problem = fileTypeProblem(mode) { return problem }
        if mode & (S_IWGRP | S_IWOTH) != 0 {
            let who = mode & S_IWOTH != 0 ? "everyone" : "its group"
            return "refusing a config file writable by \(who) (mode \(octal(mode & 0o7777))): its commands run as this user; fix it with 'chmod go-w'"
        }
        if owner != 0, owner != uid {
            return "refusing a config file owned by another user (uid \(owner)): its commands would run as this user (uid \(uid)); take ownership of it or use your own file"
        }
        return nil
    }

    /// A config file's bytes for `gestured ui`, which shows and saves it (and so does not
    /// refuse it for its owner or mode, as `readFile` does): opened non-blocking, as a
    /// FIFO would block open(2) and the ui's only thread with it until a writer came, and
    /// only a regular file, of at most `maximumFileSize`.
    public static func readRegularFile(_ path: String) throws(ConfigFileError) -> [UInt8] {
        let file: OwnedFileDescriptor
        do throws(Errno) {
            file = try OwnedFileDescriptor(opening: path, O_RDONLY | O_NOCTTY | O_NONBLOCK)
        } catch {
            throw ConfigFileError(path: path, message: "cannot open it: \(error)", errno: error)
        }
        let st: FileStatus
        do throws(Errno) { st = try file.descriptor.status() } catch { throw ConfigFileError(path: path, message: "cannot stat it: \(error)", errno: error) }
        if let problem = fileTypeProblem(st.mode) { throw ConfigFileError(path: path, message: problem) }
        do throws(Errno) {
            return try file.descriptor.readToEnd(maximumBytes: maximumFileSize)
        } catch .fileTooLarge {
            throw ConfigFileError(path: path, message: "the file is more than the \(maximumFileSize >> 20) MiB a config may be")
        } catch {
            throw ConfigFileError(path: path, message: "cannot read it: \(error)", errno: error)
        }
    }

    /// Why a file of this type cannot be a config, or nil for a regular file.
    static func fileTypeProblem(_ mode: mode_t) -> String? {
        let type: String
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFIFO: type = "a FIFO (named pipe)"
        case S_IFDIR: type = "a directory"
        case S_IFCHR: type = "a character device"
        case S_IFBLK: type = "a block device"
        case S_IFSOCK: type = "a socket"
        default: type = "a file of an unknown type"
        }
        return "refusing \(type): a config must be a regular file"
    }

    private static func octal(_ m: mode_t) -> String {
        var s = "", v = m
        repeat { s = String(v & 7) + s; v >>= 3 } while v > 0
        return "0" + s
    }
}

/// A config file `ConfigLoader.readRegularFile` would not read: `PATH: why`.
public struct ConfigFileError: Error, CustomStringConvertible {
    public var path: String
    public var message: String
    /// The system's error, when there was one (`ENOENT`: there is no file yet).
    public var errno: Errno?

    public var description: String { "\(path): \(message)" }
}
