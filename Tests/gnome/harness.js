// @uuid harness@gestured.github.io
// @name gestured's test harness
// @class Harness
// @description Tests only: does what a user's click would in a headless GNOME Shell, which starts in the overview and does not focus new windows; and turns on unsafe mode, so the tests can read GNOME's own state with org.gnome.Shell.Eval.
//
// Tests only (Tests/GesturedCLITests/GNOMESession.swift), built into either form by
// gnome-extension/build like gestured's own: leaves the overview and focuses each new
// window once it is shown, as a click would; enables Eval.

class Harness {
    enable() {
        global.context.unsafe_mode = true;
        // At start-up the overview opens after extensions are enabled.
        if (Main.layoutManager._startingUp)
            this._startup = Main.layoutManager.connect('startup-complete', () => Main.overview.hide());
        else
            Main.overview.hide();
        this._created = global.display.connect('window-created', (display, window) => {
            const id = window.connect('shown', () => {
                window.disconnect(id);
                Main.activateWindow(window);
            });
        });
    }

    disable() {
        global.display.disconnect(this._created);
        if (this._startup)
            Main.layoutManager.disconnect(this._startup);
    }
}
