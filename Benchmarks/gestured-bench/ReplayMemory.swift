import GestureConfig
import Glibc
import PlainText

/// Resident memory over a long replay, in a process of its own (`gestured-bench
/// --replay-rss`): the config, the recordings and one decoder + engine + mapper per
/// recording, as the daemon holds them per device, replaying the recordings looped.
/// It prints `rss EVENTS MB` after setup and after each `step` events.
enum ReplayMemory {
    static let checkpoints = 3

    static func child(config: Config, recordings: [Workload], step: Int) -> Never {
        var lanes = recordings.map { Lane(workload: $0, config: config) }
        var r = Run()
        say("rss 0 \(rssMB().fixed(2))")
        var pass = 0, events = 0
        let perPass = recordings.reduce(0) { $0 + $1.events.count }
        for checkpoint in 1...checkpoints {
            while events < step * checkpoint {
                for w in lanes.indices { lanes[w].replay(pass: pass, mapper: true, into: &r) }
                pass += 1
                events += perPass
            }
            say("rss \(events) \(rssMB().fixed(2))")
        }
        exit(0)
    }

    /// Runs the child and returns its (events, MB) checkpoints.
    static func measure(root: String, step: Int, directory: String) -> [(events: Int, mb: Double)] {
        let out = directory + "/replay-rss.txt"
        let argv = [executablePath(), "--root", root, "--events", String(step), "--replay-rss"]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var pid: pid_t = 0
        let rc = withCStrings(argv) { a in posix_spawn(&pid, argv[0], &actions, nil, a, environ) }
        guard rc == 0 else { fail("posix_spawn \(argv[0]): \(String(cString: strerror(rc)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let text = readFile(out) ?? ""
        unlink(out)
        let points = text.split(separator: "\n").compactMap { line -> (Int, Double)? in
            let w = line.split(separator: " ")
            guard w.count == 3, w[0] == "rss", let n = Int(w[1]), let mb = Double(w[2]) else { return nil }
            return (n, mb)
        }
        guard status == 0, points.count == checkpoints + 1 else { fail("the replay-rss child failed (status \(status)): \(text)") }
        return points.map { (events: $0.0, mb: $0.1) }
    }
}
