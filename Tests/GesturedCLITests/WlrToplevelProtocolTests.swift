@testable import DesktopSession
import Glibc
import Testing

/// The wlr-foreign-toplevel source against a fake compositor (`FakeWaylandCompositor`)
/// through the real libwayland-client: a compositor that does not offer the protocol is
/// said to be one, and a compositor that announces windows without end is followed no
/// further than `maxToplevels`. Real sway is in CompositorFocusTests.
@Suite(.serialized) struct WlrToplevelProtocolTests {
    static let manager = "zwlr_foreign_toplevel_manager_v1"
    static let others: [(name: UInt32, interface: String, version: UInt32)] = [(1, "wl_compositor", 4), (2, "wl_output", 4), (3, "wl_seat", 7)]

    @Test func aCompositorWithoutTheProtocolIsSaidToBeOneUntilItOffersIt() throws {
        let dir = TempDir()
        let fake = FakeWaylandCompositor(path: dir.path + "/wayland-0", globals: Self.others)
        let source = WlrForeignToplevelSource(socket: dir.path + "/wayland-0", compositor: "weston")
        let h = try SourceHarness(source)
        let problem = "this compositor (weston) offers no wlr-foreign-toplevel-management; per-application gestures are off"
        #expect(h.spin(serve: fake.serve) { source.problem != nil }, "\(h.log)")
        #expect(source.problem == problem)
        #expect(!source.connected && h.changes.isEmpty, "nothing is known, so nothing is reported")
        #expect(h.log.filter { $0.hasSuffix(problem) }.count == 1, "said once: \(h.log)")
        #expect(fake.bound.isEmpty, "nothing bound")

        // Announced later: bound, its (empty) window list read, the problem gone.
        let client = try #require(fake.server.clients.first)
        fake.announce(client, (9, Self.manager, 3))
        #expect(h.spin(serve: fake.serve) { source.connected }, "\(h.log)")
        #expect(h.changes == [nil], "no window is activated")
        #expect(source.problem == nil)
        #expect(fake.bound[client]?[Self.manager] != nil)
    }

    @Test func windowsPastTheLimitAreDestroyedAndTheActivatedOneIsReported() throws {
        let dir = TempDir()
        let fake = FakeWaylandCompositor(path: dir.path + "/wayland-0", globals: Self.others + [(9, Self.manager, 3)])
        let count = WlrForeignToplevelSource.maxToplevels + 100
        var ids: [UInt32] = []
        fake.onBind = { fd, interface, manager in
            guard interface == Self.manager else { return }
            for i in 0..<count {
                ids.append(fake.toplevel(fd, manager: manager, app: "app\(i)", title: "title \(i)", activated: i == 5 || i == count - 1))
            }
        }
        let source = WlrForeignToplevelSource(socket: dir.path + "/wayland-0")
        let h = try SourceHarness(source)
        #expect(h.spin(serve: fake.serve) { source.connected && fake.destroyed.count == 100 }, "\(h.log) \(fake.destroyed.count)")
        #expect(h.changes == [FocusedApp(app: "app5", title: "title 5")], "the last activated window was not followed")
        #expect(source.toplevelCount == WlrForeignToplevelSource.maxToplevels)
        #expect(fake.destroyed == Array(ids.suffix(100)))
        #expect(h.log.filter { $0.contains("more than \(WlrForeignToplevelSource.maxToplevels) windows") }.count == 1, "\(h.log)")

        // Its window closes: destroyed, and no window has the focus.
        let client = try #require(fake.server.clients.first)
        fake.close(client, window: ids[5])
        #expect(h.spin(serve: fake.serve) { h.changes.count == 2 }, "\(h.changes)")
        #expect(h.changes.last == .some(nil))
        #expect(fake.destroyed.last == ids[5])
        #expect(source.toplevelCount == WlrForeignToplevelSource.maxToplevels - 1)
    }

    @Test func aCompositorThatGoesIsFoundAgain() throws {
        let dir = TempDir()
        let path = dir.path + "/wayland-0"
        let fake = FakeWaylandCompositor(path: path, globals: Self.others + [(9, Self.manager, 3)])
        fake.onBind = { fd, _, manager in fake.toplevel(fd, manager: manager, app: "foot", title: "~", activated: true) }
        let source = WlrForeignToplevelSource(socket: path, retryInitial: 0.02, retryMaximum: 0.1)
        let h = try SourceHarness(source)
        #expect(h.spin(serve: fake.serve) { h.changes == [FocusedApp(app: "foot", title: "~")] }, "\(h.log)")
        fake.server.shutDown()
        #expect(h.spin { !source.connected }, "\(h.log)")
        fake.globals = Self.others + [(9, Self.manager, 2)]
        fake.onBind = { fd, _, manager in fake.toplevel(fd, manager: manager, app: "firefox", title: "Mozilla Firefox", activated: true) }
        fake.restart()
        #expect(h.spin(serve: fake.serve) { h.changes.last == FocusedApp(app: "firefox", title: "Mozilla Firefox") }, "\(h.log)")
        #expect(h.log.contains { $0.contains("lost \(path)") }, "\(h.log)")
    }
}
