import CFakeEvdevDevice
import DaemonCore
import GestureActions
import GestureConfig
import Glibc

/// From handing the SYN_REPORT that completes a gesture to the decoder, to the key
/// events of its `keys:` action written to the virtual device: decoder → engine →
/// ActionMapper → the real VirtualInput and VirtualDevice, writing (one write(2) per
/// report) to /dev/null registered with the fake uinput, which answers the UI_*
/// ioctls in-process. The press goes out at once; the release, a key delay later, is
/// not part of the figure.
struct KeyLatency {
    let recording: Workload
    let config: Config
    private let input: VirtualInput
    private let fd: Int32

    static let configText = """
        gestures:
          - name: key-swipe
            gesture: swipe
            fingers: 4
            direction: down
            command: {keys: super+Page_Down}

        """

    init(recording: Workload) {
        self.recording = recording
        let (c, d) = ConfigLoader.parse(Array(Self.configText.utf8), file: "key-latency.yaml")
        guard let c else { fail("key latency config: \(d.map(\.description))") }
        config = c
        fd = open("/dev/null", O_WRONLY | O_CLOEXEC)
        guard fd >= 0, cfake_uinput_register(fd) == 0 else { fail("cannot make the fake uinput device") }
        let fd = self.fd
        do {
            input = try VirtualInput(settings: c.settings, log: { p, line in if p <= .warning { fail("virtual input: \(line)") } },
                                     makeDevice: { caps throws(VirtualDevice.Failure) in try VirtualDevice(capabilities: caps, open: { _ in fd }) })
        } catch { fail("VirtualInput: \(error)") }
        input.configure(VirtualDevice.Capabilities(config: c), settings: c.settings)
    }

    /// Microseconds per gesture, `iterations` gestures.
    func measure(iterations: Int) -> [Double] {
        var out: [Double] = []
        out.reserveCapacity(iterations)
        for _ in 0..<iterations {
            guard let (t0, t1) = Latency.replayUntilAction(recording, config, into: input) else { fail("the recording fired no key-swipe") }
            out.append(Double(t1 - t0) / 1e3)
            input.finish()  // the release too, so the next press is not spaced behind it
        }
        return out
    }
}
