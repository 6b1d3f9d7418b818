// @uuid gestured@gestured.github.io
// @name gestured
// @class GesturedShell
// @description Tells gestured (the touch gesture daemon) which window has the focus, for per-application gestures, switches workspaces, moves windows and opens the overview for its gestures, moves GNOME's own workspace and overview transitions with its gestures' fingers, and grabs the keyboard shortcuts that run its gestures' actions without the gesture. D-Bus: io.github.gestured.Shell at /io/github/gestured/Shell on gnome-shell's connection.
//
// The logic of gestured's GNOME Shell extension, shared by both of its forms:
// `build` wraps it in GNOME 43/44's imports.* header or GNOME 45+'s ES-module one,
// which define Gio, GLib, Meta, Shell and Main before this text. Nothing here imports,
// exports, or names a version of GNOME.
//
// It tells gestured, and gestured only, which window has the focus, and does for
// gestured, and gestured only, what GNOME has no command for: every method answers only
// the owner of gestured's bus names, anyone else gets AccessDenied, and FocusChanged
// (with the window's title, which GNOME 41 and later withhold from other programs) is
// sent to the owner of io.github.gestured.Focus alone, never broadcast. The D-Bus
// interface is documented in docs/GNOME.md; keep the two in step.
//
// No polling: the extension runs when GNOME reports a change of focus, title or app
// id (GObject notify signals), when the owner of one of gestured's bus names changes,
// when one of gestured's shortcuts is pressed, or when someone calls a method; at rest, nothing. Its one timer, the follow watchdog, exists
// only while gestured's fingers drive one of GNOME's transitions.

const OBJECT_PATH = '/io/github/gestured/Shell';
const INTERFACE_NAME = 'io.github.gestured.Shell';
const INTERFACE_VERSION = 1;

const INTERFACE_XML = `
<node>
  <interface name="io.github.gestured.Shell">
    <property name="Version" type="u" access="read"/>
    <method name="GetFocus">
      <arg name="app" type="s" direction="out"/>
      <arg name="title" type="s" direction="out"/>
      <arg name="client" type="s" direction="out"/>
      <arg name="wm_class" type="s" direction="out"/>
      <arg name="wm_class_instance" type="s" direction="out"/>
      <arg name="gtk_application_id" type="s" direction="out"/>
      <arg name="sandboxed_app_id" type="s" direction="out"/>
    </method>
    <signal name="FocusChanged">
      <arg name="app" type="s"/>
      <arg name="title" type="s"/>
      <arg name="client" type="s"/>
      <arg name="wm_class" type="s"/>
      <arg name="wm_class_instance" type="s"/>
      <arg name="gtk_application_id" type="s"/>
      <arg name="sandboxed_app_id" type="s"/>
    </signal>
    <signal name="Disabled"/>
    <method name="SwitchWorkspace">
      <arg name="target" type="s" direction="in"/>
      <arg name="active" type="u" direction="out"/>
    </method>
    <method name="MoveWindowToWorkspace">
      <arg name="target" type="s" direction="in"/>
      <arg name="workspace" type="u" direction="out"/>
    </method>
    <method name="Overview">
      <arg name="state" type="s" direction="in"/>
      <arg name="visible" type="b" direction="out"/>
    </method>
    <method name="AppGrid">
      <arg name="state" type="s" direction="in"/>
      <arg name="visible" type="b" direction="out"/>
    </method>
    <method name="ShowDesktop">
      <arg name="state" type="s" direction="in"/>
      <arg name="shown" type="b" direction="out"/>
    </method>
    <method name="FollowBegin">
      <arg name="kind" type="s" direction="in"/>
      <arg name="source" type="s" direction="in"/>
      <arg name="time" type="u" direction="in"/>
      <arg name="session" type="u" direction="out"/>
      <arg name="axis" type="s" direction="out"/>
      <arg name="start" type="d" direction="out"/>
    </method>
    <method name="FollowBeginChannel">
      <arg name="kind" type="s" direction="in"/>
      <arg name="source" type="s" direction="in"/>
      <arg name="time" type="u" direction="in"/>
      <arg name="channel" type="h" direction="in"/>
      <arg name="session" type="u" direction="out"/>
      <arg name="axis" type="s" direction="out"/>
      <arg name="start" type="d" direction="out"/>
    </method>
    <method name="FollowUpdate">
      <arg name="session" type="u" direction="in"/>
      <arg name="progress" type="d" direction="in"/>
      <arg name="time" type="u" direction="in"/>
    </method>
    <method name="FollowEnd">
      <arg name="session" type="u" direction="in"/>
      <arg name="time" type="u" direction="in"/>
      <arg name="cancel" type="b" direction="in"/>
      <arg name="end" type="d" direction="out"/>
    </method>
    <signal name="FollowEnded">
      <arg name="session" type="u"/>
      <arg name="reason" type="s"/>
    </signal>
    <method name="SetShortcuts">
      <arg name="shortcuts" type="a(ss)" direction="in"/>
      <arg name="refused" type="a(ss)" direction="out"/>
    </method>
    <signal name="ShortcutActivated">
      <arg name="name" type="s"/>
    </signal>
    <signal name="ShortcutsWanted"/>
  </interface>
</node>`;

/// The window properties whose change changes what FocusChanged says.
const WINDOW_PROPERTIES = ['title', 'wm-class', 'gtk-application-id'];

function invalidArgument(message) {
    return new GLib.Error(Gio.DBusError, Gio.DBusError.INVALID_ARGS, message);
}

/// What gestured matches `apps:` against is `app`: the Wayland app id (Mutter's
/// wm-class of a Wayland window) or the X11 WM_CLASS class, else the GTK application
/// id, else the Flatpak/Snap id. The rest is there for other tools and for the log.
function describeWindow(window) {
    if (!window)
        return ['', '', '', '', '', '', ''];
    const wmClass = window.get_wm_class() ?? '';
    const gtkId = window.get_gtk_application_id() ?? '';
    const sandboxed = window.get_sandboxed_app_id() ?? '';
    const client = window.get_client_type() === Meta.WindowClientType.X11 ? 'x11' : 'wayland';
    return [wmClass || gtkId || sandboxed, window.get_title() ?? '', client,
        wmClass, window.get_wm_class_instance() ?? '', gtkId, sandboxed];
}

/// "on", "off" or "toggle" applied to `visible`: whether it should be visible.
function wanted(state, visible) {
    switch (state) {
    case 'on': return true;
    case 'off': return false;
    case 'toggle': return !visible;
    default: throw invalidArgument(`state must be on, off or toggle, not '${state}'`);
    }
}

/// "next", "previous" or a workspace number from 1: a 0-based index, within the
/// workspaces there are (GNOME does not wrap around, and neither does this).
function workspaceIndex(target, from) {
    const count = global.workspace_manager.get_n_workspaces();
    let index;
    if (target === 'next')
        index = from + 1;
    else if (target === 'previous')
        index = from - 1;
    else if (/^[1-9][0-9]{0,3}$/.test(target))
        index = Number(target) - 1;
    else
        throw invalidArgument(`target must be next, previous or a workspace number from 1, not '${target}'`);
    return Math.max(0, Math.min(count - 1, index));
}

// Following the fingers: gestured's FollowBegin/FollowUpdate/FollowEnd drive GNOME
// Shell's own SwipeTracker for the workspace strip or the overview exactly as a touchpad
// swipe does, by emitting the signals of the tracker's touchpad sub-gesture
// (`_touchpadGesture`: begin(time, x, y), update(time, delta, distance), end(time,
// distance), the same in GNOME 43 to 50). GNOME's own code does the rest: the strip or
// the overview under the fingers, the velocity history, commit or spring-back, the
// animations, activating the workspace. docs/GNOME.md, "Following the fingers".

/// Only the program that owns this name on the session bus may call the methods: the
/// actions, the transitions, the focus. gestured owns it on the connection it sends them on.
const GESTURED_BUS_NAME = 'io.github.gestured';
/// The owner of this name is told the focus (FocusChanged, sent to it alone) and may ask
/// for it (GetFocus): gestured's focus source owns it on its own connection.
const GESTURED_FOCUS_BUS_NAME = 'io.github.gestured.Focus';

const ACCESS_DENIED = 'org.freedesktop.DBus.Error.AccessDenied';
/// GNOME cannot start that transition now; nothing moved.
const ERROR_REFUSED = 'io.github.gestured.Shell.Error.Refused';
/// This GNOME's swipe trackers are not the ones this extension knows (GNOME 43 to 50).
const ERROR_UNSUPPORTED = 'io.github.gestured.Shell.Error.Unsupported';
/// The session named has ended (or never was); FollowEnded said why.
const ERROR_NOT_FOLLOWING = 'io.github.gestured.Shell.Error.NotFollowing';

/// GNOME's units for one whole step of a touchpad swipe (swipeTracker.js
/// TOUCHPAD_BASE_WIDTH, TOUCHPAD_BASE_HEIGHT): its velocity thresholds are in these.
const TOUCHPAD_STEP_HORIZONTAL = 400;
const TOUCHPAD_STEP_VERTICAL = 300;
/// Clutter.Orientation.VERTICAL (HORIZONTAL is 0): the tracker's `orientation`.
const ORIENTATION_VERTICAL = 1;
/// SwipeTracker's State.NONE and State.SCROLLING.
const TRACKER_IDLE = 0;
const TRACKER_SCROLLING = 1;
/// A follow that hears nothing for 5 ticks of 250 ms (1 to 1.25 s) is cancelled: gestured
/// sends a FollowUpdate at least every 50 ms while the fingers are down, still or not.
/// Counted in ticks, not measured on the clock: when GNOME itself stalls (two busy cores),
/// the one late tick runs before the updates that wait behind it, and must not count them
/// as silence.
const WATCHDOG_INTERVAL_MS = 250;
const WATCHDOG_SILENT_TICKS = 5;

/// SetShortcuts' bounds: gestured's config holds at most 1,000 gestures, a gesture's name
/// at most 64 characters and a shortcut at most 100 (docs/CONFIG.md's limits).
const SHORTCUTS_MAXIMUM = 1000;
const SHORTCUT_NAME_MAXIMUM = 64;
const SHORTCUT_ACCELERATOR_MAXIMUM = 100;
/// Where gestured's shortcuts work: at the desktop and in the overview, as GNOME's own
/// window-manager shortcuts do; not on the lock screen, nor with a menu or dialog open.
const SHORTCUT_ACTION_MODES = Shell.ActionMode.NORMAL | Shell.ActionMode.OVERVIEW;

/// A D-Bus error of its own name: what a Follow method answers instead of a reply.
class BusError extends Error {
    constructor(name, message) {
        super(message);
        this.busName = name;
    }
}

/// Replies to `invocation` with `reply()` packed as `signature`, or with the error it threw.
function answer(invocation, signature, reply) {
    let value;
    try {
        value = new GLib.Variant(signature, reply());
    } catch (e) {
        if (e instanceof BusError) {
            invocation.return_dbus_error(e.busName, e.message);
        } else if (e instanceof GLib.Error) {
            invocation.return_gerror(e);
        } else {
            logError(e, 'gestured: a Follow method failed');
            invocation.return_dbus_error('org.freedesktop.DBus.Error.Failed', `${e}`);
        }
        return;
    }
    invocation.return_value(value);
}

/// The SwipeTracker GNOME's own touchpad gesture drives for `kind`: the workspace strip
/// (or, with the overview open, its workspaces) or the overview's states.
function trackerFor(kind) {
    switch (kind) {
    case 'overview':
        return Main.overview._swipeTracker;
    case 'workspace':
        return Main.overview.visible
            ? Main.overview._overview?._controls?._workspacesDisplay?._swipeTracker
            : Main.wm._workspaceAnimation?._swipeTracker;
    default:
        throw invalidArgument(`kind must be workspace or overview, not '${kind}'`);
    }
}

/// +1, or −1 where GNOME turns a touchpad's swipe around. gestured's progress is
/// positive for fingers left or up: GNOME's touchpad direction with natural scrolling,
/// its default, and a touchscreen's (the content under the fingers). A touchpad follows
/// the user's natural-scroll setting as GNOME's own swipe does (TouchpadSwipeGesture).
function directionFor(source) {
    switch (source) {
    case 'touchscreen':
        return 1;
    case 'touchpad':
        return new Gio.Settings({schema_id: 'org.gnome.desktop.peripherals.touchpad'})
            .get_boolean('natural-scroll') ? 1 : -1;
    default:
        throw invalidArgument(`source must be touchscreen or touchpad, not '${source}'`);
    }
}

/// Why `tracker` is not the SwipeTracker this extension drives, or null when it is.
function unknownTracker(tracker) {
    if (!tracker)
        return 'there is no swipe tracker where GNOME 43 to 50 keep it';
    if (typeof tracker._touchpadGesture?.emit !== 'function')
        return 'the tracker has no _touchpadGesture';
    for (const [field, type] of [['_state', 'number'], ['_progress', 'number'], ['_allowedModes', 'number'],
        ['_cancelled', 'boolean'], ['enabled', 'boolean'], ['orientation', 'number']]) {
        if (typeof tracker[field] !== type)
            return `the tracker's ${field} is not a ${type}`;
    }
    return null;
}

function refused(message) {
    return new BusError(ERROR_REFUSED, message);
}

class GesturedShell {
    enable() {
        this._window = null;
        this._windowSignals = [];
        this._last = null;
        this._minimized = [];
        this._dbus = Gio.DBusExportedObject.wrapJSObject(INTERFACE_XML, this);
        // gnome-shell's own connection, the one that owns org.gnome.Shell: gestured
        // trusts this object's signals because of that sender.
        this._dbus.export(Gio.DBus.session, OBJECT_PATH);
        this._follow = null;
        this._followSessions = 0;
        this._watchdog = 0;
        // The unique names that own gestured's two names (null: none), as the bus says.
        this._gestured = null;
        this._focusReader = null;
        this._gesturedWatch = Gio.bus_watch_name_on_connection(Gio.DBus.session, GESTURED_BUS_NAME,
            Gio.BusNameWatcherFlags.NONE, (connection, name, owner) => this._gesturedIs(owner),
            () => this._gesturedIs(null));
        this._focusReaderWatch = Gio.bus_watch_name_on_connection(Gio.DBus.session, GESTURED_FOCUS_BUS_NAME,
            Gio.BusNameWatcherFlags.NONE, (connection, name, owner) => this._focusReaderIs(owner),
            () => this._focusReaderIs(null));
        this._focusSignal = global.display.connect('notify::focus-window', () => this._focusMoved());
        this._focusMoved();
        // gestured's shortcuts: GNOME's action id → the binding's name, and the list as
        // last set (to answer the same list again without ungrabbing).
        this._shortcuts = new Map();
        this._shortcutList = null;
        this._shortcutRefused = [];
        this._acceleratorSignal = global.display.connect('accelerator-activated',
            (display, action) => this._shortcutActivated(action));
    }

    disable() {
        this._followStop('disabled');
        this._ungrabShortcuts();
        global.display.disconnect(this._acceleratorSignal);
        Gio.bus_unwatch_name(this._gesturedWatch);
        Gio.bus_unwatch_name(this._focusReaderWatch);
        global.display.disconnect(this._focusSignal);
        this._unwatchWindow();
        this._dbus.emit_signal('Disabled', null);
        this._dbus.flush();
        this._dbus.unexport();
        this._dbus = null;
        this._minimized = [];
    }

    get Version() {
        return INTERFACE_VERSION;
    }

    /// The focus, with the title: to gestured only (either of its names).
    GetFocusAsync(parameters, invocation) {
        this._answerGestured(invocation, '(sssssss)', () => describeWindow(global.display.focus_window),
            [GESTURED_BUS_NAME, GESTURED_FOCUS_BUS_NAME]);
    }

    SwitchWorkspaceAsync([target], invocation) {
        this._answerGestured(invocation, '(u)', () => [this._switchWorkspace(target)]);
    }

    MoveWindowToWorkspaceAsync([target], invocation) {
        this._answerGestured(invocation, '(u)', () => [this._moveWindowToWorkspace(target)]);
    }

    OverviewAsync([state], invocation) {
        this._answerGestured(invocation, '(b)', () => [this._overview(state)]);
    }

    AppGridAsync([state], invocation) {
        this._answerGestured(invocation, '(b)', () => [this._appGrid(state)]);
    }

    ShowDesktopAsync([state], invocation) {
        this._answerGestured(invocation, '(b)', () => [this._showDesktop(state)]);
    }

    /// Answers `invocation` with `reply()` packed as `signature` if its caller owns one of
    /// `names`, else AccessDenied with nothing done.
    _answerGestured(invocation, signature, reply, names = [GESTURED_BUS_NAME]) {
        answer(invocation, signature, () => {
            this._checkCaller(invocation.get_sender(), names);
            return reply();
        });
    }

    _switchWorkspace(target) {
        const manager = global.workspace_manager;
        const index = workspaceIndex(target, manager.get_active_workspace_index());
        // The same call as GNOME's own keyboard shortcuts: it animates the switch.
        Main.wm.actionMoveWorkspace(manager.get_workspace_by_index(index));
        return index + 1;
    }

    _moveWindowToWorkspace(target) {
        const window = global.display.focus_window;
        if (!window)
            throw new GLib.Error(Gio.DBusError, Gio.DBusError.FAILED, 'no window has the focus');
        const index = workspaceIndex(target, window.get_workspace()?.index() ?? 0);
        // GNOME's Shift+Super+Page_Down: the window moves and the view follows it.
        Main.wm.actionMoveWindow(window, global.workspace_manager.get_workspace_by_index(index));
        return index + 1;
    }

    _overview(state) {
        if (wanted(state, Main.overview.visibleTarget))
            Main.overview.show();
        else
            Main.overview.hide();
        return Main.overview.visibleTarget;
    }

    _appGrid(state) {
        const overview = Main.overview, button = overview.dash.showAppsButton;
        const showing = overview.visibleTarget && button.checked;
        const show = wanted(state, showing);
        // An open overview goes to its app grid as its own button does: showApps()
        // only opens a closed one.
        if (show && overview.visibleTarget)
            button.checked = true;
        else if (show)
            overview.showApps();
        else if (showing)
            overview.hide();
        return show;
    }

    /// GNOME has no "show desktop": this minimizes the active workspace's windows and
    /// remembers them, and brings back those it minimized (the last one focused on top).
    _showDesktop(state) {
        this._minimized = this._minimized.filter(w => w.minimized && w.get_workspace() !== null);
        const show = wanted(state, this._minimized.length > 0);
        if (show && this._minimized.length === 0) {
            const workspace = global.workspace_manager.get_active_workspace();
            this._minimized = global.display.get_tab_list(Meta.TabList.NORMAL, workspace)
                .filter(w => !w.minimized && w.can_minimize());
            this._minimized.forEach(w => w.minimize());
        } else if (!show) {
            const windows = this._minimized.reverse();
            this._minimized = [];
            windows.forEach(w => w.unminimize());
            if (windows.length > 0)
                Main.activateWindow(windows[windows.length - 1]);
        }
        return this._minimized.length > 0;
    }

    /// Starts following: GNOME's tracker for `kind` begins as for a touchpad swipe on the
    /// primary monitor. Answers the session, the tracker's axis (the fingers' axis that
    /// moves it: "horizontal" or "vertical") and where GNOME starts from, in its units
    /// (the workspace index, the overview's state: 0 hidden, 1 windows, 2 app grid).
    FollowBeginAsync([kind, source, time], invocation) {
        answer(invocation, '(usd)', () => this._followBegin(kind, source, time, invocation.get_sender()));
    }

    /// FollowBegin, with the channel the steps come on instead of FollowUpdate and
    /// FollowEnd (gestured's way: one send a frame, no message): one end of a socket
    /// pair, on which each step is 16 bytes, little-endian: u32 time (ms), u32 kind (0
    /// update, 1 end, 2 cancel), f64 progress. Its end of file before an end or a
    /// cancel (the sender gone, however) cancels.
    FollowBeginChannelAsync([kind, source, time, channel], invocation) {
        answer(invocation, '(usd)', () => {
            const fd = invocation.get_message().get_unix_fd_list()?.get(channel) ?? -1;
            if (fd < 0)
                throw invalidArgument('no channel came with the call');
            // Owns fd from here: closed with the socket.
            const socket = Gio.Socket.new_from_fd(fd);
            let reply;
            try {
                reply = this._followBegin(kind, source, time, invocation.get_sender());
            } catch (e) {
                socket.close();
                throw e;
            }
            this._listen(this._follow, socket);
            return reply;
        });
    }

    /// `progress`: the fraction of one whole transition the fingers have moved since
    /// FollowBegin, positive forward (fingers left or up). Sent without waiting for a reply.
    FollowUpdateAsync([session, progress, time], invocation) {
        answer(invocation, '()', () => {
            const follow = this._following(session, invocation.get_sender());
            this._followTo(follow, progress, time);
            return [];
        });
    }

    _followTo(follow, progress, time) {
        if (!Number.isFinite(progress))
            throw invalidArgument(`progress must be a number, not ${progress}`);
        const position = follow.direction * progress;
        const delta = (position - follow.position) * follow.step;
        follow.position = position;
        this._heard(follow, time);
        follow.tracker._touchpadGesture.emit('update', time, delta, follow.step);
    }

    /// Reads `follow`'s steps from `socket` until it ends or the follow does.
    _listen(follow, socket) {
        follow.channel = new Gio.SocketConnection({socket});
        follow.cancellable = new Gio.Cancellable();
        follow.pending = new Uint8Array(0);
        const stream = follow.channel.get_input_stream();
        const read = () => stream.read_bytes_async(4096, GLib.PRIORITY_DEFAULT, follow.cancellable, (s, result) => {
            let data;
            try {
                data = s.read_bytes_finish(result).get_data() ?? new Uint8Array(0);
            } catch (e) {
                if (!e.matches?.(Gio.IOErrorEnum, Gio.IOErrorEnum.CANCELLED) && this._follow === follow)
                    this._followStop('sender-gone');
                return;
            }
            if (data.length === 0) {
                if (this._follow === follow)
                    this._followStop('sender-gone');
                return;
            }
            const all = new Uint8Array(follow.pending.length + data.length);
            all.set(follow.pending);
            all.set(data, follow.pending.length);
            let at = 0;
            for (; at + 16 <= all.length && this._follow === follow; at += 16) {
                const record = new DataView(all.buffer, all.byteOffset + at, 16);
                const t = record.getUint32(0, true), what = record.getUint32(4, true), progress = record.getFloat64(8, true);
                if (what === 0) {
                    try {
                        this._followTo(follow, progress, t);
                    } catch (e) {
                        this._followStop('bad-step');
                    }
                } else {
                    this._heard(follow, t);
                    this._followFinish(follow, what !== 1);
                }
            }
            follow.pending = all.slice(at);
            if (this._follow === follow)
                read();
        });
        read();
    }

    /// The fingers lifted (or the gesture was cancelled: `cancel` springs back whatever
    /// the position and speed). GNOME decides and animates; answers where it settles.
    FollowEndAsync([session, time, cancel], invocation) {
        answer(invocation, '(d)', () => {
            const follow = this._following(session, invocation.get_sender());
            this._heard(follow, time);
            return [this._followFinish(follow, cancel)];
        });
    }

    _followBegin(kind, source, time, sender) {
        this._checkCaller(sender);
        const tracker = trackerFor(kind);
        const direction = directionFor(source);
        this._followStop('replaced');
        const unknown = unknownTracker(tracker);
        if (unknown)
            throw new BusError(ERROR_UNSUPPORTED, `GNOME Shell's ${kind} gesture is not one this extension knows: ${unknown}`);
        // What TouchpadSwipeGesture checks before it begins, which emitting its signal skips.
        if (!tracker.enabled)
            throw refused(`GNOME has its ${kind} gesture turned off just now (the overview or an animation is running)`);
        if ((tracker._allowedModes & Main.actionMode) === 0)
            throw refused(`GNOME does not allow its ${kind} gesture now (action mode ${Main.actionMode}: locked, a menu or a dialog)`);
        if (tracker._state !== TRACKER_IDLE)
            throw refused(`GNOME's ${kind} gesture is already running (a touchpad swipe)`);
        const monitor = Main.layoutManager.primaryMonitor;
        if (!monitor)
            throw refused('GNOME has no primary monitor');

        const follow = {
            session: this._followSessions = this._followSessions % 0xffffffff + 1,
            sender, tracker, direction, position: 0, step: 0, time, silentTicks: 0, ending: false, end: NaN,
        };
        follow.endSignal = tracker.connect('end', (t, duration, endProgress) => this._trackerEnded(follow, endProgress));
        try {
            tracker._touchpadGesture.emit('begin', time, monitor.x + monitor.width / 2, monitor.y + monitor.height / 2);
        } catch (e) {
            tracker.disconnect(follow.endSignal);
            throw new BusError(ERROR_UNSUPPORTED, `GNOME Shell's ${kind} gesture is not one this extension knows: ${e.message}`);
        }
        if (tracker._state !== TRACKER_SCROLLING) {
            tracker.disconnect(follow.endSignal);
            throw refused(`GNOME's ${kind} gesture declined to begin`);
        }
        // The orientation is the handler's to set (vertical workspaces set it in begin).
        const vertical = tracker.orientation === ORIENTATION_VERTICAL;
        follow.step = vertical ? TOUCHPAD_STEP_VERTICAL : TOUCHPAD_STEP_HORIZONTAL;
        this._follow = follow;
        this._heard(follow, time);
        this._watchdog = GLib.timeout_add(GLib.PRIORITY_DEFAULT, WATCHDOG_INTERVAL_MS, () => this._watchdogTick());
        return [follow.session, vertical ? 'vertical' : 'horizontal', tracker._progress];
    }

    /// Throws AccessDenied unless `sender` (a unique name, as the bus daemon wrote it) owns
    /// one of `names` now: gestured, not any other program on the session bus.
    _checkCaller(sender, names = [GESTURED_BUS_NAME]) {
        const owners = names.map(name => name === GESTURED_BUS_NAME ? this._gestured : this._focusReader);
        if (sender && owners.includes(sender))
            return;
        throw new BusError(ACCESS_DENIED, `only gestured (the owner of ${names.join(' or ')}) may call this`
            + (owners.every(owner => owner === null) ? ' (nothing owns it)' : ''));
    }

    /// The follow `session` names, if it runs and `sender` may drive it.
    _following(session, sender) {
        this._checkCaller(sender);
        if (this._follow?.session !== session)
            throw new BusError(ERROR_NOT_FOLLOWING, `follow ${session} has ended`);
        return this._follow;
    }

    _heard(follow, time) {
        follow.time = time;
        follow.silentTicks = 0;
    }

    /// Ends `follow` through GNOME's own end of a touchpad swipe; where it settles.
    _followFinish(follow, cancel) {
        follow.ending = true;
        // SwipeTracker's own cancel (its touch gestures'): only while it scrolls, which it
        // does while we follow, or the flag would cancel the user's next swipe.
        if (cancel)
            follow.tracker._cancelled = true;
        follow.tracker._touchpadGesture.emit('end', follow.time, follow.step);
        if (this._follow === follow) {
            // GNOME did not end it: its tracker is not the one we know. Leave it as found.
            follow.tracker._cancelled = false;
            this._followClosed(follow);
        }
        return follow.end;
    }

    /// Cancels the follow, if one runs, and says why.
    _followStop(reason) {
        const follow = this._follow;
        if (!follow)
            return;
        this._followFinish(follow, true);
        this._dbus.emit_signal('FollowEnded', new GLib.Variant('(us)', [follow.session, reason]));
    }

    /// GNOME's tracker ended: as we asked, or on its own (the overview opened during a
    /// workspace follow, a keyboard switch, an action mode that no longer allows it).
    _trackerEnded(follow, endProgress) {
        follow.end = endProgress;
        this._followClosed(follow);
        if (!follow.ending)
            this._dbus.emit_signal('FollowEnded', new GLib.Variant('(us)', [follow.session, 'interrupted']));
    }

    _followClosed(follow) {
        follow.cancellable?.cancel();
        follow.channel?.close(null);
        follow.tracker.disconnect(follow.endSignal);
        GLib.source_remove(this._watchdog);
        this._watchdog = 0;
        this._follow = null;
    }

    _watchdogTick() {
        if (++this._follow.silentTicks >= WATCHDOG_SILENT_TICKS)
            this._followStop('timeout');
        return GLib.SOURCE_CONTINUE;
    }

    /// The owner of gestured's bus name changed: a follow it drove has no driver left, and
    /// the shortcuts it set are let go. The new owner (or the one already there when the
    /// extension is enabled) is told it has none (ShortcutsWanted), so it sends its list.
    _gesturedIs(owner) {
        const changed = owner !== this._gestured;
        this._gestured = owner;
        if (this._follow && this._follow.sender !== owner)
            this._followStop('sender-gone');
        if (changed)
            this._ungrabShortcuts();
        if (changed && owner !== null)
            this._toGestured('ShortcutsWanted', null);
    }

    /// Grabs each (binding name, accelerator) for gestured, after letting go of the ones
    /// it set before; answers those GNOME refused (taken by another shortcut, or not an
    /// accelerator it can parse) as (name, accelerator). The same list again changes nothing.
    SetShortcutsAsync([shortcuts], invocation) {
        this._answerGestured(invocation, '(a(ss))', () => [this._setShortcuts(shortcuts)]);
    }

    _setShortcuts(shortcuts) {
        if (shortcuts.length > SHORTCUTS_MAXIMUM)
            throw invalidArgument(`at most ${SHORTCUTS_MAXIMUM} shortcuts, not ${shortcuts.length}`);
        for (const [name, accelerator] of shortcuts) {
            if (name.length === 0 || name.length > SHORTCUT_NAME_MAXIMUM || accelerator.length === 0
                || accelerator.length > SHORTCUT_ACCELERATOR_MAXIMUM)
                throw invalidArgument(`a shortcut's name is 1 to ${SHORTCUT_NAME_MAXIMUM} characters and its accelerator 1 to ${SHORTCUT_ACCELERATOR_MAXIMUM}`);
        }
        const list = JSON.stringify(shortcuts);
        if (list === this._shortcutList)
            return this._shortcutRefused;
        this._ungrabShortcuts();
        const refused = [];
        for (const [name, accelerator] of shortcuts) {
            // What GNOME Shell's own GrabAccelerator does (shellDBus.js), for gestured alone.
            const action = global.display.grab_accelerator(accelerator, Meta.KeyBindingFlags.NONE);
            if (action === Meta.KeyBindingAction.NONE) {
                refused.push([name, accelerator]);
                continue;
            }
            Main.wm.allowKeybinding(Meta.external_binding_name_for_action(action), SHORTCUT_ACTION_MODES);
            this._shortcuts.set(action, name);
        }
        this._shortcutList = list;
        this._shortcutRefused = refused;
        return refused;
    }

    _ungrabShortcuts() {
        for (const action of this._shortcuts.keys()) {
            if (global.display.ungrab_accelerator(action))
                Main.wm.allowKeybinding(Meta.external_binding_name_for_action(action), Shell.ActionMode.NONE);
        }
        this._shortcuts.clear();
        this._shortcutList = null;
        this._shortcutRefused = [];
    }

    /// One of gestured's shortcuts was pressed: its binding's name, to gestured alone.
    /// (GNOME emits accelerator-activated for every client's grab; the others are not ours.)
    _shortcutActivated(action) {
        const name = this._shortcuts.get(action);
        if (name !== undefined)
            this._toGestured('ShortcutActivated', new GLib.Variant('(s)', [name]));
    }

    /// A signal to the owner of io.github.gestured alone (a destination, which the bus
    /// routes to no one else), never broadcast.
    _toGestured(signal, parameters) {
        if (this._gestured === null)
            return;
        try {
            Gio.DBus.session.emit_signal(this._gestured, OBJECT_PATH, INTERFACE_NAME, signal, parameters);
        } catch (e) {
            logError(e, `gestured: ${signal} not sent`);
        }
    }

    /// The owner of io.github.gestured.Focus changed: the new one is told the focus now.
    _focusReaderIs(owner) {
        this._focusReader = owner;
        this._tellFocus();
    }

    _focusMoved() {
        this._unwatchWindow();
        this._window = global.display.focus_window;
        if (this._window) {
            this._windowSignals = WINDOW_PROPERTIES.map(
                p => this._window.connect(`notify::${p}`, () => this._report()));
        }
        this._report();
    }

    _unwatchWindow() {
        this._windowSignals.forEach(id => this._window.disconnect(id));
        this._windowSignals = [];
        this._window = null;
    }

    /// FocusChanged, when what it says has changed: a title set twice is said once.
    _report() {
        const text = describeWindow(this._window).join('\n');
        if (text === this._last)
            return;
        this._last = text;
        this._tellFocus();
    }

    /// FocusChanged to the owner of io.github.gestured.Focus alone (a signal with a
    /// destination, which the bus routes to no one else), never broadcast.
    _tellFocus() {
        if (this._focusReader === null)
            return;
        try {
            Gio.DBus.session.emit_signal(this._focusReader, OBJECT_PATH, INTERFACE_NAME, 'FocusChanged',
                new GLib.Variant('(sssssss)', describeWindow(this._window)));
        } catch (e) {
            logError(e, 'gestured: FocusChanged not sent');
        }
    }
}
