import DaemonCore
import GestureActions
import GestureEngine
import GestureInput
import PlainText
import TouchModel

/// `grab:`: the devices gestured takes for itself (EVIOCGRAB) while the desktop reads
/// their clones, and the ways it gives them back. A device is never left grabbed
/// without a clone: the clone comes first, and any failure lets go of both.
///
/// - SIGKILL or a crash: the kernel closes both descriptors, which releases the grab
///   and destroys the clone (nothing here runs); the watchdog child, which holds them
///   too, sees its pipe close and exits at once.
/// - Stopped (SIGSTOP, Ctrl-Z, a debugger) or hung: the watchdog child (`GrabWatchdog`)
///   gives the device back within `GrabWatchdog.stallMicroseconds` of input waiting
///   unread. Running again, the daemon drops the backlog (`staleFrameAge`), lets go of
///   the clone (`checkWatchdog`) and grabs the device again once every finger is up.
/// - SIGTERM (`shutdown`), a reload without the device in `grab:`, the device gone
///   or unreadable (`remove`), a failed write to the clone: `releaseGrab`.
/// - A device plugged in again is grabbed again as it is adopted.
package extension Daemon {
    /// A device gets a new clone at most this often (µs): a reload storm that toggles
    /// `grab:` would otherwise make and destroy a uinput device each time, and the
    /// desktop add and remove an input device with it. A grab asked for sooner is
    /// taken when the interval is over (`grabDue`, on the daemon's timer).
    package static let recloneInterval: Int64 = 2_000_000

    /// Grabs `s`'s device as the core last asked (`grabWanted`; only the daemon that
    /// runs the actions grabs: `watch` and `--dry-run` leave the desktop its devices),
    /// if it is not grabbed yet, or updates its hold-back. A source that cannot be
    /// grabbed is left alone.
    package func applyGrab(_ s: DeviceSession) {
        guard let device = s.device.grabbable, let wanted = s.grabWanted else { return }
        if let p = device.passthrough {
            p.holdBack = Passthrough.HoldBack(wanted)
            return
        }
        let now = Self.now()
        if let last = s.lastClone, now.microseconds - last.microseconds < Self.recloneInterval {
            let due = Timestamp(microseconds: last.microseconds + Self.recloneInterval)
            if s.grabDue == nil {
                logger.notice("\(device.path) (\(s.info.name.printable)): grabbed again in \((due.microseconds - now.microseconds) / 1000) ms: a device gets a new clone at most every \(Self.recloneInterval / 1_000_000) s")
            }
            s.grabDue = due
            return
        }
        s.grabDue = nil
        let open = options.openUinput
        do throws(CloneDevice.Failure) {
            try device.grab(cloningWith: { d throws(CloneDevice.Failure) in
                if let open { return try CloneDevice(of: d, open: open) }
                return try CloneDevice(of: d)
            }, watchdog: options.grabWatchdog)
        } catch {
            let hint = error.call.hasPrefix("EVIOCGRAB") ? "another program holds it" : VirtualDevice.advice(for: error)
            logger.warning("\(device.path) (\(s.info.name.printable)): not grabbed, the desktop keeps reading it: \(error); \(hint)")
            return
        }
        guard let p = device.passthrough else { return }
        s.lastClone = now
        p.holdBack = Passthrough.HoldBack(wanted)
        if let w = p.watchdog {
            do {
                try loop.add(w.exitDescriptor) { [unowned self, unowned s] _ in self.watchdogExited(s) }
            } catch {
                logger.warning("\(device.path): cannot watch its grab watchdog (\(error)); not grabbing it")
                device.ungrab()
                return
            }
        }
        logger.notice("grabbed \(device.path) (\(s.info.name.printable)): the desktop reads \(p.clone.name.quoted)\(p.clone.sysname.map { " (\($0))" } ?? "") in its place")
    }


    /// Gives the device back to the desktop and destroys its clone.
    package func releaseGrab(_ s: DeviceSession, reason: String) {
        guard let p = s.device.passthrough else { return }
        if let w = p.watchdog { loop.remove(w.exitDescriptor) }
        s.device.grabbable?.ungrab()
        logger.notice("released \(s.path) (\(s.info.name.printable)): \(reason)")
    }

    /// A clone that cannot be written any more would leave the desktop a dead
    /// device: let go of the original.
    package func checkClone(_ s: DeviceSession) {
        guard let failure = s.device.passthrough?.failure else { return }
        releaseGrab(s, reason: "its clone failed (\(failure))")
    }
}

package extension Passthrough.HoldBack {
    /// `grab: hold-back:` as the core says it for one device.
    package init(_ h: DaemonOutput.HoldBack) { self.init(microseconds: h.microseconds, maxFingers: h.maxFingers) }
}

package extension Daemon {
    /// The watchdog child exited (its pidfd): it gave the device back during a stall,
    /// or it died. Either way the grab has no watchdog: it goes, and comes back with a
    /// new one once every finger is up. What waited in the kernel meanwhile is read now,
    /// as stale frames.
    package func watchdogExited(_ s: DeviceSession) {
        checkWatchdog(s)
        deviceReadable(s)
    }

    /// Asks the grab's watchdog whether it is still watching; if not, lets go.
    package func checkWatchdog(_ s: DeviceSession) {
        guard let outcome = s.device.passthrough?.watchdog?.check() else { return }
        switch outcome {
        case .released:
            logger.warning("\(s.path) (\(s.info.name.printable)): the grab watchdog gave it back to the desktop while gestured was stalled; what waited is dropped, and it is grabbed again once every finger is up")
        case .ended(let status):
            logger.warning("\(s.path) (\(s.info.name.printable)): the grab watchdog ended (wait status \(status)); letting go of the grab, which is taken again with a new watchdog once every finger is up")
        }
        core.cancel(at: Self.now(), device: s.path)
        carryOut(s)
        releaseGrab(s, reason: "its grab watchdog is gone")
        s.regrabWhenLifted = true
    }

    /// A grab put off by `recloneInterval` is due by `now`: take it.
    package func grabIfDue(_ s: DeviceSession, now: Timestamp) {
        guard let due = s.grabDue, due <= now else { return }
        s.grabDue = nil
        applyGrab(s)
    }

    /// After a watchdog let go: grab again, once the device has no finger down (the
    /// desktop, reading it meanwhile, would keep a touch down forever otherwise).
    package func regrabIfLifted(_ s: DeviceSession) {
        guard s.regrabWhenLifted, s.device.grabbable?.isTouching == false else { return }
        s.regrabWhenLifted = false
        applyGrab(s)
    }
}
