import CLinux
import Glibc
import GestureInput

/// gestured-fuzz: mutation fuzzing of `gestured replay` and `gestured check` (issue 10).
///
///     gestured-fuzz [--seed N] [--cases N] [--jobs N] [--timeout S] [--max-rss MB]
///                   [--root DIR] [--binary PATH] [--keep DIR] [--case N] [--only TARGET]
///
/// Inputs: every recording in Tests/Recordings in its own format and converted to
/// `libinput record` YAML (so both readers see every device), config/default.yaml and
/// the configs in Tests/Fuzz/configs (taken from the test suites), and the other tools'
/// configs `gestured import` reads (Tests/Imports: libinput-gestures' lines, fusuma's
/// YAML, touchegg's XML, mutated in their own syntax too: ImportCases.swift; each
/// imported to a file, as a user would, and what it writes checked), and a shape file
/// (docs/SHAPES.md) checked beside a config that names it. Each case mutates
/// one of them (Mutator.swift) with its own generator, derived from the seed and the
/// case number, so `--seed S --case N` re-runs exactly one case. Cases run as child
/// processes (Runner.swift); a crash or a hang is recorded and its input kept.
/// `--only import` (or another target) runs only that target's cases.
/// Ends with one summary line; exits 1 on any crash, hang or RSS over the limit.
///
/// `gestured-fuzz --http [--seed N] [--cases N] [--timeout S] …` fuzzes `gestured ui`'s
/// HTTP side instead (HTTPFuzz.swift).
struct Options {
    var seed: UInt64 = 1
    var cases = 20_000
    var jobs = 2
    var timeout = 10.0
    var maxRSSMB = 512
    var root = "."
    var binary: String?
    var keep: String?
    var only: Int?
    var target: Case.Target?

    init(_ args: [String]) {
        var it = args.makeIterator()
        while let a = it.next() {
            guard let v = it.next() else { usage("\(a) needs a value") }
            switch a {
            case "--seed": seed = number(a, v)
            case "--cases": cases = number(a, v)
            case "--jobs": jobs = max(1, number(a, v))
            case "--timeout": timeout = number(a, v)
            case "--max-rss": maxRSSMB = number(a, v)
            case "--root": root = v
            case "--binary": binary = v
            case "--keep": keep = v
            case "--case": only = number(a, v) as Int
            case "--only": target = Case.Target(rawValue: v) ?? { usage("--only takes replay, check, config-replay, import or shape, not '\(v)'") }()
            default: usage("unknown option \(a)")
            }
        }
    }
}

func number<T: LosslessStringConvertible>(_ option: String, _ v: String) -> T {
    if let n = T(v) { return n }
    usage("\(option) takes a number, not '\(v)'")
}

func usage(_ message: String) -> Never {
    print("gestured-fuzz: \(message)\nusage: gestured-fuzz [--seed N] [--cases N] [--jobs N] [--timeout S] [--max-rss MB] [--root DIR] [--binary PATH] [--keep DIR] [--case N] [--only TARGET]")
    exit(2)
}

func readFile(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = [], buf = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = read(fd, &buf, buf.count)
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { break }
        bytes += buf[0..<n]
    }
    return bytes
}

@discardableResult
func writeFile(_ path: String, _ bytes: [UInt8]) -> Bool {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var off = 0
    while off < bytes.count {
        let n = bytes[off...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return false }
        off += n
    }
    return true
}

func listDirectory(_ dir: String) -> [String] {
    guard let d = opendir(dir) else { return [] }
    defer { closedir(d) }
    var names: [String] = []
    while let e = readdir(d) {
        let name = withUnsafePointer(to: &e.pointee.d_name) { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
        if !name.hasPrefix(".") { names.append(name) }
    }
    return names.sorted()
}

/// One input to mutate: its text, what it is, and the arguments it runs with.
struct Seed {
    enum Kind: String { case evemu, libinputRecord = "libinput-record", config, importSource = "import" }
    var name: String
    var kind: Kind
    var bytes: [UInt8]
    var description: String?
}

/// Every recording in both formats, and every config.
func corpus(root: String) -> (recordings: [Seed], configs: [Seed], imports: [Seed]) {
    let dir = root + "/Tests/Recordings"
    let names = listDirectory(dir)
    let descriptions = names.filter { $0.hasSuffix(".desc") || $0.hasSuffix(".device") }
    var recordings: [Seed] = []
    for name in names where !name.hasSuffix(".md") && !descriptions.contains(name) {
        guard let bytes = readFile(dir + "/" + name) else { continue }
        let selfDescribed = String(decoding: bytes, as: UTF8.self).split(separator: "\n").contains { $0.hasPrefix("N:") }
        let desc = selfDescribed ? nil : descriptions
            .filter { name.hasPrefix(String($0[..<$0.lastIndex(of: ".")!])) }
            .max { $0.count < $1.count }.map { dir + "/" + $0 }
        recordings.append(Seed(name: name, kind: .evemu, bytes: bytes, description: desc))
        // The same recording as `libinput record` YAML, through the writer `record` uses.
        guard let r = try? Recording.load(path: dir + "/" + name, descriptionPath: desc) else { continue }
        var text = RecordingWriter.header(for: r.device, node: "/dev/input/event0")
        var writer = RecordingWriter()
        for e in r.events { if let group = writer.add(e) { text += group } }
        recordings.append(Seed(name: name + ".yaml", kind: .libinputRecord, bytes: Array(text.utf8), description: nil))
    }
    var configs: [Seed] = []
    for path in [root + "/config/default.yaml"] + listDirectory(root + "/Tests/Fuzz/configs").map({ root + "/Tests/Fuzz/configs/" + $0 }) {
        if let bytes = readFile(path) { configs.append(Seed(name: path, kind: .config, bytes: bytes, description: nil)) }
    }
    var imports: [Seed] = []
    for name in listDirectory(root + "/Tests/Imports") where !name.hasSuffix(".md") {
        if let bytes = readFile(root + "/Tests/Imports/" + name) { imports.append(Seed(name: name, kind: .importSource, bytes: bytes, description: nil)) }
    }
    return (recordings, configs, imports)
}

/// What one case runs: a mutated recording replayed, a mutated config checked, or a
/// mutated config driving the replay of a recording that has gestures.
struct Case {
    enum Target: String { case replay, check, configReplay = "config-replay", importFile = "import", shapeFile = "shape" }
    var target: Target
    var seed: String
    var mutations: [String]
    var file: String
    var argv: [String]
    /// A second file the case wrote (a shape case's config).
    var extra: String? = nil
}

/// A user's shape file (docs/SHAPES.md) to mutate: `check` of a config that names it.
let shapeSeed = Seed(name: "shape", kind: .config, bytes: Array("""
    gestured-shape 1
    # a hook, three samples
    sample 0.00,0.00 10.00,0.00 10.00,10.00 0.00,10.00 0.00,0.00 10.00,20.00
    sample 0.00,0.00 11.00,1.00 10.00,12.00 0.00,10.00 1.00,0.00 10.00,21.00
    \tsample 0,0 9.5,0.5 10,9 0.5,10 0,0.5 9,19

    """.utf8), description: nil)

func makeCase(_ index: Int, options: Options, corpus: (recordings: [Seed], configs: [Seed], imports: [Seed]), dir: String, root: String) -> Case {
    var m = Mutator(seed: options.seed &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(index) &* 0xD1B5_4A32_D192_ED03)
    let roll = m.int(100)
    let target: Case.Target = options.target ?? (roll < 55 ? .replay : roll < 75 ? .check : roll < 85 ? .configReplay : roll < 95 ? .importFile : .shapeFile)
    let seed = target == .replay ? m.pick(corpus.recordings) : target == .importFile ? m.pick(corpus.imports)
        : target == .shapeFile ? shapeSeed : m.pick(corpus.configs)
    let text = seed.kind == .config || seed.kind == .importSource
    let (bytes, kinds) = target == .importFile ? ImportCases.mutate(seed, &m) : { let (b, k) = m.mutate(seed.bytes, config: text); return (b, k.map(\.rawValue)) }()
    let file = target == .shapeFile ? dir + "/shapes/case-\(index).shape"
        : dir + "/case-\(index)." + (seed.kind == .config ? "yaml" : seed.kind == .evemu ? "events" : seed.kind == .importSource ? "conf" : "yml")
    writeFile(file, bytes)
    var argv: [String]
    switch target {
    case .replay:
        argv = ["replay", file, m.int(10) == 0 ? "--frames" : "--detect"] + (seed.description.map { ["--description", $0] } ?? [])
    case .check:
        argv = ["check", "--config", file]
    case .configReplay:
        argv = ["replay", root + "/Tests/Recordings/touchscreens_Atmel_maXTouch_Touchscreen.4-finger-drag-down.events", "--config", file]
    case .importFile:
        argv = ["import", file, "-o", file + ".yaml", "--force"]
    case .shapeFile:
        let config = dir + "/case-\(index).yaml"
        writeFile(config, Array("gestures:\n  - {name: s, gesture: shape, shape: case-\(index), command: x}\n".utf8))
        return Case(target: target, seed: seed.name, mutations: kinds, file: file, argv: ["check", "--config", config], extra: config)
    }
    return Case(target: target, seed: seed.name, mutations: kinds, file: file, argv: argv)
}

if CommandLine.arguments.count > 1 && CommandLine.arguments[1] == "--measure" {
    Runner.measure(Array(CommandLine.arguments.dropFirst(2)))
}
if CommandLine.arguments.count > 1 && CommandLine.arguments[1] == "--http" {
    HTTPFuzz.run(Options(Array(CommandLine.arguments.dropFirst(2))))
}
let options = Options(Array(CommandLine.arguments.dropFirst()))
let root = options.root
let binary = options.binary ?? root + "/.build/debug/gestured"
guard access(binary, X_OK) == 0 else { usage("no gestured binary at \(binary) (swift build first, or --binary PATH)") }
let seeds = corpus(root: root)
guard !seeds.recordings.isEmpty, !seeds.configs.isEmpty, !seeds.imports.isEmpty else { usage("no recordings, configs or imports under \(root)") }
let workDir = "/tmp/gestured-fuzz-\(getpid())"
mkdir(workDir, 0o700)
mkdir(workDir + "/shapes", 0o700)  // a shape case's file, beside its config
let keepDir = options.keep ?? root + "/.build/fuzz-findings"

var cases: [Int: Case] = [:]
var counts: [Case.Target: Int] = [:]
var crashes = 0, hangs = 0, importFindings = 0, maxRSS = 0, maxRSSCase = -1, slowest = 0.0, slowestCase = -1
let indices = options.only.map { [$0] } ?? Array(0..<options.cases)
let t0 = clinux_monotonic_ns()
var selfPath = [CChar](repeating: 0, count: 4096)
let selfLength = readlink("/proc/self/exe", &selfPath, selfPath.count - 1)
guard selfLength > 0 else { usage("cannot find this executable (/proc/self/exe)") }
let runner = Runner(binary: binary, timeoutNS: Int64(options.timeout * 1e9), jobs: options.jobs, workDir: workDir,
                    harness: String(decoding: selfPath[..<selfLength].map { UInt8(bitPattern: $0) }, as: UTF8.self))
runner.run(indices.count, argv: { i in
    let c = makeCase(indices[i], options: options, corpus: seeds, dir: workDir, root: root)
    cases[i] = c
    return c.argv
}, done: { i, outcome in
    let c = cases.removeValue(forKey: i)!
    counts[c.target, default: 0] += 1
    if outcome.maxRSSKB > maxRSS { maxRSS = outcome.maxRSSKB; maxRSSCase = indices[i] }
    if outcome.seconds > slowest { slowest = outcome.seconds; slowestCase = indices[i] }
    var finding: String?
    if let sig = outcome.signal { crashes += 1; finding = "crash (signal \(sig))" }
    if outcome.hung { hangs += 1; finding = "hang (killed after \(options.timeout) s)" }
    if finding == nil, c.target == .importFile,
       let wrong = ImportCases.finding(c, exitCode: outcome.exitCode, binary: binary, timeoutNS: Int64(options.timeout * 1e9)) {
        importFindings += 1
        finding = wrong
    }
    if let finding {
        mkdir(keepDir, 0o755)
        let kept = keepDir + "/seed\(options.seed)-case\(indices[i])-" + (c.file.split(separator: "/").last.map(String.init) ?? "input")
        rename(c.file, kept) == 0 ? () : { writeFile(kept, readFile(c.file) ?? []); unlink(c.file) }()
        let shown = c.argv.map { $0 == c.file ? kept : $0 }.joined(separator: " ")
        print("\(finding): case \(indices[i]) (\(c.target.rawValue) of \(c.seed), \(c.mutations.joined(separator: "+"))): "
              + "gestured \(shown)   [re-run: gestured-fuzz --seed \(options.seed) --case \(indices[i])]")
    } else {
        unlink(c.file)
    }
    unlink(c.file + ".yaml")  // what an import case wrote
    if let extra = c.extra { unlink(extra) }
})
rmdir(workDir + "/shapes")
rmdir(workDir)
let seconds = Double(clinux_monotonic_ns() - t0) / 1e9
let rssMB = Double(maxRSS) / 1024
let rssOver = maxRSS > options.maxRSSMB * 1024
func f1(_ v: Double) -> String { String(Int((v * 10).rounded()) / 10) + "." + String(Int((v * 10).rounded()) % 10) }
print("fuzz: \(indices.count) cases (\(counts[.replay] ?? 0) recordings replayed, \(counts[.check] ?? 0) configs checked, "
      + "\(counts[.configReplay] ?? 0) configs replayed, \(counts[.importFile] ?? 0) imported (\(importFindings) wrong), \(counts[.shapeFile] ?? 0) shape files checked), \(crashes) crashes, \(hangs) hangs > \(f1(options.timeout)) s, "
      + "max RSS \(f1(rssMB)) MB (case \(maxRSSCase))\(rssOver ? " OVER \(options.maxRSSMB) MB" : ""), "
      + "slowest \(f1(slowest)) s (case \(slowestCase)), \(f1(seconds)) s in all, \(options.jobs) jobs, seed \(options.seed)")
exit(crashes + hangs + importFindings > 0 || rssOver ? 1 : 0)
