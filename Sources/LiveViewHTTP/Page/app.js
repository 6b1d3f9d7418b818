// gestured's live view: what the daemon (or the ui's own engine, or a recording)
// sees, drawn from the event stream of docs/CONTROL.md. Plain JavaScript modules, no
// build step, no network beyond this page's own server (docs/UI.md, "The page").
//
// This module starts the page: the state lives in the store (store.js), the DOM is
// the view's (view.js), and the controller (controller.js) passes what happens from
// the server and the user to the store and each new state to the view.

import { Controller } from './controller.js';
import { Store } from './store.js';
import { View } from './view.js';

new Controller(new Store(), new View()).start();
