// swift-tools-version:6.0
// gestured: multi-finger gestures on Linux touchpads and touchscreens → commands.
//
// One target per layer; imports point one way (docs/ARCHITECTURE.md has the picture,
// and Tests/ArchitectureTests holds this file, that page and the imports together):
//   C wrappers → LinuxSystem (every system call) → everything with a descriptor
//   TouchModel, PlainText → GestureEngine → GestureConfig → DaemonCore → GestureActions → DaemonLoop → LiveView → Commands → gestured
//   TouchModel, PlainText → GestureInput (devices, decoding, recordings) → DaemonLoop
//   CDesktop (dlopen'd sd-bus, libxcb, libwayland) → DesktopSession (the running desktop) → DesktopActions → DaemonLoop
//   CMicrohttpd (dlopen'd libmicrohttpd) → LiveViewHTTP (the HTTP side of `gestured ui`) → LiveView
//   GestureConfig, YAMLTree → ConfigImport (other tools' configs → a gestured config) → Commands
// The pure layers (TouchModel, PlainText, JSON, GestureEngine, DaemonCore) import no
// Glibc and make no system call: they build and test with no device and no clock.
import PackageDescription

let debianPackages: (String) -> [SystemPackageProvider] = { [.apt([$0])] }

let package = Package(
    name: "gestured",
    products: [
        .executable(name: "gestured", targets: ["gestured"]),
        .executable(name: "gestured-bench", targets: ["gestured-bench"]),
    ],
    targets: [
        // C libraries from Debian, and the Linux calls Glibc does not expose.
        .systemLibrary(name: "CEvdev", pkgConfig: "libevdev", providers: debianPackages("libevdev-dev")),
        .systemLibrary(name: "CUdev", pkgConfig: "libudev", providers: debianPackages("libudev-dev")),
        .systemLibrary(name: "CMtdev", pkgConfig: "mtdev", providers: debianPackages("libmtdev-dev")),
        .systemLibrary(name: "CYaml", pkgConfig: "yaml-0.1", providers: debianPackages("libyaml-dev")),
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: debianPackages("libsystemd-dev")),
        .target(name: "CLinux", linkerSettings: [.linkedLibrary("dl")]),
        // The one system-call layer (swift-system's model): owned descriptors, errno
        // typed and named, EINTR retried in one place. Everything above calls Linux through it.
        .target(name: "LinuxSystem", dependencies: ["CLinux"]),
        // The one libyaml reader: a node tree with line/column marks, bounded and alias-safe.
        .target(name: "YAMLTree", dependencies: ["CYaml", "LinuxSystem"]),

        // Value types that cross every boundary: TouchFrame, Contact, DeviceInfo.
        .target(name: "TouchModel", linkerSettings: [.linkedLibrary("m")]),
        // Text in and out, for anything that came from outside: the one glob over names,
        // the one escaping of untrusted text for a log, a terminal, JSON or YAML, numbers
        // with fixed decimals. Pure Swift.
        .target(name: "PlainText"),
        // JSON without Foundation: the bounded reader of compositor replies and requests
        // (JSONValue), the writer of the event stream's lines (JSONBytes), and small texts.
        .target(name: "JSON", dependencies: ["PlainText"]),
        // Devices, hotplug, evdev decoding, recordings: evdev → TouchFrame.
        .target(name: "GestureInput",
                dependencies: ["TouchModel", "PlainText", "CEvdev", "CUdev", "CMtdev", "YAMLTree", "CLinux", "LinuxSystem"]),
        // Recognizers and arbitration: TouchFrame → GestureEvent. Pure Swift.
        .target(name: "GestureEngine", dependencies: ["TouchModel", "PlainText"], linkerSettings: [.linkedLibrary("m")]),
        // The YAML config file → GestureSpecs and action bindings.
        .target(name: "GestureConfig", dependencies: ["GestureEngine", "TouchModel", "PlainText", "YAMLTree", "LinuxSystem"]),
        // Other tools' configs (libinput-gestures, fusuma, touchegg) → a gestured config (`gestured import`).
        .target(name: "ConfigImport", dependencies: ["GestureConfig", "GestureEngine", "YAMLTree", "TouchModel", "PlainText"]),
        // The daemon without its descriptors: typed inputs (frames, devices, timers, focus,
        // rotation, config, enable) → typed outputs (events, actions, grabs, log lines). Pure
        // Swift: no system call, no Glibc, no clock.
        .target(name: "DaemonCore", dependencies: ["GestureConfig", "GestureEngine", "TouchModel", "PlainText"]),
        // Invocations → the sinks that carry them out: the non-blocking process runner, the virtual input device.
        .target(name: "GestureActions", dependencies: ["DaemonCore", "GestureConfig", "GestureEngine", "TouchModel", "PlainText", "LinuxSystem"]),
        // The focused application, from the compositor's own IPC (sway/i3, Hyprland, niri, X11, KWin, GNOME) or its
        // wlroots window list (wlr-foreign-toplevel-management, through libwayland-client).
        // sd-bus, libxcb (and libxcb-randr) and libwayland-client, loaded with dlopen by
        // the sources that need them (headers from libsystemd-dev, libxcb1-dev and
        // libxcb-randr0-dev).
        .target(name: "CDesktop", dependencies: ["CLinux"]),
        .target(name: "DesktopSession", dependencies: ["CLinux", "CDesktop", "LinuxSystem", "JSON"]),
        // libmicrohttpd, the HTTP server of `gestured ui`: loaded with dlopen when the ui
        // starts, so the daemon never maps it nor gnutls (header from libmicrohttpd-dev).
        .target(name: "CMicrohttpd", dependencies: ["CLinux"]),
        // The HTTP layer of `gestured ui`: libmicrohttpd on the ui's loop, token, Host and
        // Origin checks, security headers, server-sent events; the page built in.
        .target(name: "LiveViewHTTP", dependencies: ["CMicrohttpd", "LinuxSystem"], resources: [.embedInCode("Page")]),
        // Desktop actions ({workspace: next}…): each desktop's request, sent through the
        // connections DesktopSession speaks (i3-ipc, Hyprland's socket, sd-bus, libxcb).
        .target(name: "DesktopActions", dependencies: ["GestureConfig", "GestureEngine", "DaemonCore", "GestureActions", "DesktopSession", "LinuxSystem", "TouchModel", "PlainText"]),
        // The daemon around its core: the epoll loop, the devices' descriptors, hotplug,
        // the config's file, the control socket and the event stream, the focus and
        // rotation sources, the sinks; the log. What `gestured run` and `watch` run.
        .target(name: "DaemonLoop",
                dependencies: ["DaemonCore", "GestureInput", "GestureEngine", "GestureConfig", "GestureActions", "TouchModel", "PlainText", "CLinux", "LinuxSystem",
                               "DesktopSession", "DesktopActions", "JSON"]),
        // `gestured ui`'s process: the daemon's stream relayed to the pages, Try asked of the
        // daemon, Record, the config editor's endpoints; HTTP is LiveViewHTTP's.
        .target(name: "LiveView",
                dependencies: ["DaemonLoop", "DaemonCore", "LiveViewHTTP", "GestureInput", "GestureEngine", "GestureConfig", "TouchModel", "PlainText",
                               "LinuxSystem", "JSON"]),
        // The command line: each subcommand, parsing its arguments and calling the layer that does it.
        .target(name: "Commands",
                dependencies: ["DaemonLoop", "LiveView", "DaemonCore", "GestureInput", "GestureEngine", "GestureConfig", "GestureActions", "TouchModel", "PlainText",
                               "CLinux", "LinuxSystem", "DesktopSession", "DesktopActions", "ConfigImport", "JSON"]),
        // Linked by the toolchain's lld with packed relative relocations (DT_RELR, glibc
        // 2.36+): the position-independent binary's 23,560 R_X86_64_RELATIVE entries took
        // 565 KB of .rela.dyn, all read (so resident) at every start; as RELR they take a
        // few KB. gold, the default, has no such option. The functions start-up and
        // recognition run come first, in Sources/gestured/hot.order's order (make
        // link-order writes it; names it does not know are laid out among the rest): the
        // kernel maps the text in 64 KB blocks around each page touched, and these took
        // 5.2 MB of resident text scattered through 7 MB, 2.3 MB together. No symbol is
        // exported: SwiftPM's --export-dynamic put 7,000 in .dynsym and .dynstr (560 KB),
        // every page of which each library's symbol lookups read at start, for nothing
        // here (nothing dlopen'd looks a symbol up in gestured).
        .executableTarget(name: "gestured", dependencies: ["Commands"], exclude: ["hot.order"],
                          linkerSettings: [.unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                                                         "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Sources/gestured/hot.order",
                                                         "-Xlinker", "--no-warn-symbol-ordering", "-Xlinker", "--no-export-dynamic"])]),
        .executableTarget(name: "gestured-uinput-play", dependencies: ["GestureInput", "GestureActions", "GestureEngine", "TouchModel", "CEvdev", "TouchTimeline"],
                          path: "Tests/vm/Driver"),
        // Mutation fuzzing of replay and check in child processes (make fuzz; issue 10).
        .executableTarget(name: "gestured-fuzz", dependencies: ["GestureInput", "GestureTestSupport", "CLinux"], path: "Tests/Fuzz/Harness"),
        // The browser tests' daemon: `gestured run` fed by the fake touchpad (Tests/Browser).
        .executableTarget(name: "gestured-fake-daemon", dependencies: ["Commands", "GestureTestSupport"], path: "Tests/Browser/FakeDaemon"),

        // Test support only, never linked into the shipped binary: answers libevdev's
        // EVIOCG* ioctls for a registered pipe so the real libevdev reads from it, and
        // uinput's UI_* ioctls so the real virtual-device writer runs in-process.
        .target(name: "CFakeEvdevDevice", path: "Tests/Support/CFakeEvdevDevice"),
        // The touch timelines (Tests/vm/timelines, Tests/Scenarios): text → evdev events,
        // played into uinput by the VM's driver, or in-process as a Recording.
        .target(name: "TouchTimeline", dependencies: ["GestureInput", "TouchModel", "PlainText", "LinuxSystem"], path: "Tests/Support/TouchTimeline"),
        // Shared test helpers: recordings on disk, scripted event streams, the fake device.
        .target(name: "GestureTestSupport", dependencies: ["GestureInput", "TouchModel", "PlainText", "CFakeEvdevDevice", "CEvdev", "LinuxSystem"],
                path: "Tests/Support/GestureTestSupport"),

        // Benchmarks (make bench, docs/PERFORMANCE.md), never linked into gestured: the
        // C floor and a malloc counter, the clock the latency command reads, the runner.
        .target(name: "CBenchFloor", path: "Benchmarks/CBenchFloor", linkerSettings: [.linkedLibrary("mtdev")]),
        .executableTarget(name: "gestured-bench-clock", path: "Benchmarks/bench-clock"),
        .executableTarget(name: "gestured-bench",
                          dependencies: ["CBenchFloor", "GestureInput", "GestureEngine", "GestureConfig", "DaemonCore", "GestureActions", "TouchModel", "PlainText",
                                         "LinuxSystem", "CFakeEvdevDevice", "GestureTestSupport", "DaemonLoop", "Commands", "DesktopActions", "DesktopSession"],
                          path: "Benchmarks/gestured-bench"),

        .testTarget(name: "LinuxSystemTests", dependencies: ["LinuxSystem"]),
        .testTarget(name: "ArchitectureTests", dependencies: ["LinuxSystem"]),
        .testTarget(name: "TouchModelTests", dependencies: ["TouchModel", "PlainText"]),
        .testTarget(name: "GestureInputTests",
                    dependencies: ["GestureInput", "TouchModel", "PlainText", "GestureTestSupport", "CFakeEvdevDevice", "CEvdev"]),
        .testTarget(name: "GestureEngineTests", dependencies: ["GestureEngine", "TouchModel", "PlainText", "GestureTestSupport"]),
        .testTarget(name: "GestureConfigTests", dependencies: ["GestureConfig", "GestureEngine", "TouchModel", "PlainText"]),
        .testTarget(name: "ConfigImportTests", dependencies: ["ConfigImport", "GestureConfig", "GestureEngine"]),
        .testTarget(name: "DaemonCoreTests", dependencies: ["DaemonCore", "GestureConfig", "GestureEngine", "TouchModel", "PlainText"]),
        .testTarget(name: "GestureActionsTests", dependencies: ["GestureActions", "DaemonCore", "GestureConfig", "GestureEngine", "TouchModel", "PlainText", "CLinux", "LinuxSystem",
                                                              "GestureTestSupport", "CFakeEvdevDevice"]),
        .testTarget(name: "LiveViewTests", dependencies: ["LiveViewHTTP", "LinuxSystem", "GestureTestSupport"]),
        .testTarget(name: "GesturedCLITests",
                    dependencies: ["DaemonLoop", "LiveView", "Commands", "JSON", "GestureInput", "GestureEngine", "GestureConfig", "DaemonCore", "GestureActions", "TouchModel", "PlainText",
                                   "GestureTestSupport", "CFakeEvdevDevice", "CLinux", "LinuxSystem", "DesktopSession", "CSystemd",
                                   "DesktopActions", "TouchTimeline"]),
    ]
)

// Every function of gestured's own code in a section of its own (Swift's standard
// library is built so), so that the link can lay them out in the order of
// Sources/gestured/hot.order: what start-up and recognition run, together at the front
// of the text, where the kernel maps it in 64 KB blocks around each page touched.
for target in package.targets where target.type == .regular || target.type == .executable {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-Xfrontend", "-function-sections"])]
}
