// gestured's live view: what the daemon (or the ui's own engine, or a recording)
// sees, drawn from the event stream of docs/CONTROL.md. Plain JavaScript, no build
// step, no network beyond this page's own server. Every string from the stream is
// hostile (device names, gesture names, commands): it reaches the page through
// textContent or an attribute, never through innerHTML.
'use strict';

const SVG_NS = 'http://www.w3.org/2000/svg';

/// The recognizer states, each with a word and an icon, so colour is never the only cue.
const STATES = {
  possible: { icon: '○', label: 'possible' },
  waiting: { icon: '⏸', label: 'waiting' },
  began: { icon: '▶', label: 'began' },
  changed: { icon: '↻', label: 'changed' },
  ended: { icon: '■', label: 'ended' },
  recognized: { icon: '✓', label: 'recognized' },
  failed: { icon: '✗', label: 'failed' },
  cancelled: { icon: '⊘', label: 'cancelled' },
};

/// Positions kept per contact for its trail, in frames (a quarter second at 60 Hz).
const TRAIL_FRAMES = 15;
/// Radius of a drawn contact, mm: about a fingertip.
const CONTACT_RADIUS_MM = 4.5;
/// Default width of a touchscreen's edge zone, mm (the engine's defaultEdgeZoneMM).
const DEFAULT_EDGE_ZONE_MM = 6;
/// How long the editor waits after the last keystroke before checking, ms.
const CHECK_DELAY_MS = 300;
/// Gestures the timeline keeps.
const TIMELINE_LENGTH = 40;

const view = {
  mode: null,          // 'daemon' | 'local' | 'replay', from /api/session
  viewing: 'live',     // 'live' | 'recording'
  gestures: [],        // the config's gestures (hello, or the recording's timeline)
  kinds: {},           // kind → { discrete, values: the gesture line's keys it reports } (hello)
  devices: new Map(),  // path → { info, figure, svg, contacts: Map id → [{x, y}], fingers }
  cards: new Map(),    // gesture name → card (see makeCard)
  recording: null,     // the timeline of §2, while one is open
  frame: 0,
  trying: false,
  recordingGesture: false,
  proposedYAML: '',
  savedText: null,
};

const $ = (id) => document.getElementById(id);

// MARK: Small helpers

function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

function svg(tag, attributes) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attributes || {})) e.setAttribute(k, String(v));
  return e;
}

/// A number with `digits` decimals, never "-0.0".
function num(value, digits) {
  if (typeof value !== 'number' || !isFinite(value)) return '–';
  const s = value.toFixed(digits);
  return /^-0(\.0*)?$/.test(s) ? s.slice(1) : s.replace('-', '−');
}

/// A message as a sentence: with a full stop unless it already ends in one.
function sentence(text) {
  return /[.?!]$/.test(text) ? text : `${text}.`;
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

let announceQueue = [];
let announceTimer = null;

/// Says `text` to screen readers, a few at a time: a replay can fail forty
/// recognizers in one frame, and one sentence per batch is what a listener can follow.
function announce(text) {
  announceQueue.push(text);
  if (announceTimer) return;
  announceTimer = setTimeout(() => {
    const items = announceQueue;
    announceQueue = [];
    announceTimer = null;
    const shown = items.slice(0, 3).join('; ');
    $('announcer').textContent = items.length > 3 ? `${shown}; and ${items.length - 3} more` : shown;
  }, 250);
}

async function api(method, path, body, contentType) {
  const options = { method, credentials: 'same-origin', headers: {} };
  if (body !== undefined) {
    options.body = body;
    options.headers['Content-Type'] = contentType || 'text/plain; charset=utf-8';
  }
  const response = await fetch(path, options);
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.trim()}`);
  return text ? JSON.parse(text) : null;
}

// MARK: Devices

/// Whether a gesture listens to a device of this kind (a `device-name` glob is the
/// server's to match: such a gesture is shown on every device).
function listensTo(gesture, kind) {
  const wanted = gesture.device || 'any';
  if (wanted === 'touchpad' || wanted === 'touchscreen') return wanted === kind;
  return true;
}

function deviceEntry(path, info) {
  let entry = view.devices.get(path);
  if (!entry) {
    entry = { info, contacts: new Map(), fingers: 0, figure: null, svg: null };
    view.devices.set(path, entry);
  }
  entry.info = info;
  drawDevice(path, entry);
  return entry;
}

function removeDevice(path) {
  const entry = view.devices.get(path);
  if (entry && entry.figure) entry.figure.remove();
  view.devices.delete(path);
  showDevicesPlaceholder();
  scaleDevices();
}

function showDevicesPlaceholder() {
  const container = $('devices');
  const empty = container.querySelector('.empty');
  if (view.devices.size === 0 && !empty) container.append(el('p', 'empty', 'No touch device yet.'));
  if (view.devices.size > 0 && empty) empty.remove();
}

let hatchCount = 0;

/// The device to scale: its surface in mm with its real aspect, the zones where
/// configured gestures must begin, a 10 mm scale bar, and layers for trails and contacts.
function drawDevice(path, entry) {
  const { info } = entry;
  const w = Math.max(1, Number(info.width_mm) || 100);
  const h = Math.max(1, Number(info.height_mm) || 60);
  const margin = 2 + CONTACT_RADIUS_MM;
  const figure = entry.figure || el('figure', 'device-figure');
  figure.replaceChildren();
  const image = svg('svg', {
    class: 'device', viewBox: `${-margin} ${-margin} ${w + 2 * margin} ${h + 2 * margin + 8}`,
    role: 'img', 'data-path': path, 'data-kind': info.kind || '',
  });
  image.setAttribute('aria-label', `${info.name || path}, ${info.kind || 'device'}, ${num(w, 0)} × ${num(h, 0)} mm`);
  const hatch = `hatch-${hatchCount++}`;
  const defs = svg('defs');
  const pattern = svg('pattern', { id: hatch, width: 3, height: 3, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' });
  pattern.append(svg('line', { x1: 0, y1: 0, x2: 0, y2: 3, class: 'hatch-line' }));
  defs.append(pattern);
  image.append(defs, svg('rect', { class: 'surface', x: 0, y: 0, width: w, height: h, rx: 2 }));
  image.append(drawZones(info, w, h, hatch));
  image.append(drawScaleBar(h));
  entry.trailLayer = svg('g', { class: 'trails' });
  entry.contactLayer = svg('g', { class: 'contacts' });
  image.append(entry.trailLayer, entry.contactLayer);
  const caption = el('figcaption');
  caption.append(el('strong', 'device-name', info.name || path), ' ',
    el('span', 'device-facts', deviceFacts(info, w, h)));
  entry.countLabel = el('span', 'device-fingers');
  caption.append(' ', entry.countLabel);
  figure.append(image, caption);
  entry.figure = figure;
  entry.svg = image;
  if (!figure.isConnected) $('devices').append(figure);
  showDevicesPlaceholder();
  scaleDevices();
  drawContacts(entry);
}

/// Every device at the same mm per pixel: the widest fills its panel, a touchpad
/// beside a touchscreen is drawn as much smaller as it is.
function scaleDevices() {
  const widths = [...view.devices.values()].map((d) => Math.max(1, Number(d.info.width_mm) || 100));
  const widest = Math.max(...widths, 1);
  for (const entry of view.devices.values()) {
    if (!entry.svg) continue;
    const w = Math.max(1, Number(entry.info.width_mm) || 100);
    entry.svg.style.width = `${Math.max(15, (100 * w) / widest)}%`;
  }
}

function deviceFacts(info, w, h) {
  const facts = [info.kind || 'device', `${num(w, 1)} × ${num(h, 1)} mm${info.size_estimated ? ' (estimated)' : ''}`];
  if (info.slots) facts.push(plural(info.slots, 'slot'));
  if (info.grabbed) facts.push('grabbed');
  if (info.orientation) facts.push(`screen turned ${info.orientation}`);
  return `(${facts.join(', ')})`;
}

/// The edge bands and regions of the gestures that listen to this device. Only
/// touchscreens have them: on a touchpad the engine ignores `edge:` and `region:`.
function drawZones(info, w, h, hatch) {
  const layer = svg('g', { class: 'zones' });
  if (info.kind !== 'touchscreen') return layer;
  for (const g of view.gestures) {
    if (!listensTo(g, info.kind)) continue;
    const zone = Number(g.edge_zone_mm) || DEFAULT_EDGE_ZONE_MM;
    const rects = [];
    for (const edge of g.edges || []) {
      if (edge === 'left') rects.push([0, 0, zone, h]);
      if (edge === 'right') rects.push([w - zone, 0, zone, h]);
      if (edge === 'top') rects.push([0, 0, w, zone]);
      if (edge === 'bottom') rects.push([0, h - zone, w, zone]);
    }
    if (g.region) rects.push([g.region.x * w, g.region.y * h, g.region.w * w, g.region.h * h]);
    for (const [x, y, rw, rh] of rects) {
      const rect = svg('rect', { class: 'zone', x, y, width: Math.max(0, rw), height: Math.max(0, rh), fill: `url(#${hatch})` });
      rect.setAttribute('data-gesture', g.name);
      const title = svg('title');
      title.textContent = `${g.name}: ${g.region ? 'region' : 'edge zone'}`;
      rect.append(title);
      layer.append(rect);
      const label = svg('text', { class: 'zone-label', x: x + 1, y: y + Math.min(rh, 5) - 1 });
      label.textContent = g.name;
      layer.append(label);
    }
  }
  return layer;
}

function drawScaleBar(h) {
  const bar = svg('g', { class: 'scale-bar' });
  const y = h + 5;
  bar.append(svg('line', { x1: 0, y1: y, x2: 10, y2: y }));
  bar.append(svg('line', { x1: 0, y1: y - 1.5, x2: 0, y2: y + 1.5 }));
  bar.append(svg('line', { x1: 10, y1: y - 1.5, x2: 10, y2: y + 1.5 }));
  const label = svg('text', { x: 12, y: y + 1.5 });
  label.textContent = '10 mm';
  bar.append(label);
  return bar;
}

/// Draws the entry's contacts (each a circle with its id) and their trails.
function drawContacts(entry) {
  if (!entry.svg) return;
  const contacts = [];
  const trails = [];
  for (const [id, points] of entry.contacts) {
    const last = points[points.length - 1];
    if (points.length > 1) {
      trails.push(svg('polyline', { class: 'trail', points: points.map((p) => `${p.x},${p.y}`).join(' ') }));
    }
    if (!last.down) continue;
    const circle = svg('circle', { class: 'contact', cx: last.x, cy: last.y, r: CONTACT_RADIUS_MM, 'data-id': id });
    const label = svg('text', { class: 'contact-id', x: last.x, y: last.y + 1.6 });
    label.textContent = String(id);
    contacts.push(circle, label);
  }
  entry.trailLayer.replaceChildren(...trails);
  entry.contactLayer.replaceChildren(...contacts);
  entry.countLabel.textContent = `· ${plural(entry.fingers, 'finger')}`;
}

/// A live frame: contacts move, new ones appear, lifted ones keep a fading trail for
/// the rest of TRAIL_FRAMES.
function applyFrame(entry, frame) {
  const seen = new Set();
  for (const c of frame.contacts || []) {
    seen.add(c.id);
    const points = entry.contacts.get(c.id) || [];
    points.push({ x: c.x, y: c.y, down: true });
    if (points.length > TRAIL_FRAMES) points.shift();
    entry.contacts.set(c.id, points);
  }
  for (const [id, points] of entry.contacts) {
    if (seen.has(id)) continue;
    points[points.length - 1].down = false;
    points.shift();
    // All fingers up: the touch sequence is over, and so are its trails.
    if (points.length === 0 || seen.size === 0) entry.contacts.delete(id);
  }
  entry.fingers = frame.fingers || 0;
  setFingerCount(entry.fingers, entry.info.name);
}

function setFingerCount(n, deviceName) {
  $('finger-count').textContent = plural(n, 'finger');
  $('finger-count').title = deviceName ? `on ${deviceName}` : '';
}

let drawPending = new Set();

/// Frames arrive up to 60 a second per device: draw each device once per screen refresh.
function scheduleDraw(entry) {
  drawPending.add(entry);
  if (drawPending.size > 1) return;
  requestAnimationFrame(() => {
    const entries = drawPending;
    drawPending = new Set();
    for (const e of entries) drawContacts(e);
  });
}

// MARK: Cards

function gestureSummary(g) {
  const parts = [g.kind || 'gesture'];
  if (g.fingers && g.max_fingers && g.max_fingers !== g.fingers) parts.push(`${g.fingers}–${g.max_fingers} fingers`);
  else if (g.fingers) parts.push(plural(g.fingers, 'finger'));
  const directions = g.directions && g.directions.length ? g.directions : g.direction ? [g.direction] : [];
  if (directions.length) parts.push(directions.join(' or '));
  if (g.edges && g.edges.length) parts.push(`from the ${g.edges.join('/')} edge`);
  if (g.region) parts.push('in a region');
  if (g.device && g.device !== 'any') parts.push(`on ${g.device}`);
  return parts.join(' · ');
}

function makeCard(g) {
  const article = el('article', 'card');
  article.dataset.gesture = g.name;
  article.dataset.state = 'possible';
  article.dataset.kind = g.kind || '';
  const header = el('header', 'card-header');
  header.append(el('h3', 'card-name', g.name), el('p', 'card-kind', gestureSummary(g)));
  const state = el('p', 'state');
  const progress = el('progress', 'progress');
  progress.max = 1;
  progress.value = 0;
  progress.hidden = true;
  progress.setAttribute('aria-label', `${g.name} progress`);
  const values = el('dl', 'values');
  const reason = el('p', 'reason');
  const where = el('p', 'card-device');
  article.append(header, state, progress, values, reason, where);
  const card = { el: article, gesture: g, state: 'possible', stateEl: state, progress, values, reason, where, toggle: null };
  if (view.mode !== 'replay') card.toggle = makeToggle(card);
  setEnabled(card, g.enabled !== false);
  setCardState(card, 'possible', null);
  return card;
}

function makeToggle(card) {
  const button = el('button', 'toggle');
  button.type = 'button';
  button.addEventListener('click', () => toggleGesture(card));
  card.el.append(button);
  return button;
}

function setEnabled(card, enabled) {
  card.enabled = enabled;
  card.el.classList.toggle('disabled', !enabled);
  if (card.toggle) {
    card.toggle.textContent = enabled ? 'Disable' : 'Enable';
    card.toggle.setAttribute('aria-label', `${enabled ? 'Disable' : 'Enable'} ${card.gesture.name}`);
  }
}

async function toggleGesture(card) {
  const path = card.enabled ? '/api/disable' : '/api/enable';
  try {
    const answer = await api('POST', path, card.gesture.name);
    if (answer.ok) setEnabled(card, !card.enabled);
    announce(answer.message || `${card.gesture.name}: ${card.enabled ? 'enabled' : 'disabled'}`);
  } catch (error) {
    announce(error.message);
  }
}

function setCardState(card, state, reason) {
  const known = STATES[state] ? state : 'possible';
  card.state = known;
  card.el.dataset.state = known;
  const icon = el('span', 'state-icon', STATES[known].icon);
  icon.setAttribute('aria-hidden', 'true');
  card.stateEl.replaceChildren(icon, ' ', el('span', 'state-word', STATES[known].label));
  card.reason.textContent = reason || '';
  card.reason.hidden = !reason;
}

/// How the values a kind reports read on a card, in this order: each row is shown
/// when the kind's `values` (the hello's `kinds`, from the engine's table) has its
/// first key. Keys no row names (a velocity of a scale or rotation) are not shown.
const VALUE_ROWS = [
  ['x_mm', 'Location', (v) => `(${num(v.x_mm, 1)}, ${num(v.y_mm, 1)}) mm`],
  ['dx_mm', 'Translation', (v) => `(${num(v.dx_mm, 1)}, ${num(v.dy_mm, 1)}) mm`],
  ['vx_mm_s', 'Velocity', (v) => `(${num(v.vx_mm_s, 0)}, ${num(v.vy_mm_s, 0)}) mm/s`],
  ['scale', 'Scale', (v) => `×${num(v.scale, 2)}`],
  ['rotation_deg', 'Rotation', (v) => `${num(v.rotation_deg, 1)}°`],
  ['shape', 'Shape', (v) => `${v.shape} (${num(v.score, 3)})`],
  ['side', 'Side', (v) => v.side],
  ['duration_s', 'Duration', (v) => `${num(v.duration_s, 2)} s`],
];

/// A card's rows for a gesture line's (or a detected gesture's) values `v`: what its
/// kind reports (a duration only for a hold, the one kind that measures it: a pan's
/// or a circle's showed 0.00 s), the step when stepped, and the direction.
function valueRows(kind, v) {
  const traits = view.kinds[kind] || { discrete: true, values: [] };
  const reported = new Set(traits.values);
  const rows = [];
  for (const [key, name, text] of VALUE_ROWS) {
    if (reported.has(key) && v[key] !== null && v[key] !== undefined) rows.push([name, text(v)]);
  }
  if (v.step !== null && v.step !== undefined) rows.push(['Step', String(v.step)]);
  if (v.direction) rows.push(['Direction', v.direction]);
  return rows;
}

function setCardValues(card, values) {
  if (!values) {
    card.values.replaceChildren();
    return;
  }
  const items = [];
  for (const [name, text] of valueRows(card.gesture.kind, values)) {
    items.push(el('dt', null, name), el('dd', null, text));
  }
  card.values.replaceChildren(...items);
}

function setCardProgress(card, progress) {
  const known = typeof progress === 'number' && isFinite(progress);
  card.progress.hidden = !known;
  if (known) {
    card.progress.value = Math.min(1, Math.max(0, progress));
    card.progress.textContent = `${Math.round(card.progress.value * 100)} %`;
  }
}

/// One card per binding, in the config's order; names the config does not have
/// (a recording's `--detect` candidates) come after them.
function renderCards(names) {
  const cards = new Map();
  const byName = new Map(view.gestures.map((g) => [g.name, g]));
  for (const name of names) {
    const g = byName.get(name) || { name, kind: name.replace(/-\d+$/, ''), enabled: true };
    cards.set(name, makeCard(g));
  }
  view.cards = cards;
  $('cards').replaceChildren(...[...cards.values()].map((c) => c.el));
  markInapplicable();
  applyCardFilter();
}

/// Cards for gestures that listen to none of the devices shown are dimmed and say so.
function markInapplicable() {
  const kinds = new Set([...view.devices.values()].map((d) => d.info.kind));
  for (const card of view.cards.values()) {
    const applies = kinds.size === 0 || [...kinds].some((k) => listensTo(card.gesture, k));
    card.el.classList.toggle('inapplicable', !applies);
    if (!applies) card.where.textContent = `No ${card.gesture.device} here.`;
    else if (card.where.textContent.startsWith('No ')) card.where.textContent = '';
  }
}

function applyCardFilter() {
  const onlyActive = $('hide-idle').checked;
  for (const card of view.cards.values()) {
    card.el.hidden = onlyActive && (card.state === 'possible' || card.el.classList.contains('inapplicable'));
  }
}

// MARK: The live stream

function onHello(line) {
  view.kinds = line.kinds || {};
  // While a recording is shown, its own gestures and device stay; the hello's come
  // back with the live view.
  if (view.viewing === 'live') {
    view.gestures = line.gestures || [];
    view.devices.forEach((_, path) => removeDevice(path));
    for (const d of line.devices || []) deviceEntry(d.path, d);
    renderCards(view.gestures.map((g) => g.name));
  }
  const bits = [`${modeName(view.mode)}`, `gestured ${line.version || ''}`.trim()];
  if (line.pid) bits.push(`pid ${line.pid}`);
  if (line.dry_run) bits.push('dry run');
  if (line.focus && line.focus.app) bits.push(`focus: ${line.focus.app}`);
  $('session').textContent = bits.join(' · ');
}

function modeName(mode) {
  return { daemon: 'Live: the running daemon', local: 'Live: own engine (no daemon running)', replay: 'Replay' }[mode] || 'Live';
}

function onDevice(line) {
  if (line.event === 'removed') removeDevice(line.path);
  else deviceEntry(line.path, line);
  markInapplicable();
}

function onFrame(line) {
  const entry = view.devices.get(line.device);
  if (!entry) return;
  if (entry.fingers === 0 && (line.fingers || 0) > 0) newTouchSequence(line.device);
  applyFrame(entry, line);
  scheduleDraw(entry);
}

/// Fingers land on a device that had none: its recognizers start over, as the
/// engine's do (the stream sends no line for that reset), so the cards the last touch
/// sequence left there go back to possible. Until then they keep how it ended.
function newTouchSequence(path) {
  for (const card of view.cards.values()) {
    if (card.device !== path) continue;
    card.device = null;
    setCardState(card, 'possible', null);
    setCardValues(card, null);
    setCardProgress(card, null);
    card.where.textContent = '';
  }
  applyCardFilter();
}

function onState(line) {
  const card = view.cards.get(line.gesture);
  if (!card) return;
  card.device = line.device;
  setCardState(card, line.to, line.reason);
  if (line.to === 'possible') {
    setCardValues(card, null);
    setCardProgress(card, null);
  } else {
    announce(`${line.gesture} ${line.to}${line.reason ? `: ${line.reason}` : ''}`);
  }
  const device = view.devices.get(line.device);
  card.where.textContent = device && line.to !== 'possible' ? `on ${device.info.name}` : '';
  applyCardFilter();
}

function onGesture(line) {
  const card = view.cards.get(line.gesture);
  if (card) {
    card.device = line.device;
    if (card.state !== line.phase) setCardState(card, line.phase, null);
    setCardValues(card, line);
    setCardProgress(card, line.progress);
    applyCardFilter();
  }
  if (line.phase !== 'changed') addTimelineGesture(line, clockTime());
}

function clockTime() {
  const now = new Date();
  return [now.getHours(), now.getMinutes(), now.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

function onReload(line) {
  const item = el('li', `timeline-reload ${line.ok ? 'ok' : 'error'}`, `${clockTime()} ${line.message || (line.ok ? 'reloaded' : 'reload failed')}`);
  prependTimeline(item);
  // The gestures' cards change with the hello the server sends after a reload.
  announce(line.message || 'config reloaded');
}

function onLine(line) {
  if (line.source === 'try') return onTryLine(line);
  if (line.type === 'hello') return onHello(line);
  if (view.viewing !== 'live') return;
  switch (line.type) {
    case 'device': return onDevice(line);
    case 'frame': return onFrame(line);
    case 'state': return onState(line);
    case 'gesture': return onGesture(line);
    case 'action': return addTimelineAction(line);
    case 'reload': return onReload(line);
    case 'focus': $('session').dataset.focus = line.app || ''; return;
    case 'lost': prependTimeline(el('li', 'timeline-lost', `${line.lost} lines lost: the page read too slowly`)); return;
    default: return;
  }
}

function connect() {
  const source = new EventSource('/api/events');
  source.onopen = () => { $('connection').textContent = 'Connected'; $('connection').dataset.connected = 'true'; };
  source.onerror = () => { $('connection').textContent = 'Disconnected: retrying…'; $('connection').dataset.connected = 'false'; };
  source.onmessage = (message) => {
    let line;
    try { line = JSON.parse(message.data); } catch (_) { return; }
    if (line && typeof line.type === 'string') onLine(line);
  };
  return source;
}

// MARK: Timeline

function prependTimeline(item) {
  const list = $('timeline');
  list.prepend(item);
  while (list.children.length > TIMELINE_LENGTH) list.lastElementChild.remove();
}

function gestureText(line) {
  const parts = [line.gesture, line.phase];
  if (line.fingers) parts.push(plural(line.fingers, 'finger'));
  if (line.direction) parts.push(line.direction);
  if (typeof line.dx_mm === 'number') parts.push(`Δ(${num(line.dx_mm, 1)}, ${num(line.dy_mm, 1)}) mm`);
  if (line.step !== null && line.step !== undefined) parts.push(`step ${line.step}`);
  return parts.join(' · ');
}

function addTimelineGesture(line, when) {
  const item = el('li', `timeline-gesture phase-${line.phase}`);
  item.dataset.gesture = line.gesture;
  item.append(el('span', 'when', when), ' ', el('span', 'what', gestureText(line)));
  item.append(el('ul', 'actions'));
  prependTimeline(item);
}

function actionText(line) {
  const what = line.command || line.keys || line.desktop || 'action';
  let how = line.outcome;
  if (line.outcome === 'exited') how = `exited with status ${line.status}`;
  return `${what} → ${how}`;
}

/// An action goes under the newest timeline entry of its gesture (or on its own).
function addTimelineAction(line) {
  const text = actionText(line);
  for (const item of $('timeline').children) {
    if (item.dataset.gesture !== line.gesture) continue;
    const actions = item.querySelector('.actions');
    const outcome = `outcome-${line.outcome}`;
    const existing = [...actions.children].find((a) => a.dataset.pid && a.dataset.pid === String(line.pid));
    const action = existing || el('li', 'action');
    action.className = `action ${outcome}`;
    action.textContent = text;
    if (line.pid) action.dataset.pid = String(line.pid);
    if (!existing) actions.append(action);
    return;
  }
  prependTimeline(el('li', `action outcome-${line.outcome}`, `${line.gesture}: ${text}`));
}

// MARK: Recordings

function enterRecording(timeline) {
  view.recording = prepareTimeline(timeline);
  view.viewing = 'recording';
  view.gestures = timeline.gestures || view.gestures;
  view.devices.forEach((_, path) => removeDevice(path));
  const d = timeline.device || {};
  const entry = deviceEntry('recording', { ...d, path: 'recording' });
  entry.contacts = new Map();
  const names = [...view.gestures.map((g) => g.name)];
  for (const f of timeline.frames.slice(0, 1)) {
    for (const name of Object.keys(f.states || {})) if (!names.includes(name)) names.push(name);
  }
  renderCards(names);
  $('timeline').replaceChildren();
  const scrubber = $('scrubber');
  scrubber.max = String(Math.max(0, timeline.frames.length - 1));
  scrubber.value = '0';
  $('scrub').hidden = false;
  $('live-view').hidden = view.mode === 'replay';
  const note = timeline.decimated ? ' (decimated to 20 000 frames)' : '';
  $('recording-status').textContent =
    `${timeline.name || 'recording'}: ${plural(timeline.frames.length, 'frame')}, ${num(timeline.duration, 2)} s, ${d.name || 'device'}${note}`;
  $('record').disabled = true;
  showFrame(0);
}

/// Indexes a timeline once, so each frame shown costs a binary search, not a scan.
function prepareTimeline(timeline) {
  timeline.frames = timeline.frames || [];
  timeline.events = (timeline.events || []).filter((e) => typeof e.t === 'number');
  return timeline;
}

/// How much later than its frame an event may be stamped and still belong to it, s:
/// the timeline's times are rounded to the µs on their own (frames are ms apart).
const EVENT_SLACK_S = 5e-6;

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

function showFrame(index) {
  const timeline = view.recording;
  if (!timeline || timeline.frames.length === 0) return;
  const i = Math.max(0, Math.min(timeline.frames.length - 1, index));
  view.frame = i;
  $('scrubber').value = String(i);
  const frame = timeline.frames[i];
  showRecordingContacts(timeline, i);
  const done = eventsUpTo(timeline.events, frame.t);
  showRecordingStates(timeline, frame, done);
  showRecordingTimeline(timeline, done);
  $('frame-label').textContent =
    `Frame ${i + 1} of ${timeline.frames.length} · ${num(frame.t, 3)} s · ${plural(frame.fingers || 0, 'finger')}`;
}

function showRecordingContacts(timeline, i) {
  const entry = view.devices.get('recording');
  if (!entry) return;
  entry.contacts = new Map();
  const frame = timeline.frames[i];
  const down = new Set((frame.contacts || []).map((c) => c.id));
  for (let k = Math.max(0, i - TRAIL_FRAMES + 1); k <= i; k++) {
    for (const c of timeline.frames[k].contacts || []) {
      if (!down.has(c.id)) continue;
      const points = entry.contacts.get(c.id) || [];
      points.push({ x: c.x, y: c.y, down: k === i });
      entry.contacts.set(c.id, points);
    }
  }
  entry.fingers = frame.fingers || 0;
  setFingerCount(entry.fingers, entry.info.name);
  drawContacts(entry);
}

/// Each card at this frame: the state and reason the timeline recorded for it, and
/// the values of its newest gesture event since it last went back to possible.
function showRecordingStates(timeline, frame, done) {
  const latest = new Map();
  for (let k = 0; k < done; k++) {
    const e = timeline.events[k];
    if (e.type === 'gesture') latest.set(e.gesture, e);
    if (e.type === 'state' && e.to === 'possible') latest.delete(e.gesture);
  }
  for (const [name, card] of view.cards) {
    const s = (frame.states || {})[name] || { state: 'possible', reason: null, progress: null };
    const before = card.state;
    setCardState(card, s.state, s.reason);
    const values = s.state === 'possible' ? null : latest.get(name);
    setCardValues(card, values || null);
    setCardProgress(card, typeof s.progress === 'number' ? s.progress : values ? values.progress : null);
    if (before !== card.state && card.state !== 'possible') announce(`${name} ${card.state}`);
  }
  applyCardFilter();
}

function showRecordingTimeline(timeline, done) {
  const items = [];
  for (let k = 0; k < done; k++) {
    const e = timeline.events[k];
    if (e.type === 'gesture' && e.phase !== 'changed') items.push(e);
  }
  const list = $('timeline');
  list.replaceChildren();
  for (const e of items.slice(-TIMELINE_LENGTH)) {
    addTimelineGesture(e, `${num(e.t, 3)} s`);
    for (const command of e.commands || []) addTimelineAction({ gesture: e.gesture, command, outcome: 'dry-run' });
  }
}

async function openRecordingFile(file) {
  if (!file) return;
  $('recording-status').textContent = `Reading ${file.name}…`;
  try {
    const body = await file.arrayBuffer();
    const timeline = await api('POST', '/api/recording', body, 'application/octet-stream');
    timeline.name = file.name;
    enterRecording(timeline);
    announce(`Opened ${file.name}`);
  } catch (error) {
    $('recording-status').textContent = `Could not open ${file.name}: ${error.message}`;
  }
}

function backToLive() {
  stopPlaying();
  view.recording = null;
  view.viewing = 'live';
  $('scrub').hidden = true;
  $('live-view').hidden = true;
  $('record').disabled = false;
  $('recording-status').textContent = '';
  $('timeline').replaceChildren();
  view.devices.forEach((_, path) => removeDevice(path));
  // A fresh hello brings the devices and the gestures back.
  reconnect();
}

let playTimer = null;

/// Plays the recording from the shown frame on at its own speed.
function togglePlay() {
  if (playTimer !== null) return stopPlaying();
  const timeline = view.recording;
  if (!timeline) return;
  if (view.frame >= timeline.frames.length - 1) showFrame(0);
  const startT = timeline.frames[view.frame].t;
  const startWall = performance.now();
  $('play').setAttribute('aria-pressed', 'true');
  $('play').textContent = 'Pause';
  // Sixty frame labels a second are noise to a screen reader: it hears where play stopped.
  $('frame-label').setAttribute('aria-live', 'off');
  const step = () => {
    const t = startT + (performance.now() - startWall) / 1000;
    let i = view.frame;
    while (i + 1 < timeline.frames.length && timeline.frames[i + 1].t <= t) i++;
    if (i !== view.frame) showFrame(i);
    if (i >= timeline.frames.length - 1) return stopPlaying();
    playTimer = requestAnimationFrame(step);
  };
  playTimer = requestAnimationFrame(step);
}

function stopPlaying() {
  if (playTimer !== null) cancelAnimationFrame(playTimer);
  playTimer = null;
  $('play').setAttribute('aria-pressed', 'false');
  $('play').textContent = 'Play';
  $('frame-label').setAttribute('aria-live', 'polite');
}

function setUpRecordingControls() {
  $('recording-file').addEventListener('change', (e) => openRecordingFile(e.target.files[0]));
  const zone = $('drop-zone');
  zone.addEventListener('dragover', (e) => { e.preventDefault(); zone.classList.add('dragging'); });
  zone.addEventListener('dragleave', () => zone.classList.remove('dragging'));
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    zone.classList.remove('dragging');
    openRecordingFile(e.dataTransfer.files[0]);
  });
  $('scrubber').addEventListener('input', () => { stopPlaying(); showFrame(Number($('scrubber').value)); });
  $('frame-prev').addEventListener('click', () => { stopPlaying(); showFrame(view.frame - 1); });
  $('frame-next').addEventListener('click', () => { stopPlaying(); showFrame(view.frame + 1); });
  $('play').addEventListener('click', togglePlay);
  $('live-view').addEventListener('click', backToLive);
}

// MARK: The config editor

let checkTimer = null;
let checkSequence = 0;

function lineCount(text) {
  let n = 1;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

let editorRenderPending = false;

/// Typing re-draws the gutter and the backdrop once per screen refresh, with the last
/// diagnostics until the next check answers (so the text and its marks stay aligned).
function editorChanged() {
  if (!editorRenderPending) {
    editorRenderPending = true;
    requestAnimationFrame(() => { editorRenderPending = false; renderEditor(currentDiagnostics); });
  }
  markModified();
  clearTimeout(checkTimer);
  checkTimer = setTimeout(checkNow, CHECK_DELAY_MS);
}

function markModified() {
  const modified = view.savedText !== null && $('editor').value !== view.savedText;
  $('config-path').classList.toggle('modified', modified);
  $('config-path').dataset.modified = modified ? 'true' : 'false';
}

async function checkNow() {
  const sequence = ++checkSequence;
  const text = $('editor').value;
  try {
    const answer = await api('POST', '/api/check', text);
    if (sequence !== checkSequence) return; // an older check: a newer one is under way
    showDiagnostics(answer.diagnostics || [], answer.ok);
    if (view.trying) startTry(text);
  } catch (error) {
    if (sequence === checkSequence) $('check-status').textContent = `Could not check: ${error.message}`;
  }
}

let currentDiagnostics = [];

function showDiagnostics(diagnostics, ok) {
  currentDiagnostics = diagnostics;
  renderEditor(diagnostics);
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  const summary = ok && diagnostics.length === 0 ? 'Checked: no problems.'
    : `Checked: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}.`;
  $('check-status').textContent = summary;
  $('check-status').dataset.ok = ok ? 'true' : 'false';
  const items = diagnostics.map(diagnosticItem);
  $('diagnostics').replaceChildren(...items);
  announce(summary);
}

function diagnosticItem(d) {
  const item = el('li', `diagnostic ${d.severity === 'error' ? 'error' : 'warning'}`);
  item.dataset.line = String(d.line);
  item.dataset.column = String(d.column);
  const jump = el('button', 'jump', `Line ${d.line}, column ${d.column}`);
  jump.type = 'button';
  jump.addEventListener('click', () => moveCaret(d.line, d.column));
  const icon = el('span', 'severity-icon', d.severity === 'error' ? '✗' : '⚠');
  icon.setAttribute('aria-hidden', 'true');
  item.append(icon, ' ', jump, ': ', el('span', 'severity', d.severity), ': ', el('span', 'message', d.message));
  if (d.hint) item.append(el('span', 'hint', ` (${d.hint})`));
  return item;
}

/// Puts the caret at a 1-based line and column of the editor and scrolls it into view.
function moveCaret(line, column) {
  const editor = $('editor');
  const lines = editor.value.split('\n');
  let offset = 0;
  for (let i = 0; i < Math.min(line - 1, lines.length); i++) offset += lines[i].length + 1;
  const row = lines[Math.min(line - 1, lines.length - 1)] || '';
  offset += Math.min(Math.max(0, column - 1), row.length);
  editor.focus();
  editor.setSelectionRange(offset, offset);
  const lineHeight = parseFloat(getComputedStyle(editor).lineHeight) || 18;
  editor.scrollTop = Math.max(0, (line - 3) * lineHeight);
  syncScroll();
}

/// The gutter's line numbers, and the backdrop under the transparent textarea: each
/// diagnostic's line tinted, its column marked, and its message after the line's end.
function renderEditor(diagnostics) {
  const text = $('editor').value;
  const lines = text.split('\n');
  const byLine = new Map();
  for (const d of diagnostics) {
    if (!byLine.has(d.line)) byLine.set(d.line, []);
    byLine.get(d.line).push(d);
  }
  const numbers = [];
  const rows = [];
  for (let i = 0; i < lines.length; i++) {
    const here = byLine.get(i + 1);
    const severity = here ? (here.some((d) => d.severity === 'error') ? 'error' : 'warning') : null;
    const number = el('div', severity ? `gutter-line ${severity}` : 'gutter-line', `${severity ? (severity === 'error' ? '✗' : '⚠') : ''}${i + 1}`);
    numbers.push(number);
    rows.push(backdropLine(lines[i], here, severity));
  }
  // Diagnostics past the end (an unexpected end of file) go on the last line.
  $('gutter').replaceChildren(...numbers, el('div', 'scroll-pad', ' '));
  $('backdrop').replaceChildren(...rows, el('div', 'scroll-pad', ' '));
  syncScroll();
}

function backdropLine(text, diagnostics, severity) {
  const row = el('div', severity ? `backdrop-line ${severity}` : 'backdrop-line');
  if (!diagnostics) {
    row.textContent = text || ' ';
    return row;
  }
  const column = Math.max(1, Math.min(diagnostics[0].column, text.length + 1)) - 1;
  const mark = el('span', 'mark', text.slice(column, column + 1) || ' ');
  row.append(text.slice(0, column), mark, text.slice(column + 1));
  const message = el('span', 'inline-message', `   ${diagnostics.map((d) => d.message).join(' · ')}`);
  row.append(message);
  return row;
}

function syncScroll() {
  const editor = $('editor');
  $('backdrop').scrollTop = editor.scrollTop;
  $('backdrop').scrollLeft = editor.scrollLeft;
  $('gutter').scrollTop = editor.scrollTop;
}

function setEditorText(text) {
  $('editor').value = text;
  editorChanged();
}

// MARK: Try and Save

async function toggleTry() {
  if (view.trying) return stopTry();
  view.trying = true;
  $('try').setAttribute('aria-pressed', 'true');
  $('try').textContent = 'Stop trying';
  await startTry($('editor').value);
}

/// Counts the tries asked for: an answer that comes back after Try was stopped, or
/// after a newer try (each check of an edit tries again), is not what is shown.
let trySequence = 0;

async function startTry(text) {
  const sequence = ++trySequence;
  const result = $('try-result');
  try {
    const answer = await api('POST', '/api/try', text);
    if (sequence !== trySequence) return;
    if (!answer.ok) {
      showDiagnostics(answer.diagnostics || [], false);
      result.replaceChildren(el('p', 'error', 'Try needs a config without errors: see the diagnostics.'));
      return;
    }
    const heading = el('p', 'try-heading', view.viewing === 'recording' || view.mode === 'replay'
      ? 'What this config would fire on the recording (nothing runs):'
      : 'Trying this config beside the running one (dry run, nothing runs). What it would fire:');
    const list = el('ul', 'fired');
    list.id = 'fired';
    if (answer.fired) {
      for (const line of answer.fired) list.append(firedItem(line, `${num(line.t, 3)} s`));
      if (answer.fired.length === 0) list.append(el('li', 'none', 'Nothing would fire.'));
    }
    result.replaceChildren(heading, list);
    announce(answer.fired ? `${plural(answer.fired.length, 'gesture')} would fire` : 'Trying the edited config');
  } catch (error) {
    if (sequence === trySequence) result.replaceChildren(el('p', 'error', error.message));
  }
}

/// A gesture the tried config would fire: `when` is the recording's time, or the
/// clock's for a live one.
function firedItem(line, when) {
  const item = el('li', 'fired-gesture');
  item.dataset.gesture = line.gesture;
  item.append(el('span', 'when', when), ' ', el('span', 'what', gestureText(line)));
  const commands = line.commands || [];
  if (commands.length) {
    const list = el('ul', 'actions');
    for (const c of commands) list.append(el('li', 'action outcome-dry-run', `would run: ${c}`));
    item.append(list);
  }
  return item;
}

/// A `source:"try"` line from the live stream: what the edited config would do now.
function onTryLine(line) {
  const list = $('fired');
  if (!list || !view.trying) return;
  if (line.type === 'gesture' && line.phase !== 'changed') {
    list.prepend(firedItem(line, clockTime()));
    while (list.children.length > TIMELINE_LENGTH) list.lastElementChild.remove();
  } else if (line.type === 'action') {
    const item = [...list.children].find((i) => i.dataset.gesture === line.gesture);
    if (!item) return;
    let actions = item.querySelector('.actions');
    if (!actions) { actions = el('ul', 'actions'); item.append(actions); }
    actions.append(el('li', 'action outcome-dry-run', `would run: ${actionText(line)}`));
  }
}

async function stopTry() {
  view.trying = false;
  trySequence++;
  $('try').setAttribute('aria-pressed', 'false');
  $('try').textContent = 'Try';
  $('try-result').replaceChildren();
  try { await api('POST', '/api/try', ''); } catch (_) { /* the server may be gone */ }
}

async function save(force) {
  const text = $('editor').value;
  const result = $('save-result');
  result.textContent = 'Saving…';
  try {
    const answer = await api('POST', '/api/save', JSON.stringify({ text, force }), 'application/json');
    if (answer.needs_confirm && !force) {
      result.textContent = '';
      showDiagnostics(answer.diagnostics || [], false);
      return confirmSave(answer.diagnostics || []);
    }
    if (!answer.saved) {
      result.textContent = 'Not saved.';
      return;
    }
    view.savedText = text;
    markModified();
    const parts = ['Saved.'];
    if (answer.backup) parts.push(`Backup: ${answer.backup}.`);
    if (answer.reload) parts.push(answer.reload.startsWith('error') ? `The daemon kept its config: ${answer.reload}` : `Daemon: ${answer.reload}`);
    result.textContent = parts.join(' ');
    result.dataset.ok = answer.reload && answer.reload.startsWith('error') ? 'false' : 'true';
    announce(result.textContent);
  } catch (error) {
    result.textContent = `Could not save: ${error.message}`;
    result.dataset.ok = 'false';
  }
}

function confirmSave(diagnostics) {
  const errors = diagnostics.filter((d) => d.severity === 'error');
  const first = errors[0] || diagnostics[0];
  const detail = first ? ` The first: line ${first.line}, column ${first.column}: ${sentence(first.message)}` : '';
  $('confirm-text').textContent =
    `This config has ${plural(errors.length || diagnostics.length, 'error')}.${detail} The daemon will keep running its current config until the file is fixed. Save it anyway?`;
  const dialog = $('confirm-dialog');
  dialog.returnValue = '';
  dialog.showModal();
}

function setUpEditor() {
  const editor = $('editor');
  editor.addEventListener('input', editorChanged);
  editor.addEventListener('scroll', syncScroll);
  // Tab indents (YAML wants spaces); Escape then Tab leaves the editor, as in most code editors.
  let escaped = false;
  editor.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') { escaped = true; return; }
    if (e.key === 'Tab' && !e.shiftKey && !escaped && !e.ctrlKey && !e.altKey) {
      e.preventDefault();
      editor.setRangeText('  ', editor.selectionStart, editor.selectionEnd, 'end');
      editorChanged();
    }
    escaped = false;
  });
  $('try').addEventListener('click', toggleTry);
  $('save').addEventListener('click', () => save(false));
  $('confirm-dialog').addEventListener('close', () => {
    if ($('confirm-dialog').returnValue === 'save') save(true);
    else $('save-result').textContent = 'Not saved.';
  });
}

// MARK: Recording a gesture

async function toggleRecord() {
  const button = $('record');
  const result = $('record-result');
  try {
    if (!view.recordingGesture) {
      await api('POST', '/api/record/start');
      view.recordingGesture = true;
      button.setAttribute('aria-pressed', 'true');
      button.textContent = 'Stop recording';
      result.replaceChildren(el('p', 'recording-now', 'Recording: perform the gesture now.'));
      $('record-yaml').hidden = true;
      $('insert-yaml').hidden = true;
      announce('Recording');
      return;
    }
    view.recordingGesture = false;
    button.setAttribute('aria-pressed', 'false');
    button.textContent = 'Start recording';
    showDetected(await api('POST', '/api/record/stop'));
  } catch (error) {
    view.recordingGesture = false;
    button.setAttribute('aria-pressed', 'false');
    button.textContent = 'Start recording';
    result.replaceChildren(el('p', 'error', error.message));
  }
}

function showDetected(answer) {
  const result = $('record-result');
  const detected = answer.detected || [];
  if (detected.length === 0) {
    result.replaceChildren(el('p', null, 'Nothing was recognized. Try again, a little larger or slower.'));
    announce('Nothing recognized');
    return;
  }
  const list = el('ol', 'detected');
  for (const d of detected) {
    const parts = [d.kind, plural(d.fingers, 'finger')];
    if (d.direction) parts.push(d.direction);
    const item = el('li', null, parts.join(' · '));
    const values = d.values ? valueRows(d.kind, d.values).filter(([name]) => name !== 'Direction') : [];
    if (values.length) item.append(el('span', 'detected-values', ` (${values.map(([k, v]) => `${k.toLowerCase()} ${v}`).join(', ')})`));
    list.append(item);
  }
  result.replaceChildren(el('p', null, 'Recognized (best first):'), list);
  view.proposedYAML = answer.yaml || '';
  $('record-yaml').textContent = view.proposedYAML;
  $('record-yaml').hidden = !view.proposedYAML;
  $('insert-yaml').hidden = !view.proposedYAML;
  announce(`Recognized ${detected[0].kind}, ${plural(detected[0].fingers, 'finger')}`);
}

/// Inserts the proposed binding at the end of the config's `gestures:` list, indented
/// like the entries already there (or adds the list).
function insertYAML() {
  const editor = $('editor');
  const lines = editor.value.split('\n');
  const start = lines.findIndex((l) => /^gestures:\s*(#.*)?$/.test(l));
  const entry = view.proposedYAML.replace(/\n+$/, '');
  if (start < 0) {
    setEditorText(`${editor.value.replace(/\n*$/, '\n')}\ngestures:\n${indent(entry, '  ')}\n`);
    return;
  }
  let end = start + 1;
  let itemIndent = null;
  for (let i = start + 1; i < lines.length; i++) {
    if (/^\S/.test(lines[i]) && !lines[i].startsWith('#')) break;
    const m = /^(\s*)- /.exec(lines[i]);
    if (m && itemIndent === null) itemIndent = m[1];
    if (lines[i].trim() && !lines[i].trim().startsWith('#')) end = i + 1;
  }
  const block = indent(entry, itemIndent === null ? '  ' : itemIndent).split('\n');
  lines.splice(end, 0, '', ...block);
  setEditorText(lines.join('\n'));
  const offset = lines.slice(0, end + 1).join('\n').length + 1;
  editor.focus();
  editor.setSelectionRange(offset, offset);
  announce('Inserted into the config; Save to use it');
}

function indent(text, prefix) {
  return text.split('\n').map((l) => (l ? prefix + l : l)).join('\n');
}

// MARK: Start

let eventSource = null;

function reconnect() {
  if (eventSource) eventSource.close();
  eventSource = connect();
}

async function start() {
  setUpEditor();
  setUpRecordingControls();
  $('record').addEventListener('click', toggleRecord);
  $('insert-yaml').addEventListener('click', insertYAML);
  $('hide-idle').addEventListener('change', applyCardFilter);
  let session;
  try {
    session = await api('GET', '/api/session');
  } catch (error) {
    $('session').textContent = `Could not reach gestured ui: ${error.message}`;
    return;
  }
  view.mode = session.mode;
  document.body.dataset.mode = session.mode;
  $('session').textContent = modeName(session.mode);
  if (session.config) {
    $('config-path').textContent = session.config.path;
    view.savedText = session.config.text || '';
    setEditorText(view.savedText);
  } else {
    $('config-path').textContent = 'No config file: every gesture kind is shown, as replay --detect does. Save is off.';
    $('save').disabled = true;
    renderEditor([]);
  }
  if (session.mode === 'replay') {
    $('record').disabled = true;
    $('record-result').textContent = 'Recording a gesture needs a device: run gestured ui without --replay.';
    try {
      enterRecording(await api('GET', '/api/recording'));
    } catch (error) {
      $('recording-status').textContent = `Could not load the recording: ${error.message}`;
    }
  }
  reconnect();
}

document.addEventListener('DOMContentLoaded', start);
