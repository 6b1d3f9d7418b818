import GestureInput
import LinuxSystem

/// The recordings the pages have on screen, by id: `--replay`'s (id 1, kept for the
/// ui's life, read from its file as `replay` reads it) and the ones a page sent, the
/// newest `capacity` of them, held in memory. A page asks for a timeline or a Try by
/// the id of the recording it shows, so that another page, or a reload, never turns
/// its Try onto another file.
package struct RecordingShelf {
    /// Recordings sent by pages that are kept: each is at most 4 MiB of file
    /// (`UIEndpoints.bodyLimits`), a few MiB of events in memory.
    package static let capacity = 8

    package struct Item {
        package let id: Int
        /// The file's name as the user knows it (never the ui's own copy's path).
        package let name: String
        package let recording: Recording
    }

    private var replayed: Item?
    private var sent: [Item] = []
    private var nextID = 1

    package init() {}

    /// `--replay`'s recording, read from its file: id 1.
    package mutating func keep(replayed recording: Recording) -> Item {
        let item = Item(id: nextID, name: RecordingTimeline.fileName(recording.path), recording: recording)
        nextID += 1
        replayed = item
        return item
    }

    /// A recording a page sent, its events already in memory; the oldest such goes past `capacity`.
    package mutating func keep(sent recording: Recording, name: String) -> Item {
        let item = Item(id: nextID, name: name, recording: recording)
        nextID += 1
        sent.append(item)
        if sent.count > Self.capacity { sent.removeFirst(sent.count - Self.capacity) }
        return item
    }

    package subscript(id: Int) -> Item? {
        if let replayed, replayed.id == id { return replayed }
        return sent.first { $0.id == id }
    }

    /// What a page shows when it asks for none in particular: `--replay`'s.
    package var first: Item? { replayed }

    /// Reads what a page sent: `events` (a recording file's bytes), and for an evemu
    /// events file without a header, `description` (its `.desc` file's). They are
    /// written to `directory` (the ui's own, mode 0700) for the readers, read whole
    /// into memory, and removed. An error names the user's files (`name`,
    /// `description.name`) and the line, never the ui's copies.
    package static func read(_ events: [UInt8], name: String, description: (name: String, bytes: [UInt8])?,
                             in directory: String) throws(RecordingError) -> Recording {
        let eventsPath = directory + "/recording.events", descriptionPath = directory + "/recording.desc"
        defer {
            FileSystem.remove(eventsPath)
            FileSystem.remove(descriptionPath)
        }
        func named(_ error: RecordingError) -> RecordingError {
            var e = error
            e.path = e.path == descriptionPath ? description?.name ?? name : name
            e.message = e.message.replacing(Recording.descriptionHint, with: "open its .desc file together with it (select or drop both)")
            return e
        }
        do throws(Errno) {
            try AtomicFile.write(events, to: eventsPath, mode: 0o600)
            if let description { try AtomicFile.write(description.bytes, to: descriptionPath, mode: 0o600) }
        } catch {
            throw RecordingError(path: name, line: nil, message: "cannot keep a copy to read: \(error)")
        }
        do throws(RecordingError) {
            let file = try Recording.load(path: eventsPath, descriptionPath: description == nil ? nil : descriptionPath)
            var iterator = file.events.makeIterator()
            var all: [InputEvent] = []
            all.reserveCapacity(file.events.count)
            while let e = iterator.next() { all.append(e) }
            if let failure = iterator.failure { throw failure }
            return Recording(path: name, device: file.device, events: all)
        } catch {
            throw named(error)
        }
    }
}
