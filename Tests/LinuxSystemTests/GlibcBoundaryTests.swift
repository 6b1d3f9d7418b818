import Glibc
import LinuxSystem
import Testing

/// Every fallible Linux call above `Sources/LinuxSystem` goes through it (typed
/// `Errno`, the one EINTR retry; docs/ARCHITECTURE.md). A file outside it that imports
/// Glibc is where a raw call would creep back in, so each one is listed here with what
/// it needs Glibc for: constants, types and the calls that cannot fail in an
/// interesting way. A new `import Glibc` fails this test until it is either routed
/// through LinuxSystem or given a line here saying why not.
@Suite struct GlibcBoundaryTests {
    static let allowed: [String: String] = [
        "Sources/DesktopSession/EWMHClient.swift": "free(3) of the replies libxcb allocates",
        "Sources/DesktopSession/X11Source.swift": "free(3) of the events and replies libxcb allocates",
        "Sources/DesktopSession/RandROutputSource.swift": "free(3) of the events and replies libxcb allocates",
        "Sources/DesktopSession/SessionBusCaller.swift": "strdup(3) and free(3) of the C string arrays SetShortcuts' a(ss) is built from",
        "Sources/GestureActions/CommandRunner.swift": "signal numbers (SIGTERM, SIGKILL) and pid_t; the kill and reap are LinuxSystem.Process",
        "Sources/GestureActions/CommandSpawner.swift": "signal numbers and pid_t; the spawn is LinuxSystem.Process",
        "Sources/GestureActions/VirtualDevice.swift": "open(2) flags and the errnos of /dev/uinput's failures; the open is injectable for the fake uinput and made through valueOrErrno",
        "Sources/GestureActions/VirtualTouchpad.swift": "open(2) flags; the open is injectable for the fake uinput and made through valueOrErrno",
        "Sources/GestureConfig/ConfigLoader.swift": "open(2) flags, the stat(2) mode bits the file checks name, uid_t",
        "Sources/GestureInput/CloneDevice.swift": "open(2) flags and errnos; the open is injectable for the fake uinput and made through valueOrErrno",
        "Sources/GestureInput/EvdevDevice.swift": "open(2) flags and the errnos libevdev returns negated",
        "Sources/GestureInput/Recording.swift": "open(2) flags, memchr(3) and memmove(3) on the line buffer",
        "Sources/DaemonLoop/Daemon.swift": "signal numbers for the signalfd and the log",
        "Sources/Commands/GesturedCommand.swift": "exit(3)",
        "Sources/Commands/ImportCommand.swift": "open(2) flags and the S_IFREG mode bits of the file it reads, EEXIST of its link(2)",
        "Sources/Commands/RecordCommand.swift": "open(2) flags of the output file, signal numbers",
        "Sources/Commands/RecordShapeCommand.swift": "open(2) flags of the shape file, signal numbers",
        "Sources/LiveView/ConfigEditing.swift": "open(2) flags, uid_t, the S_IFLNK mode bits and ENOTDIR of the directories Save makes",
        "Sources/LiveView/UIProcess.swift": "signal numbers, pid_t, and close(2) of a pidfd the loop's handler owns",
    ]

    static let root: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    /// The Swift files under `directory`, relative to the repository root.
    static func swiftFiles(under directory: String) -> [String] {
        FileSystem.entries(of: root + "/" + directory).sorted().flatMap { name -> [String] in
            let path = directory + "/" + name
            if name.hasSuffix(".swift") { return [path] }
            return (try? FileSystem.status(root + "/" + path))?.isDirectory == true ? swiftFiles(under: path) : []
        }
    }

    static func text(_ path: String) throws -> String {
        let file = try OwnedFileDescriptor(opening: root + "/" + path, O_RDONLY)
        return String(decoding: try file.descriptor.readToEnd(maximumBytes: 1 << 20), as: UTF8.self)
    }

    static let outside = swiftFiles(under: "Sources").filter { !$0.hasPrefix("Sources/LinuxSystem/") }

    @Test func onlyListedFilesImportGlibc() throws {
        #expect(Self.outside.count > 100, "found only \(Self.outside.count) files under \(Self.root)/Sources")
        let importing = try Self.outside.filter { try Self.text($0).split(separator: "\n").contains("import Glibc") }
        let unlisted = importing.filter { Self.allowed[$0] == nil }
        #expect(unlisted.isEmpty, "import Glibc outside Sources/LinuxSystem: route the calls through LinuxSystem, or add the file to GlibcBoundaryTests.allowed with why")
        let stale = Self.allowed.keys.filter { !importing.contains($0) }.sorted()
        #expect(stale.isEmpty, "listed but no longer importing Glibc: take them off the list")
    }

    /// The one EINTR retry is `valueOrErrno`: a loop of its own elsewhere is a second.
    @Test func noEINTRHandlingOutsideLinuxSystem() throws {
        let handling = try Self.outside.filter { try Self.text($0).contains("== EINTR") || Self.text($0).contains("!= EINTR") }
        #expect(handling.isEmpty)
    }
}
