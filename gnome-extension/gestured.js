// @uuid gestured@gestured.github.io
// @name gestured
// @class GesturedShell
// @description Tells gestured (the touch gesture daemon) which window has the focus, for per-application gestures, and switches workspaces, moves windows and opens the overview for its gestures. D-Bus: io.github.gestured.Shell at /io/github/gestured/Shell on gnome-shell's connection.
//
// The logic of gestured's GNOME Shell extension, shared by both of its forms:
// `build` wraps it in GNOME 43/44's imports.* header or GNOME 45+'s ES-module one,
// which define Gio, GLib, Meta and Main before this text. Nothing here imports,
// exports, or names a version of GNOME.
//
// It tells gestured (and anyone on the session bus) which window has the focus, and
// does for gestured what GNOME has no command for. The D-Bus interface is documented
// in docs/GNOME.md; keep the two in step.
//
// No polling: the extension runs when GNOME reports a change of focus, title or app
// id (GObject notify signals), or when someone calls a method; at rest, nothing.

const OBJECT_PATH = '/io/github/gestured/Shell';
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
        this._focusSignal = global.display.connect('notify::focus-window', () => this._focusMoved());
        this._focusMoved();
    }

    disable() {
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

    GetFocus() {
        return describeWindow(global.display.focus_window);
    }

    SwitchWorkspace(target) {
        const manager = global.workspace_manager;
        const index = workspaceIndex(target, manager.get_active_workspace_index());
        // The same call as GNOME's own keyboard shortcuts: it animates the switch.
        Main.wm.actionMoveWorkspace(manager.get_workspace_by_index(index));
        return index + 1;
    }

    MoveWindowToWorkspace(target) {
        const window = global.display.focus_window;
        if (!window)
            throw new GLib.Error(Gio.DBusError, Gio.DBusError.FAILED, 'no window has the focus');
        const index = workspaceIndex(target, window.get_workspace()?.index() ?? 0);
        // GNOME's Shift+Super+Page_Down: the window moves and the view follows it.
        Main.wm.actionMoveWindow(window, global.workspace_manager.get_workspace_by_index(index));
        return index + 1;
    }

    Overview(state) {
        if (wanted(state, Main.overview.visibleTarget))
            Main.overview.show();
        else
            Main.overview.hide();
        return Main.overview.visibleTarget;
    }

    AppGrid(state) {
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
    ShowDesktop(state) {
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
        const fields = describeWindow(this._window);
        const text = fields.join('\n');
        if (text === this._last)
            return;
        this._last = text;
        this._dbus.emit_signal('FocusChanged', new GLib.Variant('(sssssss)', fields));
    }
}
