import ConfigImport
import DaemonLoop
import GestureConfig
import Glibc
import LinuxSystem
import PlainText
import TouchModel

/// `gestured import FILE [--from FORMAT] [-o FILE] [--force]`: another tool's config
/// as a gestured config (Sources/ConfigImport, docs/IMPORT.md).
enum ImportCommand {
    static let help = """
    usage: gestured import FILE [--from libinput-gestures|fusuma|touchegg] [-o FILE] [--force]

    Writes a gestured config that does what another gesture tool's config does:
    libinput-gestures (libinput-gestures.conf), fusuma (config.yml) or touchegg
    (touchegg.conf). The format is found from the file unless --from names it.
    Each gesture says where it came from (file:line); what gestured cannot do is
    kept as a comment in its place, with the reason. The result passes
    `gestured check`; a summary and the command to try it go to standard error.

      --from FORMAT      libinput-gestures, fusuma or touchegg
      -o, --output FILE  write to FILE instead of standard output; an existing
                         FILE is never replaced without --force, and a failed
                         import leaves no file
      --force            replace FILE if it exists

    exit codes: 0 imported, 1 a file could not be read or written, 2 usage error,
                3 FILE is not a valid config of its format (file:line:column: why), or
                  its translation is more than a gestured config may hold
    """

    /// Larger than any gesture tool's config; refused before it is read.
    static let maximumInputBytes = ConfigLoader.maximumFileSize

    static func run(_ args: ArraySlice<String>) throws -> GesturedCommand.ExitCode {
        let a = try Arguments(args, spec: .init(flags: ["force"], options: ["from", "output"], short: ["o": "output"]))
        guard a.positionals.count == 1 else { throw UsageError("needs exactly one FILE to import, e.g. ~/.config/libinput-gestures.conf") }
        var format: ImportFormat?
        if let name = a.option("from") {
            guard let f = ImportFormat(rawValue: name) else {
                let names = ImportFormat.allCases.map(\.rawValue)
                var message = "--from takes \(names.joined(separator: ", ")), not '\(name)'"
                if let guess = DidYouMean.suggestion(for: name, among: names) { message += "; did you mean '\(guess)'?" }
                throw UsageError(message)
            }
            format = f
        }
        let input = a.positionals[0]
        let output = a.option("output")
        if let output, !a.flag("force"), FileSystem.exists(output) {
            Output.err("gestured import: \(output.printable) exists; --force replaces it")
            return .failure
        }
        let bytes: [UInt8]
        do throws(ImportError) { bytes = try read(input) } catch {
            Output.err(error.description.printable)
            return .failure
        }
        let chosen = format ?? ImportFormat.detect(bytes)
        let imported: ImportedConfig
        do throws(ImportError) {
            imported = try chosen.translate(bytes, file: input)
        } catch {
            Output.err(error.description.printable + (format == nil ? " (read as \(chosen.rawValue); --from names another format)" : ""))
            return .invalidConfig
        }
        let yaml: String
        do throws(ImportError) { yaml = try imported.yamlWithinLimits(source: input) } catch {
            Output.err(error.description.printable)
            return .invalidConfig
        }
        // What `gestured check` would say: the translation's own test, on every input.
        let (_, diagnostics) = ConfigLoader.parse(yaml, file: output ?? "<imported>")
        if diagnostics.contains(where: \.isError) {
            for d in diagnostics { Output.err(d.description.printable) }
            Output.err("gestured import: the translation of \(input.printable) does not pass check (a bug in gestured import: please report it with the file)")
            return .failure
        }
        if let output {
            if let problem = write(yaml, to: output, replacing: a.flag("force")) {
                Output.err("gestured import: \(output.printable): \(problem)")
                return .failure
            }
        } else {
            Output.out(String(yaml.dropLast()))  // out() ends the line
        }
        Output.err("gestured import: \(imported.summary), from \(chosen.possessive) \(input.printable)")
        Output.err("try it: gestured run --config \(output.map { $0.printable } ?? "FILE") --dry-run" + (output == nil ? "   (with the output saved as FILE)" : ""))
        return .success
    }

    /// The whole file, or why not: only a regular file, at most `maximumInputBytes`.
    private static func read(_ path: String) throws(ImportError) -> [UInt8] {
        func fail(_ message: String) -> ImportError { ImportError(file: path, message) }
        // A FIFO or device would block or never end: only a regular file is read.
        if let st = try? FileSystem.status(path), st.type != S_IFREG { throw fail("not a regular file") }
        let bytes: Result<[UInt8], Errno> = Result { () throws(Errno) in
            let file = try OwnedFileDescriptor(opening: path, O_RDONLY | O_NOCTTY | O_NONBLOCK)
            let st = try file.descriptor.status()
            guard st.type == S_IFREG, st.size <= maximumInputBytes else { throw .fileTooLarge }
            return try file.descriptor.readToEnd(maximumBytes: maximumInputBytes)
        }
        switch bytes {
        case .success(let b): return b
        case .failure(.fileTooLarge):
            throw fail("not a regular file of at most \(maximumInputBytes >> 20) MiB (a gesture config is far smaller)")
        case .failure(let error):
            throw fail("cannot read it: \(error)")
        }
    }

    /// Writes `text` beside `path` and puts it there whole (rename(2), or link(2) when
    /// nothing may be replaced), so no half-written config is ever left. nil on success.
    private static func write(_ text: String, to path: String, replacing: Bool) -> String? {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let temporary = directory + ".gestured-import-\(getpid()).tmp"
        do throws(Errno) {
            let file = try OwnedFileDescriptor(opening: temporary, O_WRONLY | O_CREAT | O_EXCL, mode: 0o644)
            defer { FileSystem.remove(temporary) }
            try file.descriptor.writeAll(text)
            if replacing {
                try FileSystem.rename(temporary, to: path)
            } else {
                do throws(Errno) { try FileSystem.link(temporary, to: path) } catch where error.rawValue == EEXIST {
                    return "exists; --force replaces it"
                }
            }
            return nil
        } catch {
            return "cannot write it: \(error)"
        }
    }
}
