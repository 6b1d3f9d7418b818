import DaemonLoop
import GestureConfig

/// A small command-line parser: `--flag`, `--option VALUE` / `--option=VALUE`,
/// positionals; an unknown option is a usage error with a did-you-mean.
struct Arguments {
    struct Spec {
        var flags: Set<String>
        var options: Set<String>
        /// Options that may be given more than once (`--device A --device B`).
        var repeatable: Set<String> = []
        var short: [Character: String] = [:]
    }

    private(set) var flags: Set<String> = []
    private(set) var options: [String: [String]] = [:]
    private(set) var positionals: [String] = []

    init(_ args: ArraySlice<String>, spec: Spec) throws(UsageError) {
        var rest = args[...]
        while let arg = rest.popFirst() {
            if arg == "--" { positionals.append(contentsOf: rest); break }
            var name: String
            var inline: String?
            if arg.hasPrefix("--") {
                let body = arg.dropFirst(2)
                if let eq = body.firstIndex(of: "=") {
                    name = String(body[..<eq])
                    inline = String(body[body.index(after: eq)...])
                } else {
                    name = String(body)
                }
            } else if arg.hasPrefix("-"), arg.count == 2, let long = spec.short[arg.last!] {
                name = long
            } else if arg.hasPrefix("-") && arg.count > 1 {
                throw UsageError("unknown option '\(arg)'")
            } else {
                positionals.append(arg)
                continue
            }
            if spec.flags.contains(name) {
                guard inline == nil else { throw UsageError("--\(name) takes no value") }
                flags.insert(name)
            } else if spec.options.contains(name) {
                guard let value = inline ?? rest.popFirst() else { throw UsageError("--\(name) needs a value") }
                if options[name] != nil && !spec.repeatable.contains(name) {
                    throw UsageError("--\(name) given twice")
                }
                options[name, default: []].append(value)
            } else {
                let known = spec.flags.union(spec.options).sorted()
                var message = "unknown option '--\(name)'"
                if let guess = DidYouMean.suggestion(for: name, among: known) { message += "; did you mean '--\(guess)'?" }
                throw UsageError(message)
            }
        }
    }

    func flag(_ name: String) -> Bool { flags.contains(name) }
    func option(_ name: String) -> String? { options[name]?.last }
    func all(_ name: String) -> [String] { options[name] ?? [] }
}

/// A mistake in how the command was called: exit code 2.
struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ message: String) { description = message }
}
