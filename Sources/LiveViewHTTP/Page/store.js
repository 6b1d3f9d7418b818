// Everything the page shows, in one value, and the pure functions that make the next
// value from the last and what happened: a stream line, an answer of the server, a
// press of the user. No DOM, no network, no clock (the controller passes the time of
// day in). A change returns a new state and leaves the one it was given as it was,
// so the view sees what changed by comparing references, and returns the very same
// state when nothing changed.

import { actionText, knownState, modeName, num, plural, sessionText } from './format.js';

/// Positions kept per contact for its trail, in frames (a quarter second at 60 Hz).
const TRAIL_FRAMES = 15;
/// Entries the timeline keeps, and gestures Try lists.
const TIMELINE_LENGTH = 40;
/// How much later than its frame a recording's event may be stamped and still belong to
/// it, s: the timeline's times are rounded to the µs on their own (frames are ms apart).
/// Frames and events are on one clock, seconds from the recording's first event (the
/// server's timeline says so whatever the recording was stamped with).
const EVENT_SLACK_S = 5e-6;
/// What the recording's line adds while the frames shown are Try's.
const TRIED_NOTE = ' · shown as the edited config (Try) would make it, not the saved one';

function initialState() {
  return {
    mode: null,             // 'daemon' | 'local' | 'replay', from /api/session
    session: { text: 'Connecting…', focus: '' },
    connected: null,        // null until the event stream opens; false while it retries
    started: null,          // live: when the daemon started (its hello's `started`, on the lines' clock `t`)
    kinds: {},              // kind → { discrete, values: the gesture line's keys it reports } (hello)
    gestures: [],           // the config's gestures (hello, or the recording's)
    devices: new Map(),     // path → { info, contacts: Map id → [{ x, y, down }], fingers }
    fingers: { count: 0, device: '' }, // the count above the devices: the last frame's
    cards: new Map(),       // gesture name → card (see newCards), in the config's order
    onlyActive: false,      // "Show only gestures that left possible"
    timeline: [],           // newest first: { id, type: 'gesture' | 'action' | 'reload' | 'lost', line, … }
    nextId: 0,              // the id of the next timeline or Try entry
    recording: null,        // while one is shown: { id, status, frames, events, entries, frame, playing, saved, tried }
                            // (saved: the saved config's timeline, indexed; tried: the frames shown are Try's)
    recordingStatus: '',
    config: null,           // { path, savedText, inUse, exists, defaultText } of the file in use; null: none (or no session yet)
    noDevice: null,         // why no touch device is seen, in list-devices' words (live modes)
    editor: { text: '', diagnostics: [], check: null }, // check: { ok } or { error }
    trying: false,
    tried: null,            // what Try shows: { error } or { id, onRecording, listed, fired: [entry], effects: [text] }
    saveResult: null,       // { text, ok }
    record: { on: false, result: null }, // result: { now } | { error } | { detected, yaml }
    proposal: null,         // a card's proposed binding (propose.js): { recording, gesture, pending | error | yaml, t, fingers, direction }
    accessibility: null,    // the accessibility panel's live touches (accessibility.js): { open, touches }
  };
}

/// The one place the state lives: `update` replaces it with what a change makes of it
/// and tells the listener (the controller, which has the view draw it).
export class Store {
  #state = initialState();
  #changed = () => {};

  get state() { return this.#state; }

  onChange(listener) { this.#changed = listener; }

  update(change, ...args) {
    const next = change(this.#state, ...args);
    if (next === this.#state) return;
    this.#state = next;
    this.#changed(next);
  }
}

/// Whether a gesture listens to a device of this kind (a `device-name` glob is the
/// server's to match: such a gesture is shown on every device).
export function listensTo(gesture, kind) {
  const wanted = gesture.device || 'any';
  if (wanted === 'touchpad' || wanted === 'touchscreen') return wanted === kind;
  return true;
}

function withEntry(map, key, value) {
  return new Map(map).set(key, value);
}

/// The cards with `change` made to each; the same map when it changed none.
function withCards(cards, change) {
  let next = null;
  for (const [name, card] of cards) {
    const changed = change(card, name);
    if (changed === card) continue;
    next = next || new Map(cards);
    next.set(name, changed);
  }
  return next || cards;
}

const POSSIBLE = { state: 'possible', reason: null, values: null, progress: null };

/// One card per name, in order: the configured gesture of that name, or (a recording's
/// `--detect` candidates) one named after its kind. A card starts possible.
function newCards(gestures, names) {
  const byName = new Map(gestures.map((g) => [g.name, g]));
  return new Map(names.map((name) => {
    const gesture = byName.get(name) || { name, kind: name.replace(/-\d+$/, ''), enabled: true };
    return [name, { gesture, ...POSSIBLE, device: null, enabled: gesture.enabled !== false }];
  }));
}

function newDevice(info) {
  return { info, contacts: new Map(), fingers: 0 };
}

// MARK: The session

export function sessionLoaded(state, session) {
  // inUse: false when no file is there (a recording is then shown with every kind, as `replay --detect` does).
  const c = session.config;
  const config = c ? { path: c.path, savedText: c.text || '', inUse: c.in_use !== false, exists: c.exists !== false, defaultText: c.default || '' } : null;
  return {
    ...state,
    mode: session.mode,
    noDevice: session.no_device || null,
    session: { ...state.session, text: modeName(session.mode) },
    config,
    editor: { ...state.editor, text: config ? config.savedText : state.editor.text },
  };
}

export function sessionFailed(state, message) {
  return { ...state, session: { ...state.session, text: `Could not reach gestured ui: ${message}` } };
}

export function connectionChanged(state, connected) {
  return state.connected === connected ? state : { ...state, connected };
}

// MARK: The live stream

/// A line of the event stream, which came at `when` (hh:mm:ss). While a recording is
/// shown, only the hello (what each kind reports) and Try's lines count.
export function lineArrived(state, line, clock) {
  if (line.type === 'hello' && line.source !== 'try') return helloArrived(state, line);
  const when = liveWhen(state, line, clock);
  if (line.source === 'try') return tryLineArrived(state, line, when);
  if (state.recording) return state;
  switch (line.type) {
    case 'device': return deviceChanged(state, line);
    case 'frame': return frameArrived(state, line);
    case 'state': return stateChanged(state, line);
    case 'gesture': return gestureArrived(state, line, when);
    case 'action': return actionArrived(state, line);
    case 'reload': return withTimelineEntry(state, { type: 'reload', line, when });
    case 'focus': return { ...state, session: { ...state.session, focus: line.app || '' } };
    case 'lost': return withTimelineEntry(state, { type: 'lost', line });
    case 'progress': return followProgressed(state, line);
    // Other `progress` lines: a card's progress comes with its gesture lines.
    default: return state;
  }
}

/// What each kind reports, the header's line and, unless a recording is shown (its own
/// gestures and device stay; the hello's come back with the live view), the gestures
/// and devices, each card starting over.
function helloArrived(state, line) {
  const started = typeof line.started === 'number' ? line.started : null;
  const next = { ...state, started, kinds: line.kinds || {}, session: { ...state.session, text: sessionText(state.mode, line) } };
  if (state.recording) return next;
  const gestures = line.gestures || [];
  return {
    ...next,
    gestures,
    devices: new Map((line.devices || []).map((d) => [d.path, newDevice(d)])),
    cards: newCards(gestures, gestures.map((g) => g.name)),
  };
}

/// When a live line happened, as the page shows it: seconds from the daemon's start (its
/// hello's `started`, on the lines' clock), or, from a daemon that does not say when it
/// started, `clock`, the time of day the line came.
function liveWhen(state, line, clock) {
  return typeof line.t === 'number' && state.started !== null ? `${num(line.t - state.started, 3)} s` : clock;
}

function deviceChanged(state, line) {
  if (line.event === 'removed') {
    const devices = new Map(state.devices);
    devices.delete(line.path);
    return { ...state, devices };
  }
  return { ...state, devices: withEntry(state.devices, line.path, { ...(state.devices.get(line.path) || newDevice(line)), info: line }) };
}

function frameArrived(state, line) {
  const device = state.devices.get(line.device);
  if (!device) return state;
  const fingers = line.fingers || 0;
  // Fingers land on a device that had none: its recognizers start over, as the
  // engine's do (the stream sends no line for that reset), so the cards the last touch
  // sequence left there go back to possible. Until then they keep how it ended.
  const cards = device.fingers === 0 && fingers > 0
    ? withCards(state.cards, (card) => (card.device === line.device ? { ...card, ...POSSIBLE, device: null } : card))
    : state.cards;
  return {
    ...state,
    cards,
    devices: withEntry(state.devices, line.device, { ...device, contacts: withTrails(device.contacts, line.contacts || []), fingers }),
    fingers: { count: fingers, device: device.info.name || '' },
  };
}

/// The contacts after a live frame: each touching one gains its position (keeping the
/// last TRAIL_FRAMES), a lifted one keeps a trail that loses a point a frame, and all
/// fingers up ends the touch sequence, and so its trails.
function withTrails(contacts, touching) {
  const now = new Map(touching.map((c) => [c.id, c]));
  const next = new Map();
  for (const [id, points] of contacts) {
    const c = now.get(id);
    if (c) {
      next.set(id, [...points, { x: c.x, y: c.y, down: true }].slice(-TRAIL_FRAMES));
    } else if (now.size > 0 && points.length > 1) {
      const fading = points.slice(1);
      fading[fading.length - 1] = { ...fading[fading.length - 1], down: false };
      next.set(id, fading);
    }
  }
  for (const c of touching) if (!next.has(c.id)) next.set(c.id, [{ x: c.x, y: c.y, down: true }]);
  return next;
}

function stateChanged(state, line) {
  const card = state.cards.get(line.gesture);
  if (!card) return state;
  const to = knownState(line.to);
  const changed = { ...card, device: line.device, state: to, reason: line.reason || null };
  return { ...state, cards: withEntry(state.cards, line.gesture, to === 'possible' ? { ...changed, values: null, progress: null, follow: null } : changed) };
}

function gestureArrived(state, line, when) {
  let next = state;
  const card = state.cards.get(line.gesture);
  if (card) {
    const phase = knownState(line.phase);
    // A follow's bar is the desktop's transition (its own progress lines), not the 1 of a pan that began.
    const progress = card.follow && line.phase !== 'began' ? card.progress : line.progress;
    const moved = { ...card, device: line.device, values: line, progress, follow: line.phase === 'began' ? null : card.follow };
    next = { ...state, cards: withEntry(state.cards, line.gesture, card.state === phase ? moved : { ...moved, state: phase, reason: null }) };
  }
  return line.phase === 'changed' ? next : withTimelineEntry(next, { type: 'gesture', line, when, actions: [] });
}

/// A follow's progress line: where the desktop's transition is, as it was given it; the
/// card's bar shows how far of one whole transition (either way).
function followProgressed(state, line) {
  if (!line.follow) return state;
  const card = state.cards.get(line.gesture);
  if (!card || typeof line.progress !== 'number') return state;
  return { ...state, cards: withEntry(state.cards, line.gesture, { ...card, progress: Math.abs(line.progress), follow: line.follow }) };
}

function withTimelineEntry(state, entry) {
  return {
    ...state,
    nextId: state.nextId + 1,
    timeline: [{ id: state.nextId, ...entry }, ...state.timeline].slice(0, TIMELINE_LENGTH),
  };
}

/// An action goes under the newest timeline entry of its gesture (a process's later
/// line, with the same pid, in place of its earlier one), or on its own. One that no
/// gesture ran (`by`: `manual`, the Run button or `gestured trigger`; `shortcut`) is
/// an entry of its own, its process's later line in its place: under the gesture's last
/// entry it would read as that gesture's.
function actionArrived(state, line) {
  if (line.by && line.by !== 'gesture') {
    const j = line.pid ? state.timeline.findIndex((e) => e.type === 'action' && e.line.pid === line.pid && e.line.by === line.by) : -1;
    if (j < 0) return withTimelineEntry(state, { type: 'action', line });
    return { ...state, timeline: state.timeline.map((e, k) => (k === j ? { ...e, line } : e)) };
  }
  const i = state.timeline.findIndex((e) => e.type === 'gesture' && e.line.gesture === line.gesture);
  if (i < 0) return withTimelineEntry(state, { type: 'action', line });
  const entry = state.timeline[i];
  const k = line.pid ? entry.actions.findIndex((a) => a.pid === line.pid) : -1;
  const actions = k < 0 ? [...entry.actions, line] : entry.actions.map((a, j) => (j === k ? line : a));
  return { ...state, timeline: state.timeline.map((e, j) => (j === i ? { ...entry, actions } : e)) };
}

// MARK: Recordings

/// A recording's timeline (POST or GET /api/recording, with the saved config) shown
/// from its first frame, named `name` (its file's), with its gestures' cards and its
/// device. Try, Save and the view ask for it again by its `id`.
export function recordingOpened(state, timeline, name = timeline.name) {
  const gestures = timeline.gestures || state.gestures;
  const saved = { ...indexed(timeline), gestures };
  const d = timeline.device || {};
  const note = timeline.decimated ? ' (decimated to 20 000 frames)' : '';
  const status = `${name || 'recording'}: ${plural(saved.frames.length, 'frame')}, ${num(timeline.duration, 2)} s, ${d.name || 'device'}${note}`;
  const { frames, events, entries, frame, playing } = saved;
  const recording = { frames, events, entries, frame, playing, id: timeline.id, status, saved, tried: false };
  const names = gestures.map((g) => g.name);
  for (const f of recording.frames.slice(0, 1)) {
    for (const n of Object.keys(f.states || {})) if (!names.includes(n)) names.push(n);
  }
  return frameShown({
    ...state,
    recording,
    gestures,
    devices: new Map([['recording', newDevice({ ...d, path: 'recording' })]]),
    cards: newCards(gestures, names),
    timeline: [],
    recordingStatus: status,
  }, 0);
}

/// A timeline indexed once, so each frame shown costs a binary search, not a scan, and
/// its gestures' timeline entries are made once (so the view keeps what it has drawn).
function indexed(timeline) {
  const frames = timeline.frames || [];
  const events = (timeline.events || []).filter((e) => typeof e.t === 'number');
  const entries = [];
  events.forEach((e, index) => {
    if (e.type !== 'gesture' || e.phase === 'changed') return;
    const actions = (e.commands || []).map((command) => ({ gesture: e.gesture, command, outcome: 'dry-run' }));
    entries.push({ id: `recorded-${index}`, type: 'gesture', index, line: e, when: `${num(e.t, 3)} s`, actions });
  });
  return { frames, events, entries, frame: 0, playing: false };
}

/// The recording on screen, computed again: with the saved config (`tried` false: after
/// a Save, or when Try stops) or with the editor's (Try's answer). The frame, the
/// cards' names and the device stay; the cards, the scrubber and the Timeline are redrawn.
export function recordingRecomputed(state, timeline, tried) {
  const recording = state.recording;
  if (!recording || timeline.id !== recording.id) return state;
  const next = { ...indexed(timeline), gestures: timeline.gestures || state.gestures };
  return recomputedShown(state, next, tried ? recording.saved : next, tried);
}

/// Try stopped: the recording as the saved config makes it.
function savedRecordingShown(state) {
  const recording = state.recording;
  if (!recording || !recording.tried) return state;
  return recomputedShown(state, recording.saved, recording.saved, false);
}

/// The recording on screen shown as `shown` makes it (indexed, with its gestures), at
/// the same frame; the cards made anew only if the gestures' names changed.
function recomputedShown(state, shown, saved, tried) {
  const recording = state.recording;
  const { frames, events, entries, gestures } = shown;
  const names = gestures.map((g) => g.name);
  const sameNames = names.length === state.cards.size && names.every((n) => state.cards.has(n));
  return frameShown({
    ...state,
    gestures,
    cards: sameNames ? state.cards : newCards(gestures, names),
    recording: { ...recording, frames, events, entries, saved, tried },
    recordingStatus: recording.status + (tried ? TRIED_NOTE : ''),
  }, recording.frame);
}

/// The number of events at or before time t (the frame's).
function eventsUpTo(events, t) {
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (events[mid].t <= t + EVENT_SLACK_S) lo = mid + 1; else hi = mid;
  }
  return lo;
}

/// The recording at frame `index`: its contacts with their trails, every card in the
/// state the timeline recorded for it there, the timeline's gestures up to it.
export function frameShown(state, index) {
  const recording = state.recording;
  if (!recording || recording.frames.length === 0) return state;
  const i = Math.max(0, Math.min(recording.frames.length - 1, index));
  const frame = recording.frames[i];
  // The last frame shows the recording's end: what the engine's timers decided after
  // the fingers lifted (a tap waits to be sure it is not a double tap) happened by then.
  const done = i === recording.frames.length - 1 ? recording.events.length : eventsUpTo(recording.events, frame.t);
  const device = state.devices.get('recording');
  const fingers = frame.fingers || 0;
  return {
    ...state,
    recording: { ...recording, frame: i },
    devices: device ? withEntry(state.devices, 'recording', { ...device, contacts: trailsAt(recording.frames, i), fingers }) : state.devices,
    fingers: device ? { count: fingers, device: device.info.name || '' } : state.fingers,
    cards: cardsAt(state.cards, frame, recording.events, done),
    timeline: recording.entries.filter((e) => e.index < done).slice(-TIMELINE_LENGTH).reverse(),
  };
}

/// The contacts down at frame i, each with its positions of the frames before it.
function trailsAt(frames, i) {
  const contacts = new Map();
  const down = new Set((frames[i].contacts || []).map((c) => c.id));
  for (let k = Math.max(0, i - TRAIL_FRAMES + 1); k <= i; k++) {
    for (const c of frames[k].contacts || []) {
      if (!down.has(c.id)) continue;
      contacts.set(c.id, [...(contacts.get(c.id) || []), { x: c.x, y: c.y, down: k === i }]);
    }
  }
  return contacts;
}

/// Each card at a frame: the state and reason the timeline recorded for it, and the
/// values of its newest gesture event since it last went back to possible.
function cardsAt(cards, frame, events, done) {
  const latest = new Map();
  for (let k = 0; k < done; k++) {
    const e = events[k];
    if (e.type === 'gesture') latest.set(e.gesture, e);
    if (e.type === 'state' && e.to === 'possible') latest.delete(e.gesture);
  }
  return withCards(cards, (card, name) => {
    const s = (frame.states || {})[name] || POSSIBLE;
    const shown = knownState(s.state);
    const values = shown === 'possible' ? null : latest.get(name) || null;
    const progress = typeof s.progress === 'number' ? s.progress : values ? values.progress : null;
    const reason = s.reason || null;
    if (card.state === shown && card.reason === reason && card.values === values && card.progress === progress) return card;
    return { ...card, state: shown, reason, values, progress };
  });
}

export function playingChanged(state, playing) {
  const recording = state.recording;
  return !recording || recording.playing === playing ? state : { ...state, recording: { ...recording, playing } };
}

export function recordingStatusSaid(state, text) {
  return { ...state, recordingStatus: text };
}

/// Back from a recording: its device and timeline go; a fresh hello brings the
/// devices and the gestures back.
export function backToLive(state) {
  return { ...state, recording: null, recordingStatus: '', timeline: [], devices: new Map() };
}

// MARK: Cards

export function onlyActiveChanged(state, onlyActive) {
  return { ...state, onlyActive };
}

export function gestureEnabled(state, name, enabled) {
  const card = state.cards.get(name);
  return card ? { ...state, cards: withEntry(state.cards, name, { ...card, enabled }) } : state;
}

/// The daemon's answer to a card's Run ({ ok, message }: what ran, or would in a dry
/// run, or why not), shown on the card until the gestures are read again.
export function triggerAnswered(state, name, answer) {
  const card = state.cards.get(name);
  return card ? { ...state, cards: withEntry(state.cards, name, { ...card, ran: answer }) } : state;
}

// MARK: The config editor

export function edited(state, text) {
  return state.editor.text === text ? state : { ...state, editor: { ...state.editor, text } };
}

/// A check's answer (or Try's or Save's, which check too): its diagnostics, marked in the editor.
export function checked(state, diagnostics, ok) {
  return { ...state, editor: { ...state.editor, diagnostics, check: { ok } } };
}

export function checkFailed(state, message) {
  return { ...state, editor: { ...state.editor, check: { error: message } } };
}

export function tryStarted(state) {
  return { ...state, trying: true };
}

export function tryStopped(state) {
  return savedRecordingShown({ ...state, trying: false, tried: null });
}

/// Try's answer: on a recording, the whole list of what the config would fire there;
/// live, an empty list that Try's stream lines fill.
export function tryAnswered(state, answer) {
  if (!answer.ok) {
    return { ...checked(state, answer.diagnostics || [], false), tried: { error: 'Try needs a config without errors: see the diagnostics.' } };
  }
  const listed = Array.isArray(answer.fired);
  let nextId = state.nextId + 1;
  const fired = (listed ? answer.fired : []).map((line) => ({ id: nextId++, line, when: `${num(line.t, 3)} s`, actions: line.commands || [] }));
  const onRecording = state.recording !== null || state.mode === 'replay';
  const shown = answer.timeline ? recordingRecomputed(state, answer.timeline, true) : state;
  const effects = answer.timeline && state.recording ? changesSaid(state.recording.saved.events, indexed(answer.timeline).events) : [];
  return { ...shown, nextId, tried: { id: state.nextId, onRecording, listed, fired, effects } };
}

/// When each gesture fired (was recognized or began) in a timeline's events: name → [t].
function firings(events) {
  const times = new Map();
  for (const e of events) {
    if (e.type !== 'gesture' || (e.phase !== 'recognized' && e.phase !== 'began')) continue;
    times.set(e.gesture, [...(times.get(e.gesture) || []), e.t]);
  }
  return times;
}

/// What the edited config changes on the recording, against the saved one, a sentence
/// a gesture: "swipe-down-4 now fires at 0.264 s, was 0.181 s", "… no longer fires (it
/// did at 0.181 s)", "… now fires at 0.264 s (it did not)".
export function changesSaid(savedEvents, triedEvents) {
  const was = firings(savedEvents);
  const now = firings(triedEvents);
  const at = (times) => times.map((t) => `${num(t, 3)} s`).join(', ');
  const said = [];
  for (const [name, times] of now) {
    const before = was.get(name);
    if (!before) said.push(`${name} now fires at ${at(times)} (it did not)`);
    else if (at(before) !== at(times)) said.push(`${name} now fires at ${at(times)}, was ${at(before)}`);
  }
  for (const [name, times] of was) if (!now.has(name)) said.push(`${name} no longer fires (it did at ${at(times)})`);
  return said;
}

export function tryFailed(state, message) {
  return { ...state, tried: { error: message } };
}

/// A `source:"try"` line from the live stream: what the edited config would do now.
function tryLineArrived(state, line, when) {
  const tried = state.tried;
  if (!state.trying || !tried || !tried.fired) return state;
  if (line.type === 'gesture' && line.phase !== 'changed') {
    const entry = { id: state.nextId, line, when, actions: line.commands || [] };
    return { ...state, nextId: state.nextId + 1, tried: { ...tried, fired: [entry, ...tried.fired].slice(0, TIMELINE_LENGTH) } };
  }
  if (line.type !== 'action') return state;
  const i = tried.fired.findIndex((e) => e.line.gesture === line.gesture);
  if (i < 0) return state;
  const fired = tried.fired.map((e, j) => (j === i ? { ...e, actions: [...e.actions, actionText(line)] } : e));
  return { ...state, tried: { ...tried, fired } };
}

export function saveStarted(state) {
  return { ...state, saveResult: { text: 'Saving…' } };
}

/// Save found errors and wrote nothing: they are marked, and the user is asked.
export function saveNeedsConfirm(state, answer) {
  return { ...checked(state, answer.diagnostics || [], false), saveResult: { text: '' } };
}

/// Save's answer for `text`, the editor's text it was asked to write.
export function saveAnswered(state, answer, text) {
  if (!answer.saved) return notSaved(state);
  const parts = ['Saved.'];
  if (answer.backup) parts.push(`Backup: ${answer.backup}.`);
  const kept = Boolean(answer.reload && answer.reload.startsWith('error'));
  if (answer.reload) parts.push(kept ? `The daemon kept its config: ${answer.reload}` : `Daemon: ${answer.reload}`);
  return { ...state, config: state.config && { ...state.config, savedText: text, exists: true }, saveResult: { text: parts.join(' '), ok: !kept } };
}

export function notSaved(state) {
  return { ...state, saveResult: { text: 'Not saved.' } };
}

export function saveFailed(state, message) {
  return { ...state, saveResult: { text: `Could not save: ${message}`, ok: false } };
}

// MARK: Recording a gesture

export function recordStarted(state) {
  return { ...state, record: { on: true, result: { now: true } } };
}

/// Stop was pressed: the button says so before the answer comes.
export function recordStopped(state) {
  return { ...state, record: { ...state.record, on: false } };
}

export function gestureDetected(state, answer) {
  return { ...state, record: { on: false, result: { detected: answer.detected || [], yaml: answer.yaml || '' } } };
}

export function recordFailed(state, message) {
  return { ...state, record: { on: false, result: { error: message } } };
}
