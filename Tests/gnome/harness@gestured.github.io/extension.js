'use strict';
// Tests only (Tests/GesturedCLITests/GNOMEShellTests.swift): leaves the overview and
// focuses each new window once it is shown, as a click would; enables Eval.
const Main = imports.ui.main;

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

/* exported init */
function init() {
    return new Harness();
}
