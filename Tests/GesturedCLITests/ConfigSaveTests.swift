import Glibc
import GestureConfig
import Testing
@testable import LiveView

/// Save (`gestured ui`'s editor) where the user's config directory is not there yet.
@Suite struct ConfigSaveTests {
    static let text = "gestures:\n  - name: left\n    gesture: swipe\n    fingers: 3\n    direction: left\n    command: echo left\n"

    /// Issue 35 item 11: on a fresh account (no ~/.config), Save failed with ENOENT.
    @Test func saveMakesTheMissingConfigDirectoriesTheUsersAlone() throws {
        let home = TempDir()
        let editing = ConfigEditing(source: .builtIn, explicit: false, environment: ["HOME": home.path])
        #expect(editing.path == home.path + "/.config/gestured/config.yaml")
        #expect(try editing.save(Self.text) == nil, "no old file, no backup")
        #expect(UIProcessTests.read(editing.path) == Self.text)
        for dir in [home.path + "/.config", home.path + "/.config/gestured"] {
            var st = stat()
            #expect(lstat(dir, &st) == 0 && st.st_mode & S_IFMT == S_IFDIR && st.st_mode & 0o777 == 0o700, "\(dir) is made 0700")
        }
        #expect(ConfigLoader.load(.file(editing.path)).0?.specs.count == 1, "the daemon can read what was saved")
    }

    /// A ~/.config that is another user's symlink is not made into: gestured's
    /// directories would land wherever that user points it.
    @Test(Requires.root) func noDirectoryIsMadeThroughAnotherUsersSymlink() throws {
        let home = TempDir()
        let elsewhere = TempDir()
        #expect(symlink(elsewhere.path, home.path + "/.config") == 0)
        #expect(lchown(home.path + "/.config", 65534, 65534) == 0)
        let editing = ConfigEditing(source: .builtIn, explicit: false, environment: ["HOME": home.path])
        #expect {
            try editing.save(Self.text)
        } throws: { error in
            "\(error)" == "\(home.path)/.config is a symlink of uid 65534, not yours (uid 0); gestured ui makes no directory through it"
        }
        #expect(access(elsewhere.path + "/gestured", F_OK) != 0, "nothing made where it points")
    }
}
