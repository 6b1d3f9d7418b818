import LinuxSystem
import PlainText
import TouchModel

/// Unbuffered-enough output for a command: whole lines, straight to the fd.
package enum Output {
    /// Standard output is what a command produces (`watch`, `run --dry-run`): when its
    /// reader has gone (`| head`), the command ends as a filter would, by SIGPIPE, even
    /// in the daemon, which ignores SIGPIPE only so that its *log* can lose its reader.
    package static func out(_ s: String) {
        do {
            try FileDescriptor.standardOutput.writeAll(s + "\n")
        } catch {
            if error == .brokenPipe { Signals.dieOfBrokenPipe() }
        }
    }

    /// One line that carries outside text (a device's name, an app id, a title, a
    /// config's names): escaped, so it stays one line and cannot drive the terminal.
    package static func line(_ s: String) { out(s.printable) }

    package static func err(_ s: String) { try? FileDescriptor.standardError.writeAll(s + "\n") }
}
