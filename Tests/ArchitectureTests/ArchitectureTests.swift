import Glibc
import LinuxSystem
import Testing

/// docs/ARCHITECTURE.md's picture is the folder list, and stays so: every target of
/// Package.swift under Sources/ has its row, each file imports only the targets its
/// own declares, and the pure layers import no system at all.
@Suite struct ArchitectureTests {
    static let root: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    static func text(_ path: String) throws -> String {
        let file = try OwnedFileDescriptor(opening: root + "/" + path, O_RDONLY)
        return String(decoding: try file.descriptor.readToEnd(maximumBytes: 1 << 20), as: UTF8.self)
    }

    static func trim(_ s: Substring, _ characters: String) -> String {
        String(s.drop { characters.contains($0) }.reversed().drop { characters.contains($0) }.reversed())
    }

    static func swiftFiles(under directory: String) -> [String] {
        FileSystem.entries(of: root + "/" + directory).sorted().flatMap { name -> [String] in
            let path = directory + "/" + name
            if name.hasSuffix(".swift") { return [path] }
            return (try? FileSystem.status(root + "/" + path))?.isDirectory == true ? swiftFiles(under: path) : []
        }
    }

    /// Package.swift's targets with their own sources under Sources/ (not the test
    /// support, benchmarks or tests, which name a `path:`), and what each depends on.
    static func targets() throws -> [(name: String, dependencies: Set<String>)] {
        let package = try text("Package.swift")
        var out: [(String, Set<String>)] = []
        var rest = Substring(package)
        let kinds = [".target(name: \"", ".executableTarget(name: \"", ".systemLibrary(name: \""]
        while let start = kinds.compactMap({ rest.firstRange(of: $0) }).min(by: { $0.lowerBound < $1.lowerBound }) {
            rest = rest[start.upperBound...]
            guard let quote = rest.firstIndex(of: "\"") else { break }
            let name = String(rest[..<quote])
            // The declaration runs to the next target's.
            let end = rest.firstRange(of: "\n        .")?.lowerBound ?? rest.endIndex
            let body = rest[quote..<end]
            guard !body.contains("path:") else { continue }
            var deps = Set<String>()
            if let open = body.firstRange(of: "dependencies: ["), let close = body[open.upperBound...].firstIndex(of: "]") {
                for word in body[open.upperBound..<close].split(separator: ",") {
                    deps.insert(Self.trim(word, " \n\""))
                }
            }
            out.append((name, deps))
        }
        return out
    }

    @Test func everyTargetHasItsRowInArchitectureMdAndNoRowIsStale() throws {
        let names = try Self.targets().map(\.name)
        #expect(names.count >= 20, "\(names)")
        let doc = try Self.text("docs/ARCHITECTURE.md")
        let rows = Set(doc.split(separator: "\n").compactMap { line -> [String]? in
            guard line.hasPrefix("| `") else { return nil }
            let cell = line.dropFirst(2).prefix { $0 != "|" }
            return cell.split(separator: ",").map { Self.trim($0, " `") }
        }.joined())
        for name in names {
            #expect(rows.contains(name), "docs/ARCHITECTURE.md has no row for the target \(name)")
            #expect(FileSystem.exists(Self.root + "/Sources/" + name), "Sources/\(name) is not a folder")
        }
        let stale = rows.subtracting(names).subtracting(Self.outsideSources)
        #expect(stale.isEmpty, "docs/ARCHITECTURE.md has rows for targets Package.swift does not have")
        // The folder list is the target list.
        let folders = Set(FileSystem.entries(of: Self.root + "/Sources"))
        #expect(folders == Set(names), "Sources/ holds folders that are no target, or targets have no folder")
    }

    /// Rows for what is not a target under Sources/ (test support, benchmarks).
    static let outsideSources: Set<String> = ["Tests/Support", "Benchmarks"]

    /// A file imports only what its target declares: the arrows of the picture are
    /// the dependencies, and an import that is not one is an arrow nobody drew.
    @Test func eachFileImportsOnlyItsTargetsDependencies() throws {
        for (name, deps) in try Self.targets() {
            for file in Self.swiftFiles(under: "Sources/" + name) {
                for line in try Self.text(file).split(separator: "\n") where line.hasPrefix("import ") || line.hasPrefix("@testable import ") {
                    let module = String(line.split(separator: " ").last ?? "")
                    guard !Self.system.contains(module) else { continue }
                    #expect(deps.contains(module), "\(file) imports \(module), which \(name) does not depend on in Package.swift")
                }
            }
        }
    }

    static let system: Set<String> = ["Glibc", "Testing", "Dispatch", "_Concurrency"]

    /// The pure layers: no Glibc, no system-call layer, no C: they build and run with
    /// no device, no clock and no I/O.
    @Test func thePureLayersImportNoSystem() throws {
        let pure = ["TouchModel", "PlainText", "JSON", "GestureEngine", "DaemonCore"]
        let targets = try Self.targets()
        for name in pure {
            let deps = try #require(targets.first { $0.name == name }?.dependencies)
            #expect(deps.isSubset(of: ["TouchModel", "PlainText", "JSON", "GestureEngine", "GestureConfig"]), "\(name) depends on \(deps)")
            for file in Self.swiftFiles(under: "Sources/" + name) {
                let text = try Self.text(file)
                #expect(!text.contains("import Glibc") && !text.contains("import LinuxSystem"), "\(file) imports the system")
            }
        }
    }
}
