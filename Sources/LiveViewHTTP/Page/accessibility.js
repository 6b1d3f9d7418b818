// The accessibility panel's arithmetic (docs/UI.md, "Accessibility"; docs/ACCESSIBILITY.md,
// "Choosing in the live view"): the user's own touches measured from frames (a
// recording's, or the live stream's), sorted into taps, holds and swipes, set beside
// the thresholds that apply, a timing scale and the tremor filter suggested from them,
// and the choice written into the config's text. Pure: no DOM, no clock, no network
// (the browser tests evaluate these functions in the page).

/// The timing scales offered, smallest first (`settings: accessibility: timing-scale:`).
export const SCALES = [1, 1.5, 2, 2.5, 3, 4];
/// How much room a suggestion leaves: an observed figure must pass its threshold by a
/// quarter (a tap of 0.24 s against 0.30 s, a swipe of 62.5 mm/s against 50 mm/s). A
/// person repeating a gesture does it a little slower or longer each time; at exactly
/// the threshold half the repeats would fail. A judgement, as the proposal's 80 % is.
export const MARGIN = 1.25;
/// Wobble above which the tremor filter is suggested, mm: a steady hand's swipes,
/// scrolls and presses in Tests/Recordings wobble 0.03–0.40 mm by this measure, the
/// same slowed 2.5× with a 5 Hz, 1 mm tremor 0.59–0.86 mm (docs/UI.md, "Accessibility").
export const TREMOR_WOBBLE_MM = 0.5;
/// The gestures of each kind the panel lists and judges: the newest.
export const KEPT = 5;

/// The recognizers' defaults (Sources/GestureEngine/Recognizers: TapRecognizer's
/// defaultTapMaxDuration, defaultTapMaxInterval, defaultTapMaxMovementMM;
/// HoldRecognizer's defaultHoldMinDuration and defaultHoldAllowableMovementMM, 3 mm on a
/// touchpad and 5 mm on a touchscreen (`thresholds` picks);
/// SwipeRecognizer's defaultSwipeMinVelocityMMPerS and defaultSwipeMinDistanceMM). The
/// form's /api/form says "recognizer's" for them; the browser test checks these against
/// the engine's own failure reasons (`replay --explain`).
export const DEFAULTS = {
  tap: { 'max-duration': 0.3, 'max-interval': 0.35, 'max-movement': 3 },
  hold: { 'min-duration': 0.5, 'max-movement': 3 },
  swipe: { 'min-velocity': 50, 'min-distance': 20 },
};
const HOLD_MAX_MOVEMENT_TOUCHSCREEN_MM = 5;
/// A touch whose fingers moved this far, net, is a swipe; one whose fingers' centroid
/// never went this far from where it started is still (a tap or a hold), mm. Half the
/// swipe's default 20 mm, so a swipe that stopped short is measured too, and twice the
/// most a hold may move on a touchscreen (5 mm), so a shaky press is a press: it is
/// listed, and its Moved column (the engine's max-movement) says whether it passed.
const STROKE_MM = 10;
/// A pause between two taps shorter than this is a double tap's, s: longer, they were
/// two single taps.
const DOUBLE_TAP_PAUSE_S = 1;
/// What a wobble is measured on: at least 10 positions over at least 0.15 s (most of a
/// 5 Hz tremor's cycle), smoothed with a Gaussian of 60 ms.
const WOBBLE_POSITIONS = 10;
const WOBBLE_MIN_S = 0.15;
const WOBBLE_SIGMA_S = 0.06;
/// The window a swipe's speed is measured over, s (VelocityHistory's velocityWindow).
const VELOCITY_WINDOW_S = 0.05;
/// Live frames kept of a touch under way (a minute at 60 frames a second), and
/// touches kept measured.
const OPEN_FRAMES = 3600;
const TOUCHES_KEPT = 60;

// MARK: Measuring touches

/// The touches in `frames` ([{ t, fingers, contacts: [{ id, x, y }] }], x and y in mm,
/// in time order, of one device), each from the frame its first finger landed to the
/// frame its last lifted: { start, end, duration, fingers, moved (the farthest a finger
/// went from where it landed, as the engine's max-movement counts), dx, dy and distance
/// (the fingers' net move), wander (the farthest their centroid went), speed, wobble }. A touch still down at the last frame is not one yet.
export function measureTouches(frames) {
  const touches = [];
  let open = null;
  for (const f of frames) {
    const down = (f.fingers || 0) > 0 || (f.contacts || []).length > 0;
    if (down) {
      if (!open) open = [];
      open.push(f);
    } else if (open) {
      touches.push(measured(open, f.t));
      open = null;
    }
  }
  return touches;
}

/// One touch: its frames while down, and when it lifted.
function measured(frames, end) {
  const firsts = new Map();
  let fingers = 0;
  let moved = 0;
  for (const f of frames) {
    fingers = Math.max(fingers, f.fingers || 0, (f.contacts || []).length);
    for (const c of f.contacts || []) {
      if (!firsts.has(c.id)) firsts.set(c.id, c);
      const first = firsts.get(c.id);
      moved = Math.max(moved, Math.hypot(c.x - first.x, c.y - first.y));
    }
  }
  const path = centroidPath(frames);
  const start = frames[0].t;
  const last = path[path.length - 1] || { x: 0, y: 0 };
  const duration = end - start;
  const distance = Math.hypot(last.x, last.y);
  return {
    start, end, duration, fingers, moved, dx: last.x, dy: last.y, distance,
    wander: Math.max(0, ...path.map((p) => Math.hypot(p.x, p.y))),
    speed: swipeSpeed(path, DEFAULTS.swipe['min-distance']),
    wobble: wobble(path, distance >= STROKE_MM ? { x: -last.y / distance, y: last.x / distance } : null),
  };
}

/// Where the fingers have gone since they landed, frame by frame: { t, x, y } in mm,
/// each frame adding the mean move of the contacts it shares with the frame before
/// (as the engine accumulates a translation), so a finger landing or lifting is no jump.
export function centroidPath(frames) {
  const path = [];
  let before = null;
  let x = 0;
  let y = 0;
  for (const f of frames) {
    const now = new Map((f.contacts || []).map((c) => [c.id, c]));
    if (!now.size) continue;
    if (before) {
      let n = 0;
      let mx = 0;
      let my = 0;
      for (const [id, c] of now) {
        const b = before.get(id);
        if (!b) continue;
        mx += c.x - b.x;
        my += c.y - b.y;
        n++;
      }
      if (n) { x += mx / n; y += my / n; }
    }
    path.push({ t: f.t, x, y });
    before = now;
  }
  return path;
}

/// The speed a swipe is judged at, mm/s, as SwipeRecognizer judges it: over the
/// VELOCITY_WINDOW_S before the fingers had travelled `distance` mm, or, if they never
/// did, the fastest such window of the touch. Null for a touch of one position.
export function swipeSpeed(path, distance) {
  let fastest = null;
  let from = 0;
  for (let i = 1; i < path.length; i++) {
    while (from < i - 1 && path[from + 1].t <= path[i].t - VELOCITY_WINDOW_S) from++;
    const dt = path[i].t - path[from].t;
    if (dt <= 0) continue;
    const v = Math.hypot(path[i].x - path[from].x, path[i].y - path[from].y) / dt;
    if (Math.hypot(path[i].x, path[i].y) >= distance) return v;
    fastest = Math.max(fastest ?? 0, v);
  }
  return fastest;
}

/// How much the fingers shake, mm: the root mean square of the path's distance from
/// itself smoothed (a local line fitted under a Gaussian of WOBBLE_SIGMA_S: what the
/// hand meant, which changes slowly), across the stroke (`across`, the unit vector at
/// right angles to a swipe's direction: along it, a swipe's own speeding up and slowing
/// down is no shake) or, for a still touch (`across` null), in both directions. A tremor
/// of 4–12 Hz is left almost whole (at 5 Hz the smoothing keeps under a tenth of it);
/// the slow drift of a resting or curving finger is taken out. Null for a touch of
/// fewer than WOBBLE_POSITIONS positions or shorter than WOBBLE_MIN_S.
export function wobble(path, across) {
  const n = path.length;
  if (n < WOBBLE_POSITIONS || path[n - 1].t - path[0].t < WOBBLE_MIN_S) return null;
  const parts = across ? [path.map((p) => p.x * across.x + p.y * across.y)] : [path.map((p) => p.x), path.map((p) => p.y)];
  let sum = 0;
  for (const values of parts) {
    for (let i = 0; i < n; i++) sum += (values[i] - smoothedAt(path, values, i)) ** 2;
  }
  return Math.sqrt(sum / n);
}

/// values[i] as a line fitted to its neighbours weighted by a Gaussian in time.
function smoothedAt(path, values, i) {
  const t = path[i].t;
  let sw = 0, st = 0, sv = 0, stt = 0, stv = 0;
  for (let j = 0; j < path.length; j++) {
    const d = path[j].t - t;
    if (Math.abs(d) > 3 * WOBBLE_SIGMA_S) continue;
    const w = Math.exp(-(d * d) / (2 * WOBBLE_SIGMA_S * WOBBLE_SIGMA_S));
    sw += w; st += w * d; sv += w * values[j]; stt += w * d * d; stv += w * d * values[j];
  }
  const det = sw * stt - st * st;
  return Math.abs(det) < 1e-18 ? sv / sw : (sv * stt - st * stv) / det;
}

// MARK: Live: the touches as the stream's frames come

/// The panel's live part of the page's state: each device's touch under way (its
/// frames) and the touches measured, newest last.
function liveTouches() {
  return { open: new Map(), touches: [] };
}

/// A live stream line (the store's state in, the next out): a frame adds to its
/// device's touch, and the lift ends it and measures it. Other lines, and every line
/// while a recording is shown (the panel then measures the recording), change nothing.
export function touchLineArrived(state, line) {
  if (line.type !== 'frame' || line.source === 'try' || state.recording || typeof line.t !== 'number') return state;
  const live = state.accessibility || liveTouches();
  const frames = live.open.get(line.device);
  const down = (line.fingers || 0) > 0;
  if (!down && !frames) return state;
  const open = new Map(live.open);
  const frame = { t: line.t, fingers: line.fingers || 0, contacts: (line.contacts || []).map((c) => ({ id: c.id, x: c.x, y: c.y })) };
  if (down) {
    open.set(line.device, frames ? (frames.length < OPEN_FRAMES ? [...frames, frame] : frames) : [frame]);
    return { ...state, accessibility: { ...live, open } };
  }
  open.delete(line.device);
  const touches = [...live.touches, ...measureTouches([...frames, frame])].slice(-TOUCHES_KEPT);
  return { ...state, accessibility: { open, touches } };
}

// MARK: Thresholds

/// A threshold as the config writes it (`300ms`, `0.5s`, `20mm`, `2cm`, `100mm/s`, or a
/// bare number in the base unit) in s, mm or mm/s; null for anything else.
export function parseQuantity(text) {
  const m = /^\s*([0-9]*\.?[0-9]+(?:e[+-]?\d+)?)\s*(ms|s|mm\/s|mm|cm)?\s*$/i.exec(String(text ?? ''));
  if (!m) return null;
  const v = Number(m[1]);
  const unit = (m[2] || '').toLowerCase();
  return unit === 'ms' ? v / 1000 : unit === 'cm' ? v * 10 : v;
}

/// The thresholds that apply to each kind the panel measures: the defaults (which the
/// timing scale multiplies), and each of the config's gestures of that kind that sets
/// its own (`entries`, the form's `/api/form` gestures): { tap: { defaults, own:
/// [{ gesture, key, value }] }, … }. A gesture's own value overrides the profile: it is
/// used as written, not scaled. `device`: the kind of device the touches are on.
export function thresholds(entries, device = 'touchpad') {
  const out = {};
  for (const kind of Object.keys(DEFAULTS)) out[kind] = { defaults: { ...DEFAULTS[kind] }, own: [] };
  if (device === 'touchscreen') out.hold.defaults['max-movement'] = HOLD_MAX_MOVEMENT_TOUCHSCREEN_MM;
  for (const e of entries || []) {
    const kind = out[e.kind];
    if (!kind) continue;
    for (const t of e.thresholds || []) {
      if (!(t.key in DEFAULTS[e.kind]) || t.value === null || t.value === undefined) continue;
      const value = parseQuantity(t.value);
      if (value !== null) kind.own.push({ gesture: e.name, key: t.key, value });
    }
  }
  return out;
}

/// A threshold at timing scale `s`: durations s times longer, the speed floor s times
/// lower (the same motion given s times the time); distances as they are.
export function scaled(key, value, s) {
  if (key === 'min-velocity') return value / s;
  if (key.endsWith('duration') || key.endsWith('interval')) return value * s;
  return value;
}

// MARK: Sorting and judging

/// The touches sorted into the kinds the panel lists, the newest KEPT of each, newest
/// first: taps (still, shorter than the hold's min-duration at timing scale `scale`,
/// the one the config has now: as the engine tells them apart), holds (still, longer)
/// and swipes (moved STROKE_MM or more); a tap also has the pause before it when the
/// touch before it was a tap that lifted under DOUBLE_TAP_PAUSE_S earlier. Touches of
/// other shapes (a pinch, a short drag) are not listed.
export function sortTouches(touches, limits = thresholds([]), scale = 1) {
  const holdFrom = scaled('min-duration', limits.hold.defaults['min-duration'], scale);
  const taps = [];
  const holds = [];
  const swipes = [];
  let before = null;
  for (const touch of touches) {
    const still = touch.wander < STROKE_MM;
    if (still && touch.duration < holdFrom) {
      const pause = before && before.kind === 'tap' ? touch.start - before.end : null;
      taps.push({ ...touch, kind: 'tap', pause: pause !== null && pause < DOUBLE_TAP_PAUSE_S ? pause : null });
      before = { kind: 'tap', end: touch.end };
      continue;
    }
    before = null;
    if (still) holds.push({ ...touch, kind: 'hold' });
    else if (touch.distance >= STROKE_MM) swipes.push({ ...touch, kind: 'swipe' });
  }
  const newest = (list) => list.slice(-KEPT).reverse();
  return { taps: newest(taps), holds: newest(holds), swipes: newest(swipes) };
}

/// What a timing scale must be for one gesture to pass the defaults with the margin:
/// { least, most } (a tap, a pause and a swipe need a scale at least so large; a hold
/// at most so large, or it would no longer be long enough), with the figure and
/// threshold that decide it.
export function scaleNeeded(g, defaults) {
  switch (g.kind) {
    case 'tap': {
      const needs = [{ least: (MARGIN * g.duration) / defaults.tap['max-duration'], what: 'duration' }];
      if (g.pause !== null) needs.push({ least: (MARGIN * g.pause) / defaults.tap['max-interval'], what: 'pause' });
      return needs.reduce((a, b) => (b.least > a.least ? b : a));
    }
    case 'swipe':
      return { least: g.speed > 0 ? (MARGIN * defaults.swipe['min-velocity']) / g.speed : Infinity, what: 'speed' };
    case 'hold':
      return { least: 0, most: g.duration / (MARGIN * defaults.hold['min-duration']), what: 'duration' };
    default:
      return { least: 0 };
  }
}

/// The smallest scale of SCALES that is at least `least` (Infinity when none is).
export function scaleAtLeast(least) {
  return SCALES.find((s) => s >= least - 1e-9) ?? Infinity;
}

/// What the panel suggests for the sorted gestures (sortTouches): { measured (how many),
/// scale, tremor, wobble (their mean), why: { scale, tremor } (a sentence each) }. The scale is
/// the smallest of SCALES under which every listed tap, pause and swipe passes the
/// default thresholds with the margin (or the largest, if none does); the tremor filter
/// when the listed gestures' mean wobble is over TREMOR_WOBBLE_MM.
export function suggest(sorted, limits = thresholds([])) {
  const defaults = Object.fromEntries(Object.entries(limits).map(([k, v]) => [k, v.defaults]));
  const all = [...sorted.taps, ...sorted.holds, ...sorted.swipes];
  if (!all.length) return { measured: 0, scale: null, tremor: null, why: null };
  let needed = { least: 1, what: null, g: null };
  for (const g of [...sorted.taps, ...sorted.swipes]) {
    const n = scaleNeeded(g, defaults);
    if (n.least > needed.least) needed = { ...n, g };
  }
  const fits = scaleAtLeast(needed.least);
  const scale = Number.isFinite(fits) ? fits : SCALES[SCALES.length - 1];
  const tooShortHolds = sorted.holds.filter((g) => scaleNeeded(g, defaults).most < scale);
  const wobbles = all.map((g) => g.wobble).filter((w) => w !== null);
  const wobble = wobbles.length ? wobbles.reduce((a, b) => a + b, 0) / wobbles.length : null;
  const tremor = wobble !== null && wobble > TREMOR_WOBBLE_MM;
  return {
    measured: all.length, scale, tremor, wobble,
    why: { scale: scaleWhy(needed, scale, fits, defaults, tooShortHolds), tremor: tremorWhy(tremor, wobble) },
  };
}

const s2 = (v) => `${v.toFixed(2)} s`;
const mm2 = (v) => `${v.toFixed(2)} mm`;
const speed0 = (v) => `${Math.round(v)} mm/s`;
const times = (s) => `×${s}`;

/// One sentence: why this scale.
function scaleWhy(needed, scale, fits, defaults, tooShortHolds) {
  const g = needed.g;
  let said;
  if (!g) {
    said = 'Your taps and swipes pass the default thresholds with room to spare: no timing scale is needed.';
  } else if (needed.what === 'speed') {
    said = `Your slowest swipe went ${speed0(g.speed)}; a swipe must go at least ${speed0(defaults.swipe['min-velocity'])}, ` +
      `and at ${times(scale)} it must go ${speed0(scaled('min-velocity', defaults.swipe['min-velocity'], scale))}, which it passes with room to spare.`;
  } else if (needed.what === 'pause') {
    said = `Your longest pause between two taps was ${s2(g.pause)}; a double tap allows ${s2(defaults.tap['max-interval'])}, ` +
      `and at ${times(scale)} it allows ${s2(scaled('max-interval', defaults.tap['max-interval'], scale))}, with room to spare.`;
  } else {
    said = `Your longest tap lasted ${s2(g.duration)}; a tap may last ${s2(defaults.tap['max-duration'])}, ` +
      `and at ${times(scale)} it may last ${s2(scaled('max-duration', defaults.tap['max-duration'], scale))}, with room to spare.`;
  }
  if (g && !Number.isFinite(fits)) said += ` Even ${times(scale)} is not quite enough for it.`;
  if (tooShortHolds.length) {
    const h = tooShortHolds.reduce((a, b) => (b.duration < a.duration ? b : a));
    said += ` At ${times(scale)} a hold must last ${s2(scaled('min-duration', defaults.hold['min-duration'], scale))}: your ${s2(h.duration)} hold would be too short.`;
  }
  return said;
}

/// One sentence: why the tremor filter, or why not.
function tremorWhy(tremor, wobble) {
  const w = wobble === null ? null : mm2(wobble);
  if (tremor) return `Your fingers wobbled ${w} around the path they were taking, more than the ${mm2(TREMOR_WOBBLE_MM)} of a steady hand: the filter smooths that out.`;
  if (w === null) return 'Not enough positions yet to measure a wobble: the filter is not needed for what was measured.';
  return `Your fingers wobbled ${w} around their path, within the ${mm2(TREMOR_WOBBLE_MM)} of a steady hand: the filter is not needed.`;
}

// MARK: The config's text

/// The profile `settings: accessibility:` holds in `text`: { 'timing-scale', 'tremor-filter', … }
/// as written (strings; a nested mapping as '{…}'), {} with none.
export function profileIn(text) {
  const lines = text.split('\n');
  const settings = blockOf(lines, -1, 'settings');
  if (!settings || settings.inline) return {};
  const a11y = blockOf(lines, settings.line, 'accessibility', settings.end);
  if (!a11y || a11y.inline) return {};
  const out = {};
  const indent = childIndent(lines, a11y.line, a11y.end);
  for (let i = a11y.line + 1; i < a11y.end; i++) {
    const m = new RegExp(`^ {${indent}}([A-Za-z-]+):\\s*(.*?)\\s*(#.*)?$`).exec(lines[i]);
    if (m) out[m[1]] = m[2] === '' ? '{…}' : m[2];
  }
  return out;
}

/// `text` with `choice` ({ 'timing-scale': 2.5, 'tremor-filter': true }) written under
/// `settings: accessibility:`: each key's value replaced where the key is there (its
/// comment kept), added at the end of the section where not, and the sections made
/// where missing (`settings:` before `gestures:`, or at the end); every other line as
/// it was. A `tremor-filter:` with its own parameters (`{min-cutoff: …}`) is kept when
/// the choice is true. Returns { text } or { error } (a section written as a flow
/// mapping on one line, `settings: {…}`, which this does not rewrite).
export function withProfile(text, choice) {
  // An empty flow mapping (`settings: {}`, `accessibility: {}`) is a section with nothing in it yet.
  const lines = text.split('\n').map((l) => l.replace(/^( *(?:settings|accessibility):)\s*\{\s*\}(\s+#.*)?$/, '$1$2'));
  const values = Object.entries(choice).map(([k, v]) => [k, String(v)]);
  const settings = blockOf(lines, -1, 'settings');
  if (!settings) {
    const at = lines.findIndex((l) => /^gestures\s*:/.test(l));
    const block = ['settings:', '  accessibility:', ...values.map(([k, v]) => `    ${k}: ${v}`)];
    if (at < 0) {
      const body = text.replace(/\n*$/, '');
      return { text: `${body}${body ? '\n\n' : ''}${block.join('\n')}\n` };
    }
    lines.splice(at, 0, ...block, '');
    return { text: lines.join('\n') };
  }
  if (settings.inline) return { error: `line ${settings.line + 1}: settings: is written on one line; add accessibility: to it by hand` };
  const settingsIndent = childIndent(lines, settings.line, settings.end) ?? 2;
  const a11y = blockOf(lines, settings.line, 'accessibility', settings.end);
  if (!a11y) {
    const pad = ' '.repeat(settingsIndent);
    const at = lastContent(lines, settings.line, settings.end) + 1;
    lines.splice(at, 0, `${pad}accessibility:`, ...values.map(([k, v]) => `${pad}  ${k}: ${v}`));
    return { text: lines.join('\n') };
  }
  if (a11y.inline) return { error: `line ${a11y.line + 1}: accessibility: is written on one line; change it by hand` };
  const indent = childIndent(lines, a11y.line, a11y.end) ?? settingsIndent + 2;
  const pad = ' '.repeat(indent);
  let end = a11y.end;
  const added = [];
  for (const [key, value] of values) {
    const at = keyLine(lines, key, indent, a11y.line + 1, end);
    if (at < 0) {
      added.push(`${pad}${key}: ${value}`);
      continue;
    }
    const nested = lastContent(lines, at, blockEnd(lines, at, indent, end)) + 1;
    if (key === 'tremor-filter' && value === 'true' && (nested > at + 1 || /:\s*\{/.test(lines[at]))) continue;
    const m = new RegExp(`^( {${indent}}${key}:)([ \\t]*?)([^#]*?)(\\s+#.*)?$`).exec(lines[at]);
    lines[at] = `${m[1]} ${value}${m[4] || ''}`;
    lines.splice(at + 1, nested - at - 1);
    end -= nested - at - 1;
  }
  if (added.length) lines.splice(lastContent(lines, a11y.line, end) + 1, 0, ...added);
  return { text: lines.join('\n') };
}

/// Where the mapping key `key` is, as a child of the line `parent` (-1: the top level)
/// within lines up to `limit`: { line, end (the first line after its block), inline
/// (a value on its own line, a flow mapping or scalar) }, or null.
function blockOf(lines, parent, key, limit = lines.length) {
  const indent = parent < 0 ? 0 : childIndent(lines, parent, limit);
  if (indent === null) return null;
  const at = keyLine(lines, key, indent, parent + 1, limit);
  if (at < 0) return null;
  const value = lines[at].replace(/^\s*[^:]+:/, '').replace(/\s+#.*$/, '').trim();
  return { line: at, end: blockEnd(lines, at, indent, limit), inline: value !== '' };
}

/// The line of `key:` at exactly `indent` spaces between `from` and `to`, or -1.
function keyLine(lines, key, indent, from, to) {
  const pattern = new RegExp(`^ {${indent}}${key.replace(/[-]/g, '\\-')}\\s*:(\\s|$)`);
  for (let i = from; i < to; i++) {
    if (isContent(lines[i]) && indentOf(lines[i]) < indent) return -1;
    if (pattern.test(lines[i])) return i;
  }
  return -1;
}

/// The first line after the block that starts at `line` (its key at `indent`): the next
/// content line indented no more than it.
function blockEnd(lines, line, indent, limit) {
  for (let i = line + 1; i < limit; i++) if (isContent(lines[i]) && indentOf(lines[i]) <= indent) return i;
  return limit;
}

/// The indent of the first content line of the block under `line`, or null.
function childIndent(lines, line, limit) {
  const own = line < 0 ? -1 : indentOf(lines[line]);
  for (let i = line + 1; i < limit; i++) {
    if (!isContent(lines[i])) continue;
    return indentOf(lines[i]) > own ? indentOf(lines[i]) : null;
  }
  return null;
}

/// The last content line of the block under `line` (or `line` itself).
function lastContent(lines, line, end) {
  for (let i = end - 1; i > line; i--) if (isContent(lines[i])) return i;
  return line;
}

function isContent(line) {
  return /^\s*[^\s#]/.test(line);
}

function indentOf(line) {
  return /^ */.exec(line)[0].length;
}
