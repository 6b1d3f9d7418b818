// The page's DOM, and nothing else: `bind(event, handler)` turns what the user does
// into calls of the controller's handlers, `render(state)` draws the store's state
// (only what changed since the last one: states are compared by reference), and
// `announce`, `confirmSave` and `placeCaret` do what a state does not hold.

import { KeyedList, el } from './dom.js';
import { cardGroup, cardLook, drawCard, makeCard, sameLook } from './card.js';
import { ConfigEditor } from './config-editor.js';
import { centroidOfTrails, centroidRun, drawContacts, drawDevice, drawnWidth, gestureMeasure } from './device-figure.js';
import { STATES, actionText, byText, checkSummary, gestureText, num, plural, valueRows } from './format.js';
import { listensTo } from './store.js';
import { GestureForms } from './gesture-form.js';
import { addProposal, drawProposal } from './propose.js';
import { AccessibilityPanel } from './accessibility-panel.js';

const $ = (id) => document.getElementById(id);

/// How long the announcer gathers what to say before it says it, ms.
const ANNOUNCE_DELAY_MS = 250;
/// How much later than its frame a recording's event may be stamped and still belong to
/// it, s (as the store's own slack).
const EVENT_SLACK_S = 5e-6;

export class View {
  #shown = null;               // the state drawn last
  #toggle = null;              // the handler of the cards' Disable/Enable buttons
  #run = null;                 // the handler of the cards' Run buttons
  #proposing = { propose: () => {}, insert: () => {} }; // the handlers of the cards' proposals (propose.js)
  #showFrame = null;           // the handler of the scrubber, and of its ticks
  #cards = new Map();          // gesture name → { parts, look }
  #cardOrder = '';             // the cards' names as listed, and folded, last
  #fold = makeFold();          // the row of the kinds `--detect` tried that failed
  #liveSteps = new Map();      // gesture name → the steps it crossed, live: [{ step, t }]
  #recordingMarks = null;      // { events, ticks, steps } of the recording shown
  #figures = new Map();        // device path → { figure, info, gestures, layers }
  #figuresMade = 0;            // for each figure's own pattern id
  #contactsPending = new Set();
  #timeline = new KeyedList($('timeline'), drawTimelineEntry, redrawTimelineEntry);
  #tried = null;               // { id, list }: the list of what Try would fire
  #editor = new ConfigEditor($('editor'), $('gutter'), $('backdrop'));
  #noDevice = null;            // why Record cannot run, as last drawn (noDeviceReason)
  #announcements = [];
  #announceTimer = null;
  #formEdit = () => {};        // the handler of a form's edit
  #forms = new GestureForms({ edit: (e) => this.#formEdit(e), jump: (entry) => this.#showYAML(entry) });
  #formsChanged = false;       // the forms changed since they were last placed in the cards
  #accessibility = new AccessibilityPanel();

  constructor() {
    // Dragging over the drop zone shows where to let go.
    const zone = $('drop-zone');
    zone.addEventListener('dragover', (e) => { e.preventDefault(); zone.classList.add('dragging'); });
    zone.addEventListener('dragleave', () => zone.classList.remove('dragging'));
    $('ticks').addEventListener('keydown', (e) => moveAmongTicks(e));
  }

  /// Calls `handler` when the user does `event`; the handler gets what it needs of it
  /// (a file, a frame, the editor's text), never a DOM event.
  bind(event, handler) {
    const on = (id, type, listener) => $(id).addEventListener(type, listener);
    switch (event) {
      case 'toggleGesture': this.#toggle = handler; return;  // (name)
      case 'runGesture': this.#run = handler; return;  // (name)
      case 'propose': this.#proposing.propose = handler; return;  // (name)
      case 'insertProposal': this.#proposing.insert = handler; return;
      case 'onlyActive': return on('hide-idle', 'change', (e) => handler(e.target.checked));
      case 'openRecording':  // ([File]: a recording, or an events file and its .desc)
        on('recording-file', 'change', (e) => handler([...e.target.files]));
        return on('drop-zone', 'drop', (e) => {
          e.preventDefault();
          $('drop-zone').classList.remove('dragging');
          handler([...e.dataTransfer.files]);
        });
      case 'showFrame':
        this.#showFrame = handler;
        return on('scrubber', 'input', () => handler(Number($('scrubber').value)));
      case 'stepFrame':  // (-1 or 1)
        on('frame-prev', 'click', () => handler(-1));
        return on('frame-next', 'click', () => handler(1));
      case 'play': return on('play', 'click', () => handler());
      case 'speed':  // (0.1, 0.25 or 1)
        for (const radio of document.querySelectorAll('input[name="speed"]')) radio.addEventListener('change', () => handler(Number(radio.value)));
        return;
      case 'loop': return on('loop', 'change', (e) => handler(e.target.checked));
      case 'backToLive': return on('live-view', 'click', () => handler());
      case 'edit': return this.#editor.onEdit(handler);  // (text)
      case 'try': return on('try', 'click', () => handler());
      case 'save': return on('save', 'click', () => handler());
      case 'confirmSave': return on('confirm-dialog', 'close', () => handler($('confirm-dialog').returnValue === 'save'));
      case 'record': return on('record', 'click', () => handler());
      case 'insertBinding': return on('insert-yaml', 'click', () => handler());
      case 'formEdit': this.#formEdit = handler; return;  // ({ index, name, key, value })
      case 'applyAccessibility': return this.#accessibility.onApply(handler);  // ({ 'timing-scale', 'tremor-filter' })
      case 'addGesture': return on('add-gesture', 'click', () => handler($('add-kind').value));  // (kind)
      case 'startConfig':  // (true: from the default; false: empty)
        on('start-default', 'click', () => handler(true));
        return on('start-empty', 'click', () => handler(false));
      default: throw new Error(`the view has no event ${event}`);
    }
  }

  render(state) {
    const last = this.#shown;
    this.#shown = state;
    const changed = (...keys) => !last || keys.some((k) => state[k] !== last[k]);
    if (changed('session', 'connected', 'mode')) this.#renderHeader(state);
    if (changed('devices', 'gestures')) this.#renderDevices(state, last);
    else if (changed('cards')) for (const path of state.devices.keys()) this.#drawContactsSoon(path);
    if (changed('fingers')) this.#renderFingerCount(state.fingers);
    if (changed('cards', 'kinds', 'devices', 'onlyActive', 'mode')) this.#renderCards(state);
    if (changed('cards', 'proposal', 'recording')) this.#renderProposals(state);
    if (changed('timeline')) this.#timeline.show(state.timeline);
    if (changed('recording', 'recordingStatus', 'mode')) this.#renderRecording(state);
    if (changed('config', 'editor', 'mode')) this.#renderEditor(state, last);
    if (changed('config', 'mode')) renderNoConfig(state);
    if (changed('trying', 'tried')) this.#renderTry(state);
    if (changed('saveResult', 'config', 'mode')) this.#renderSave(state);
    const noDevice = noDeviceReason(state);
    if (changed('record', 'recording', 'mode') || noDevice !== this.#noDevice) this.#renderRecord(state, noDevice);
    if (changed('cards', 'kinds', 'recording') || this.#formsChanged) this.#placeForms(state);
    if (changed('accessibility', 'recording', 'editor', 'started')) this.#accessibility.render(state);
  }

  /// The editor's gestures as the server read them (`/api/form`), drawn as forms in
  /// their cards; `message`: why an edit was refused (null: none).
  showForms(entries, message) {
    if (entries) this.#forms.show(entries, this.#shown ? this.#shown.kinds : null);
    if (entries) this.#accessibility.showEntries(entries);
    $('form-status').textContent = message || '';
    this.#formsChanged = true;
    if (this.#shown) this.#placeForms(this.#shown);
  }

  #placeForms(state) {
    this.#formsChanged = false;
    const values = new Map();
    if (state.recording) {
      for (const [name, card] of state.cards) if (card.values) values.set(name, valueRows(state.kinds, card.gesture.kind, card.values));
    }
    this.#forms.place($('cards'), $('form-drafts'), values);
  }

  /// Selects a gesture's lines in the editor and scrolls to them.
  #showYAML(entry) {
    this.#editor.selectLines(entry.line, entry.end_line);
  }

  /// Says `text` to screen readers, a few at a time: a replay can fail forty
  /// recognizers in one frame, and one sentence per batch is what a listener can follow.
  announce(text) {
    this.#announcements.push(text);
    if (this.#announceTimer) return;
    this.#announceTimer = setTimeout(() => {
      const items = this.#announcements;
      this.#announcements = [];
      this.#announceTimer = null;
      const shown = items.slice(0, 3).join('; ');
      $('announcer').textContent = items.length > 3 ? `${shown}; and ${items.length - 3} more` : shown;
    }, ANNOUNCE_DELAY_MS);
  }

  /// Asks whether to save a config with errors (the answer goes to `confirmSave`).
  confirmSave(text) {
    $('confirm-text').textContent = text;
    const dialog = $('confirm-dialog');
    dialog.returnValue = '';
    dialog.showModal();
  }

  /// What became of the accessibility panel's Apply.
  accessibilitySaid(text) {
    this.#accessibility.said(text);
    this.announce(text);
  }

  /// Puts the editor's caret at `offset` of its text.
  placeCaret(offset) {
    this.#editor.placeCaret(offset);
  }

  #renderHeader(state) {
    $('session').textContent = state.session.text;
    $('session').dataset.focus = state.session.focus;
    if (state.connected !== null) {
      $('connection').textContent = state.connected ? 'Connected' : 'Disconnected: retrying…';
      $('connection').dataset.connected = String(state.connected);
    }
    if (state.mode) document.body.dataset.mode = state.mode;
  }

  // MARK: Devices

  /// A figure per device, redrawn when the device or the gestures (its zones) change;
  /// their contacts drawn once per screen refresh (frames come up to 60 a second each).
  #renderDevices(state, last) {
    let redrawn = !last;
    for (const [path, shown] of this.#figures) {
      if (state.devices.has(path)) continue;
      shown.figure.remove();
      this.#figures.delete(path);
      redrawn = true;
    }
    for (const [path, device] of state.devices) {
      const shown = this.#figures.get(path);
      if (shown && shown.info === device.info && shown.gestures === state.gestures) {
        if (last.devices.get(path) !== device) this.#drawContactsSoon(path);
        continue;
      }
      const figure = shown ? shown.figure : el('figure', 'device-figure');
      const layers = drawDevice(figure, path, device.info, state.gestures, `hatch-${this.#figuresMade++}`);
      this.#figures.set(path, { figure, info: device.info, gestures: state.gestures, layers });
      if (!figure.isConnected) $('devices').append(figure);
      drawContacts(layers, device.contacts, device.fingers, this.#measure(state, path, device));
      redrawn = true;
    }
    if (!redrawn) return;
    const container = $('devices');
    const empty = container.querySelector('.empty');
    if (state.devices.size === 0 && !empty) container.append(el('p', 'empty', 'No touch device yet.'));
    if (state.devices.size > 0 && empty) empty.remove();
    // Every device at the same mm per pixel: the widest fills its panel, a touchpad
    // beside a touchscreen is drawn as much smaller as it is.
    const widest = Math.max(...[...state.devices.values()].map((d) => drawnWidth(d.info)), 1);
    for (const [path, device] of state.devices) {
      this.#figures.get(path).layers.image.style.width = `${Math.max(15, (100 * drawnWidth(device.info)) / widest)}%`;
    }
  }

  #drawContactsSoon(path) {
    this.#contactsPending.add(path);
    if (this.#contactsPending.size > 1) return;
    requestAnimationFrame(() => {
      const paths = this.#contactsPending;
      this.#contactsPending = new Set();
      for (const p of paths) {
        const device = this.#shown.devices.get(p);
        const shown = this.#figures.get(p);
        if (device && shown) drawContacts(shown.layers, device.contacts, device.fingers, this.#measure(this.#shown, p, device));
      }
    });
  }

  /// What the gesture on `device` measures, drawn over it: the first card listed (what
  /// fired, else what is under way) with values, on that device.
  #measure(state, path, device) {
    let best = null;
    for (const card of state.cards.values()) {
      const group = cardGroup(card.state);
      if (!card.values || group > 1 || (!state.recording && card.device !== path)) continue;
      if (!best || group < cardGroup(best.state)) best = card;
    }
    if (!best) return null;
    const recording = state.recording;
    const trail = recording ? centroidRun(recording.frames, recording.frame) : centroidOfTrails(device.contacts);
    const kind = best.values.kind || best.gesture.kind;
    return gestureMeasure(trail, best.values, (state.kinds[kind] || { values: [] }).values);
  }

  #renderFingerCount(fingers) {
    $('finger-count').textContent = plural(fingers.count, 'finger');
    $('finger-count').title = fingers.device ? `on ${fingers.device}` : '';
  }

  // MARK: Cards

  /// The cards, made anew for new gestures (a hello, a recording), else each redrawn
  /// when its look changed; a card that leaves possible for a state other than changed
  /// (every frame of a moving gesture) is announced. They are listed by state (what
  /// fired, what is under way, what is possible, what failed), and the kinds a recording
  /// without a config tried (as `replay --detect` does) that failed are folded into one
  /// row: the one swipe that fired is first, not the 29th card among failures.
  #renderCards(state) {
    const fresh = this.#cards.size !== state.cards.size ||
      [...state.cards].some(([name, card]) => this.#cards.get(name)?.parts.gesture !== card.gesture);
    if (fresh) {
      const toggle = state.mode === 'replay' ? null : (name) => this.#toggle(name);
      const run = state.mode === 'replay' ? null : (name) => this.#run(name);
      const proposing = { propose: (name) => this.#proposing.propose(name), insert: () => this.#proposing.insert() };
      this.#cards = new Map([...state.cards].map(([name, card]) => {
        const parts = makeCard(card.gesture, toggle, run);
        addProposal(parts, proposing);
        return [name, { parts, look: null }];
      }));
      this.#cardOrder = '';
      this.#liveSteps = new Map();
    }
    const kinds = new Set([...state.devices.values()].map((d) => d.info.kind));
    const detecting = isDetecting(state);
    const steps = this.#stepsAt(state);
    for (const [name, card] of state.cards) {
      const shown = this.#cards.get(name);
      const device = card.device && state.devices.get(card.device);
      const look = cardLook(card, {
        applies: kinds.size === 0 || [...kinds].some((k) => listensTo(card.gesture, k)),
        device: device ? device.info.name : null,
        kinds: state.kinds,
        onlyActive: state.onlyActive,
        folded: detecting && cardGroup(card.state) === 3,
        steps: steps(name, card),
      });
      if (shown.look && sameLook(look, shown.look)) continue;
      drawCard(shown.parts, look, shown.look);
      if (shown.look && look.state !== shown.look.state && look.state !== 'possible' && look.state !== 'changed') {
        this.announce(`${name} ${look.state}${look.reason ? `: ${look.reason}` : ''}`);
      }
      shown.look = look;
    }
    this.#listCards(state.cards, detecting, state.onlyActive);
    $('hide-idle').checked = state.onlyActive;
  }

  /// Each card's "Propose a binding" and its proposal (propose.js).
  #renderProposals(state) {
    for (const [name, card] of state.cards) {
      const shown = this.#cards.get(name);
      if (shown) drawProposal(shown.parts, card, state);
    }
  }

  /// The cards in their order, each moved only if it is out of place (a moved element
  /// loses the keyboard's focus), the folded failures last.
  #listCards(cards, detecting, onlyActive) {
    const names = [...cards.keys()];
    const rank = (name) => cardGroup(cards.get(name).state);
    const order = names.map((name, i) => [rank(name), i, name]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((x) => x[2]);
    const folded = detecting ? order.filter((name) => rank(name) === 3) : [];
    const listed = order.filter((name) => !folded.includes(name));
    const key = `${listed.join('\n')}|${folded.join('\n')}`;
    this.#fold.el.hidden = folded.length === 0 || onlyActive;
    if (key === this.#cardOrder) return;
    this.#cardOrder = key;
    placeInOrder($('cards'), [...listed.map((n) => this.#cards.get(n).parts.el), this.#fold.el]);
    placeInOrder(this.#fold.list, folded.map((n) => this.#cards.get(n).parts.el));
    this.#fold.summary.textContent = `${folded.length} ${folded.length === 1 ? 'kind' : 'kinds'} failed`;
  }

  /// A function of a card to the steps it crossed so far: in a recording, those of its
  /// events up to the frame shown since its gesture began; live, those its lines
  /// brought since it last began.
  #stepsAt(state) {
    const none = [];
    const recording = state.recording;
    if (recording) {
      const marks = this.#marksOf(recording);
      const t = recording.frames.length ? recording.frames[recording.frame].t + EVENT_SLACK_S : -Infinity;
      return (name, card) => {
        if (card.state === 'possible') return none;
        const runs = marks.steps.get(name) || [];
        const run = [...runs].reverse().find((r) => r.began <= t);
        return run ? run.steps.filter((s) => s.t <= t) : none;
      };
    }
    return (name, card) => {
      const v = card.values;
      let seen = this.#liveSteps.get(name) || none;
      if (card.state === 'possible' || (v && v.phase === 'began')) seen = none;
      const last = seen[seen.length - 1];
      if (v && typeof v.step === 'number' && v.phase !== 'began' && (!last || last.step !== v.step) && (seen.length || v.step !== 0)) {
        seen = [...seen, { step: v.step, t: v.t }];
      }
      this.#liveSteps.set(name, seen);
      return seen;
    };
  }

  /// The recording's marks, made once per recording: the scrubber's ticks, and each
  /// stepped gesture's steps.
  #marksOf(recording) {
    if (this.#recordingMarks && this.#recordingMarks.events === recording.events && this.#recordingMarks.frames === recording.frames) {
      return this.#recordingMarks;
    }
    this.#recordingMarks = { events: recording.events, frames: recording.frames, ...recordingMarks(recording) };
    return this.#recordingMarks;
  }

  // MARK: Recordings

  #renderRecording(state) {
    $('recording-status').textContent = state.recordingStatus;
    const recording = state.recording;
    $('scrub').hidden = !recording;
    document.body.classList.toggle('has-transport', Boolean(recording));
    $('live-view').hidden = !recording || state.mode === 'replay';
    const playing = Boolean(recording && recording.playing);
    $('play').setAttribute('aria-pressed', String(playing));
    $('play').textContent = playing ? 'Pause' : 'Play';
    // Sixty frame labels a second are noise to a screen reader: it hears where play stopped.
    $('frame-label').setAttribute('aria-live', playing ? 'off' : 'polite');
    if (!recording) return;
    const { frames, frame } = recording;
    $('scrubber').max = String(Math.max(0, frames.length - 1));
    $('scrubber').value = String(frame);
    const f = frames[frame];
    $('frame-label').textContent = f ? `Frame ${frame + 1} of ${frames.length} · ${num(f.t, 3)} s · ${plural(f.fingers || 0, 'finger')}` : '';
    this.#drawTicks(recording);
  }

  /// A tick on the scrubber at each frame where gestures began, stepped, ended, were
  /// recognized or failed (one per frame and kind of mark, its label naming them all).
  /// The ticks are one stop of the Tab key: ← and → go from tick to tick, Enter shows
  /// the tick's frame.
  #drawTicks(recording) {
    const marks = this.#marksOf(recording);
    const ticks = $('ticks');
    if (ticks.dataset.drawn === String(marks.serial)) return;
    ticks.dataset.drawn = String(marks.serial);
    const last = Math.max(1, recording.frames.length - 1);
    ticks.replaceChildren(...marks.ticks.map((tick, i) => {
      const button = el('button', `tick tick-${tick.mark}`, TICK_ICONS[tick.mark]);
      button.type = 'button';
      button.tabIndex = i === 0 ? 0 : -1;
      button.dataset.frame = String(tick.frame);
      button.dataset.marks = tick.marks.join(' ');
      button.dataset.t = num(tick.t, 3);
      button.setAttribute('aria-label', tick.label);
      button.title = tick.label;
      button.style.left = `calc(var(--thumb) / 2 + (100% - var(--thumb)) * ${tick.frame / last})`;
      button.addEventListener('click', () => this.#showFrame && this.#showFrame(tick.frame));
      return button;
    }));
  }

  // MARK: The config editor

  #renderEditor(state, last) {
    const path = $('config-path');
    if (state.mode) {
      path.textContent = state.config ? state.config.path
        : 'No config file: every gesture kind is shown, as replay --detect does. Save is off.';
    }
    const modified = Boolean(state.config) && state.editor.text !== state.config.savedText;
    path.classList.toggle('modified', modified);
    path.dataset.modified = String(modified);
    const editor = state.editor;
    if (last && editor === last.editor) return;
    const before = last ? last.editor : null;
    if (!before || editor.text !== before.text || editor.diagnostics !== before.diagnostics) this.#editor.show(editor.text, editor.diagnostics);
    if (editor.check && (!before || editor.check !== before.check)) {
      const status = $('check-status');
      status.textContent = editor.check.error ? `Could not check: ${editor.check.error}` : checkSummary(editor.diagnostics, editor.check.ok);
      status.dataset.ok = String(Boolean(editor.check.ok));
    }
    if (!before || editor.diagnostics !== before.diagnostics) {
      $('diagnostics').replaceChildren(...editor.diagnostics.map((d) => this.#diagnosticItem(d)));
    }
  }

  #diagnosticItem(d) {
    const item = el('li', `diagnostic ${d.severity === 'error' ? 'error' : 'warning'}`);
    item.dataset.line = String(d.line);
    item.dataset.column = String(d.column);
    const jump = el('button', 'jump', `Line ${d.line}, column ${d.column}`);
    jump.type = 'button';
    jump.addEventListener('click', () => this.#editor.moveCaret(d.line, d.column));
    const icon = el('span', 'severity-icon', d.severity === 'error' ? '✗' : '⚠');
    icon.setAttribute('aria-hidden', 'true');
    item.append(icon, ' ', jump, ': ', el('span', 'severity', d.severity), ': ', el('span', 'message', d.message));
    if (d.hint) item.append(el('span', 'hint', ` (${d.hint})`));
    return item;
  }

  // MARK: Try, Save and Record

  #renderTry(state) {
    $('try').setAttribute('aria-pressed', String(state.trying));
    $('try').textContent = state.trying ? 'Stop trying' : 'Try';
    const result = $('try-result');
    const tried = state.tried;
    if (!tried || tried.error) {
      this.#tried = null;
      result.replaceChildren(...(tried ? [el('p', 'error', tried.error)] : []));
      return;
    }
    if (!this.#tried || this.#tried.id !== tried.id) {
      const heading = el('p', 'try-heading', tried.onRecording
        ? 'What this config would fire on the recording (nothing runs):'
        : 'Trying this config beside the running one (dry run, nothing runs). What it would fire:');
      const list = el('ul', 'fired');
      list.id = 'fired';
      result.replaceChildren(heading, list);
      this.#tried = { id: tried.id, list: new KeyedList(list, drawFired, redrawFired) };
    }
    const nothing = tried.listed && tried.fired.length === 0;
    this.#tried.list.show(nothing ? [{ id: 'nothing', nothing }] : tried.fired);
    drawEffects(result, tried.effects || []);
  }

  #renderSave(state) {
    $('save').disabled = state.mode !== null && !state.config;
    const result = $('save-result');
    result.textContent = state.saveResult ? state.saveResult.text : '';
    if (state.saveResult && state.saveResult.ok !== undefined) result.dataset.ok = String(state.saveResult.ok);
    else delete result.dataset.ok;
  }

  #renderRecord(state, noDevice) {
    this.#noDevice = noDevice;
    const button = $('record');
    button.disabled = state.mode === 'replay' || state.recording !== null || (noDevice !== null && !state.record.on);
    button.setAttribute('aria-pressed', String(state.record.on));
    button.textContent = state.record.on ? 'Stop recording' : 'Start recording';
    const shown = $('record-result');
    const result = state.record.result;
    const yaml = result && result.detected ? result.yaml : '';
    $('record-yaml').textContent = yaml;
    $('record-yaml').hidden = !yaml;
    $('insert-yaml').hidden = !yaml;
    if (state.mode === 'replay') {
      shown.textContent = 'Recording a gesture needs a device: run gestured ui without --replay.';
    } else if (noDevice !== null && !state.record.on) {
      shown.replaceChildren(el('p', 'no-device', 'Recording a gesture needs a touch device, and there is none. gestured list-devices says:'),
        el('pre', 'no-device-reason', noDevice));
    } else if (!result) {
      shown.replaceChildren();
    } else if (result.now) {
      shown.replaceChildren(el('p', 'recording-now', 'Recording: perform the gesture now.'));
    } else if (result.error) {
      shown.replaceChildren(el('p', 'error', result.error));
    } else if (result.detected.length === 0) {
      shown.replaceChildren(el('p', null, 'Nothing was recognized. Try again, a little larger or slower.'));
    } else {
      shown.replaceChildren(el('p', null, 'Recognized (best first):'), detectedList(result.detected, state.kinds));
    }
  }
}

// MARK: The transport's ticks and the card list

/// The marks of a tick, the one it shows first: what fired before what failed.
const MARKS = ['recognized', 'began', 'ended', 'step', 'cancelled', 'failed'];
/// What each mark shows: the states' own icons, and a step's.
const TICK_ICONS = {
  began: STATES.began.icon, step: '·', ended: STATES.ended.icon, recognized: STATES.recognized.icon,
  failed: STATES.failed.icon, cancelled: STATES.cancelled.icon,
};
const MARK_WORDS = { recognized: 'recognized', began: 'began', ended: 'ended', step: 'stepped', cancelled: 'cancelled', failed: 'failed' };
let marksMade = 0;

/// A recording's ticks ({ frame, t, mark, marks, label }, in time order: one per frame
/// with events, showing the first of its marks in MARKS' order, its label naming them
/// all) and each stepped gesture's runs (name → [{ began: t, steps: [{ step, t }] }]),
/// from its events: a gesture line that began, crossed a step (its `step` changed),
/// ended, was recognized or cancelled, and a state line to failed.
function recordingMarks(recording) {
  const { frames, events } = recording;
  const byFrame = new Map();  // frame → { frame, t, named: Map mark → [what] }
  const steps = new Map();
  const lastStep = new Map();
  for (const e of events) {
    let mark = null;
    let what = e.gesture;
    if (e.type === 'gesture') {
      if (e.phase === 'began') {
        lastStep.set(e.gesture, 0);
        if (typeof e.step === 'number') steps.set(e.gesture, [...(steps.get(e.gesture) || []), { began: e.t, steps: [] }]);
      }
      if (e.phase === 'changed' && typeof e.step === 'number' && e.step !== (lastStep.get(e.gesture) ?? 0)) {
        lastStep.set(e.gesture, e.step);
        const runs = steps.get(e.gesture);
        if (runs) runs[runs.length - 1].steps.push({ step: e.step, t: e.t });
        mark = 'step';
        what = `${e.gesture} ${e.step}`;
      } else if (e.phase !== 'changed') {
        mark = MARKS.includes(e.phase) ? e.phase : null;
      }
    } else if (e.type === 'state' && e.to === 'failed' && !e.refused) {
      mark = 'failed';
    }
    if (!mark) continue;
    const frame = frameAt(frames, e.t);
    const tick = byFrame.get(frame) || { frame, t: frames[frame] ? frames[frame].t : e.t, named: new Map() };
    tick.named.set(mark, [...(tick.named.get(mark) || []), what]);
    byFrame.set(frame, tick);
  }
  const ticks = [...byFrame.values()].sort((a, b) => a.frame - b.frame).map(({ frame, t, named }) => {
    const marks = MARKS.filter((m) => named.has(m));
    const said = marks.map((m) => {
      const names = named.get(m);
      const shown = names.slice(0, 4).join(', ') + (names.length > 4 ? ` and ${names.length - 4} more` : '');
      return `${MARK_WORDS[m]}: ${shown}`;
    });
    return { frame, t, mark: marks[0], marks, label: `${num(t, 3)} s: ${said.join('; ')}` };
  });
  return { ticks, steps, serial: ++marksMade };
}

/// The first frame at or after time t (the one an event happened on), or the last.
function frameAt(frames, t) {
  let lo = 0;
  let hi = frames.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (frames[mid].t + EVENT_SLACK_S < t) lo = mid + 1; else hi = mid;
  }
  return Math.min(lo, Math.max(0, frames.length - 1));
}

/// ← → Home End among the ticks: the focus moves, and only the focused tick is a Tab stop.
function moveAmongTicks(e) {
  const ticks = [...e.currentTarget.querySelectorAll('.tick')];
  const at = ticks.indexOf(document.activeElement);
  if (at < 0) return;
  const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: ticks.length - 1 }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  const next = ticks[Math.max(0, Math.min(ticks.length - 1, to))];
  ticks[at].tabIndex = -1;
  next.tabIndex = 0;
  next.focus();
}

/// Whether the cards are the kinds `--detect` tries (a recording shown with no config
/// file), whose failures are folded into one row.
function isDetecting(state) {
  return state.recording !== null && (!state.config || !state.config.inUse);
}

/// The row the failed `--detect` kinds are folded into: "N kinds failed", opened on demand.
function makeFold() {
  const details = el('details', 'failed-fold');
  details.id = 'failed-kinds';
  details.hidden = true;
  const summary = el('summary', 'failed-fold-summary');
  const list = el('div', 'cards fold-cards');
  details.append(summary, list);
  return { el: details, summary, list };
}

/// `parent`'s children made `wanted`, in order, moving only those out of place.
function placeInOrder(parent, wanted) {
  const keep = new Set(wanted);
  for (const child of [...parent.children]) if (!keep.has(child)) child.remove();
  let cursor = parent.firstElementChild;
  for (const element of wanted) {
    if (element === cursor) cursor = cursor.nextElementSibling;
    else parent.insertBefore(element, cursor);
  }
}

/// Why Record cannot run: live, with the daemon's stream connected and no touch device
/// in it, what list-devices says (the server's scan); null when a device is there.
function noDeviceReason(state) {
  if (state.mode === 'replay' || state.connected !== true || state.devices.size > 0 || state.recording) return null;
  return state.noDevice || 'No touchpad or touchscreen is available to gestured.';
}

/// The no-config banner: on a first run, the file the editor shows does not exist yet.
function renderNoConfig(state) {
  const banner = $('no-config');
  banner.hidden = !state.config || state.config.exists;
  if (!banner.hidden) $('no-config-path').textContent = state.config.path;
}

/// What the tried config changes on the recording, against the saved one (store.js's changesSaid).
function drawEffects(result, effects) {
  let list = result.querySelector('.effects');
  if (!effects.length) return list && list.remove();
  if (!list) {
    list = el('ul', 'effects');
    list.id = 'try-effects';
    list.setAttribute('aria-label', 'What the edit changes on this recording');
    result.append(list);
  }
  list.replaceChildren(...effects.map((text) => el('li', null, text)));
}

/// What a recorded gesture was recognized as, best first, each with its values.
function detectedList(detected, kinds) {
  const list = el('ol', 'detected');
  for (const d of detected) {
    const parts = [d.kind, plural(d.fingers, 'finger')];
    if (d.direction) parts.push(d.direction);
    const item = el('li', null, parts.join(' · '));
    const values = d.values ? valueRows(kinds, d.kind, d.values).filter(([name]) => name !== 'Direction') : [];
    if (values.length) item.append(el('span', 'detected-values', ` (${values.map(([k, v]) => `${k.toLowerCase()} ${v}`).join(', ')})`));
    list.append(item);
  }
  return list;
}

// MARK: The timeline's and Try's entries

/// A timeline entry (store.js's): a gesture with the actions it ran, a reload, lines
/// lost, or an action whose gesture is no longer listed.
function drawTimelineEntry(entry) {
  const { line } = entry;
  switch (entry.type) {
    case 'gesture': {
      const item = el('li', `timeline-gesture phase-${line.phase}`);
      item.dataset.gesture = line.gesture;
      item.append(el('span', 'when', entry.when), ' ', el('span', 'what', gestureText(line)), el('ul', 'actions'));
      redrawTimelineEntry(item, entry);
      return item;
    }
    case 'reload':
      return el('li', `timeline-reload ${line.ok ? 'ok' : 'error'}`, `${entry.when} ${line.message || (line.ok ? 'reloaded' : 'reload failed')}`);
    case 'lost':
      return el('li', 'timeline-lost', `${line.lost} lines lost: the page read too slowly`);
    case 'action':
      return el('li', `action outcome-${line.outcome}`, standaloneActionText(line));
    default:
      throw new Error(`no timeline entry ${entry.type}`);
  }
}

/// An action with no gesture entry of its own: its binding, who ran it if not the gesture.
function standaloneActionText(line) {
  return `${line.gesture}${byText(line)}: ${actionText(line)}`;
}

/// A gesture entry's actions: a new one added, a process's later line in place of its
/// earlier. An action entry (run by hand, or its gesture's entry gone): its later line.
function redrawTimelineEntry(item, entry) {
  if (entry.type === 'action') {
    item.className = `action outcome-${entry.line.outcome}`;
    item.textContent = standaloneActionText(entry.line);
    return;
  }
  drawActions(item.querySelector('.actions'), entry.actions.map((a) => [`action outcome-${a.outcome}`, actionText(a)]));
}

/// What the tried config would fire: `when` is the recording's time, or the clock's.
function drawFired(entry) {
  if (entry.nothing) return el('li', 'none', 'Nothing would fire.');
  const item = el('li', 'fired-gesture');
  item.dataset.gesture = entry.line.gesture;
  item.append(el('span', 'when', entry.when), ' ', el('span', 'what', gestureText(entry.line)));
  redrawFired(item, entry);
  return item;
}

function redrawFired(item, entry) {
  let list = item.querySelector('.actions');
  if (!list && entry.actions.length) item.append(list = el('ul', 'actions'));
  if (list) drawActions(list, entry.actions.map((text) => ['action outcome-dry-run', `would run: ${text}`]));
}

/// The items of an actions list as [className, text] pairs, changing only those that differ.
function drawActions(list, actions) {
  actions.forEach(([className, text], i) => {
    const item = list.children[i] || list.appendChild(el('li'));
    if (item.className !== className) item.className = className;
    if (item.textContent !== text) item.textContent = text;
  });
  while (list.children.length > actions.length) list.lastElementChild.remove();
}
