import Testing

/// The package's binary must start on a machine without the Swift toolchain: `make
/// release` (and so `make deb`) runs scripts/check-static-binary on what it built.
@Suite struct PackagingTests {
    static let script = GNOMESession.root + "/scripts/check-static-binary"

    /// The binary a plain `swift build` makes (this test's own gestured) needs the
    /// toolchain's Swift runtime: refused, with what it needs named.
    @Test func aBinaryThatNeedsTheToolchainIsRefused() throws {
        let p = try Gestured.Process([Gestured.path], executable: Self.script)
        #expect(p.wait() == 1)
        #expect(p.stderr.contains("needs the Swift toolchain at run time"), "\(p.stderr)")
        #expect(p.stderr.contains("NEEDED libswiftCore.so"), "\(p.stderr)")
        #expect(p.stderr.contains("RUNPATH /"), "its search path into the toolchain: \(p.stderr)")
    }

    /// A binary that needs only the system's libraries passes.
    @Test func aBinaryOfSystemLibrariesPasses() throws {
        let p = try Gestured.Process(["/bin/true"], executable: Self.script)
        #expect(p.wait() == 0, "\(p.stderr)")
    }
}
