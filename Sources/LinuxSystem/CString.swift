extension String {
    /// The text of a fixed-size C buffer up to its first NUL (all of it when there is
    /// none), as UTF-8 with invalid bytes replaced: the kernel's names (`d_name`,
    /// `UI_GET_SYSNAME`, inotify's names, sysfs lines read into a buffer).
    public init<Bytes: Collection<UInt8>>(nulTerminated bytes: Bytes) {
        self.init(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
    }

    public init(nulTerminated chars: [CChar]) {
        self.init(nulTerminated: chars.lazy.map { UInt8(bitPattern: $0) })
    }
}
