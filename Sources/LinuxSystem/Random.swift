import CLinux

/// The kernel's random numbers, for secrets (the `gestured ui` token).
public enum Random {
    /// getrandom(2) with no flags: `count` bytes from the kernel's CSPRNG, which blocks
    /// only until the pool is first initialized at boot. A short read (a signal during a
    /// request over 256 bytes) goes on from where it stopped.
    public static func bytes(_ count: Int) throws(Errno) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = try valueOrErrno { out.withUnsafeMutableBytes { clinux_getrandom($0.baseAddress! + filled, UInt(count - filled)) } }
            filled += n
        }
        return out
    }
}
