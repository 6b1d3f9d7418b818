import CUdev
import LinuxSystem

/// The input devices udev knows (or, without udev, the nodes in `/dev/input`), and
/// hotplug through the udev monitor: the only file that calls libudev.
public final class Udev {
    private let udev: OpaquePointer?

    public init() { udev = udev_new() }
    deinit { if let udev { udev_unref(udev) } }

    /// One `/dev/input/event*` node and what udev says of it.
    public struct Node: Equatable, Sendable {
        public var path: String
        public var properties: [String: String]
        public init(path: String, properties: [String: String]) {
            self.path = path
            self.properties = properties
        }
    }

    /// Every evdev node, sorted by event number. Falls back to listing `inputDir` when
    /// udev has no database (containers, no udevd): the devices are then classified
    /// from their own bits.
    public func inputNodes(inputDir: String = "/dev/input") -> [Node] {
        var nodes: [Node] = []
        if let udev, let en = udev_enumerate_new(udev) {
            defer { udev_enumerate_unref(en) }
            udev_enumerate_add_match_subsystem(en, "input")
            udev_enumerate_add_match_sysname(en, "event*")
            udev_enumerate_scan_devices(en)
            var entry = udev_enumerate_get_list_entry(en)
            while let e = entry {
                if let syspath = udev_list_entry_get_name(e), let dev = udev_device_new_from_syspath(udev, syspath) {
                    if let node = udev_device_get_devnode(dev) {
                        nodes.append(Node(path: String(cString: node), properties: Self.properties(dev)))
                    }
                    udev_device_unref(dev)
                }
                entry = udev_list_entry_get_next(e)
            }
        }
        if nodes.isEmpty {
            nodes = Self.listDirectory(inputDir).map { Node(path: $0, properties: [:]) }
        }
        return nodes.sorted { Self.eventNumber($0.path) < Self.eventNumber($1.path) }
    }

    static func listDirectory(_ dir: String) -> [String] {
        FileSystem.entries(of: dir).filter { $0.hasPrefix("event") }.map { dir + "/" + $0 }
    }

    static func eventNumber(_ path: String) -> Int {
        Int(path.reversed().prefix(while: { $0.isNumber }).reversed().map(String.init).joined()) ?? Int.max
    }

    static func properties(_ dev: OpaquePointer) -> [String: String] {
        var props: [String: String] = [:]
        var entry = udev_device_get_properties_list_entry(dev)
        while let e = entry {
            if let k = udev_list_entry_get_name(e) {
                props[String(cString: k)] = udev_list_entry_get_value(e).map { String(cString: $0) } ?? ""
            }
            entry = udev_list_entry_get_next(e)
        }
        return props
    }

    /// Hotplug: a netlink socket the event loop polls. Nil where udev cannot monitor.
    public func monitor() -> Monitor? { Monitor(udev: udev) }

    public final class Monitor {
        private let monitor: OpaquePointer
        /// The monitor's netlink socket; libudev owns it.
        public let fd: FileDescriptor

        public enum Change: Equatable {
            case added(Node)
            case removed(path: String)
        }

        init?(udev: OpaquePointer?) {
            guard let udev, let m = udev_monitor_new_from_netlink(udev, "udev") else { return nil }
            udev_monitor_filter_add_match_subsystem_devtype(m, "input", nil)
            guard udev_monitor_enable_receiving(m) == 0 else { udev_monitor_unref(m); return nil }
            let fd = FileDescriptor(rawValue: udev_monitor_get_fd(m))
            // The monitor's socket must not block the loop.
            try? fd.setNonBlocking()
            self.monitor = m
            self.fd = fd
        }

        deinit { udev_monitor_unref(monitor) }

        /// Drains pending uevents: evdev nodes added and removed.
        public func changes() -> [Change] {
            var out: [Change] = []
            while let dev = udev_monitor_receive_device(monitor) {
                defer { udev_device_unref(dev) }
                guard let nodeC = udev_device_get_devnode(dev) else { continue }
                let node = String(cString: nodeC)
                guard node.contains("/event") else { continue }
                let action = udev_device_get_action(dev).map { String(cString: $0) } ?? ""
                switch action {
                case "add": out.append(.added(Node(path: node, properties: Udev.properties(dev))))
                case "remove": out.append(.removed(path: node))
                default: continue
                }
            }
            return out
        }
    }
}
