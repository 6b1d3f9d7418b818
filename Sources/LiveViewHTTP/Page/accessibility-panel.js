// The accessibility panel (docs/UI.md, "Accessibility"): the user's last taps, holds
// and swipes in tables whose columns hold the thresholds they are judged by, the
// timing scale and tremor filter suggested, and Apply. The arithmetic is
// accessibility.js's; this draws it, from the store's state (the recording shown, or
// the live touches) and the form's gestures (their own thresholds).

import { el } from './dom.js';
import { num, plural } from './format.js';
import {
  KEPT, SCALES, measureTouches, profileIn, scaleAtLeast, scaleNeeded, scaled, sortTouches, suggest, thresholds,
} from './accessibility.js';

const $ = (id) => document.getElementById(id);

const seconds = (v) => (typeof v === 'number' ? `${num(v, 2)} s` : '–');
const mm = (v, digits = 1) => (typeof v === 'number' ? `${num(v, digits)} mm` : '–');
const speed = (v) => (typeof v === 'number' ? `${num(v, 0)} mm/s` : '–');

/// Each kind's table: its columns (a heading, the measured figure's text, and the
/// threshold of that column: its key, ≤ or ≥, and how it reads) and what its last
/// column says a gesture needs of the timing scale.
const TABLES = {
  taps: {
    kind: 'tap',
    columns: [
      ['Fingers', (g) => String(g.fingers)],
      ['Duration', (g) => seconds(g.duration), 'max-duration', '≤', seconds],
      ['Pause before', (g) => (g.pause === null ? 'none' : seconds(g.pause)), 'max-interval', '≤', seconds],
      ['Moved', (g) => mm(g.moved), 'max-movement', '≤', mm],
      ['Wobble', (g) => (g.wobble === null ? 'too short' : mm(g.wobble, 2))],
    ],
  },
  holds: {
    kind: 'hold',
    columns: [
      ['Fingers', (g) => String(g.fingers)],
      ['Duration', (g) => seconds(g.duration), 'min-duration', '≥', seconds],
      ['Moved', (g) => mm(g.moved), 'max-movement', '≤', mm],
      ['Wobble', (g) => (g.wobble === null ? 'too short' : mm(g.wobble, 2))],
    ],
  },
  swipes: {
    kind: 'swipe',
    columns: [
      ['Fingers', (g) => String(g.fingers)],
      ['Duration', (g) => seconds(g.duration)],
      ['Distance', (g) => mm(g.distance), 'min-distance', '≥', mm],
      ['Speed', (g) => speed(g.speed), 'min-velocity', '≥', speed],
      ['Wobble', (g) => (g.wobble === null ? 'too short' : mm(g.wobble, 2))],
    ],
  },
};
const TITLES = { taps: 'Taps', holds: 'Holds', swipes: 'Swipes' };

export class AccessibilityPanel {
  #apply = () => {};
  #entries = [];
  #recordingFrames = null;     // the frames last measured, and their touches
  #recordingTouches = [];
  #drawn = null;               // what the tables were last drawn from
  #suggested = null;           // the suggestion the choice was last set to

  constructor() {
    const select = $('a11y-scale');
    for (const s of SCALES) {
      const option = el('option', null, `×${s}`);
      option.value = String(s);
      select.append(option);
    }
    $('a11y-apply').addEventListener('click', () => this.#apply({ 'timing-scale': Number(select.value), 'tremor-filter': $('a11y-tremor').checked }));
  }

  /// Calls `handler(choice)` when Apply is pressed: { 'timing-scale', 'tremor-filter' }.
  onApply(handler) { this.#apply = handler; }

  /// The editor's gestures as the form read them (their own thresholds).
  showEntries(entries) {
    this.#entries = entries;
    if (this.#drawn) this.render(this.#drawn.state);
  }

  /// What happened to Apply, under its button.
  said(text) { $('a11y-applied').textContent = text; }

  render(state) {
    const touches = this.#touches(state);
    const profile = profileIn(state.editor.text);
    const kinds = new Set([...state.devices.values()].map((d) => d.info.kind));
    const device = kinds.size === 1 && kinds.has('touchscreen') ? 'touchscreen' : 'touchpad';
    const key = [touches, this.#entries, JSON.stringify(profile), state.started, device];
    if (this.#drawn && key.every((k, i) => k === this.#drawn.key[i])) return;
    this.#drawn = { key, state };
    const now = Number(profile['timing-scale']) > 0 ? Number(profile['timing-scale']) : 1;
    const limits = thresholds(this.#entries, device);
    const sorted = sortTouches(touches, limits, now);
    const suggestion = suggest(sorted, limits);
    const at = state.recording ? (t) => `${num(t, 2)} s` : (t) => (state.started === null ? `${num(t, 2)} s` : `${num(t - state.started, 2)} s`);
    $('a11y-source').textContent = sourceText(state, sorted);
    $('a11y-now').textContent = `In the editor now: timing scale ×${now}, tremor filter ${profile['tremor-filter'] && profile['tremor-filter'] !== 'false' ? 'on' : 'off'}.`;
    for (const [name, table] of Object.entries(TABLES)) {
      drawTable($(`a11y-${name}`), table, sorted[name], limits, suggestion.scale, now, at);
    }
    this.#drawSuggestion(suggestion);
  }

  /// The touches measured: every touch of the recording shown (measured once per
  /// recording), or the live ones the store gathered.
  #touches(state) {
    if (!state.recording) return (state.accessibility && state.accessibility.touches) || [];
    if (this.#recordingFrames !== state.recording.frames) {
      this.#recordingFrames = state.recording.frames;
      this.#recordingTouches = measureTouches(state.recording.frames);
    }
    return this.#recordingTouches;
  }

  #drawSuggestion(suggestion) {
    const none = suggestion.measured === 0;
    $('a11y-apply').disabled = none;
    if (none) {
      $('a11y-scale-said').textContent = 'Suggested timing scale: none yet.';
      $('a11y-scale-why').textContent = 'Perform a few taps, holds and swipes as you usually do (or open a recording of them): the panel suggests once it has measured some.';
      $('a11y-tremor-said').textContent = 'Tremor filter: none yet.';
      $('a11y-tremor-why').textContent = '';
      return;
    }
    $('a11y-scale-said').textContent = suggestion.scale === 1 ? 'Suggested timing scale: ×1 (none needed).' : `Suggested timing scale: ×${suggestion.scale}.`;
    $('a11y-scale-why').textContent = suggestion.why.scale;
    $('a11y-tremor-said').textContent = suggestion.tremor ? 'Tremor filter: suggested.' : 'Tremor filter: not needed.';
    $('a11y-tremor-why').textContent = suggestion.why.tremor;
    const said = `${suggestion.scale}|${suggestion.tremor}`;
    if (said === this.#suggested) return;
    this.#suggested = said;
    $('a11y-scale').value = String(suggestion.scale);
    $('a11y-tremor').checked = suggestion.tremor;
  }
}

/// Where the figures come from, and how many.
function sourceText(state, sorted) {
  const counts = `${plural(sorted.taps.length, 'tap')}, ${plural(sorted.holds.length, 'hold')}, ${plural(sorted.swipes.length, 'swipe')}`;
  return state.recording ? `From the recording shown: ${counts} (the last ${KEPT} of each).`
    : `Live, from your touches: ${counts} (the last ${KEPT} of each).`;
}

/// A kind's table: a row per gesture (its time a row header), then a row per
/// threshold set (the defaults, the defaults at the suggested scale, and each gesture's
/// own values), each in the column of the figure it judges.
function drawTable(section, table, gestures, all, suggested, now, at) {
  const limits = all[table.kind];
  const defaults = Object.fromEntries(Object.entries(all).map(([k, v]) => [k, v.defaults]));
  const head = el('tr');
  head.append(th('col', 'When'), ...table.columns.map(([title]) => th('col', title)), th('col', table.kind === 'hold' ? 'Allows scale' : 'Needs scale'));
  const body = el('tbody');
  if (!gestures.length) {
    const row = el('tr');
    const cell = el('td', 'none', 'None yet.');
    cell.colSpan = table.columns.length + 2;
    row.append(cell);
    body.append(row);
  }
  for (const g of gestures) {
    const row = el('tr');
    row.append(th('row', at(g.start)), ...table.columns.map(([, text]) => el('td', null, text(g))), el('td', 'needs', needsText(g, defaults)));
    body.append(row);
  }
  const foot = el('tfoot');
  const rows = [['Default', (key) => limits.defaults[key]]];
  if (now !== 1) rows.push([`At ×${now} (in the editor)`, (key) => scaled(key, limits.defaults[key], now)]);
  if (suggested !== null && suggested !== 1 && suggested !== now) rows.push([`At ×${suggested} (suggested)`, (key) => scaled(key, limits.defaults[key], suggested)]);
  const own = new Map();
  for (const o of limits.own) own.set(o.gesture, { ...(own.get(o.gesture) || {}), [o.key]: o.value });
  for (const [gesture, values] of own) rows.push([`${gesture}'s own (not scaled)`, (key) => values[key]]);
  for (const [title, value] of rows) {
    const row = el('tr', 'threshold');
    row.append(th('row', title), ...table.columns.map(([, , key, sign, text]) => {
      const v = key ? value(key) : undefined;
      return el('td', null, typeof v === 'number' ? `${sign} ${text(v)}` : '');
    }), el('td'));
    foot.append(row);
  }
  const caption = el('caption', null, `${TITLES[section.dataset.kinds]}, newest first, and the thresholds they must pass`);
  const thead = el('thead');
  thead.append(head);
  const element = el('table', 'a11y-table');
  element.append(caption, thead, body, foot);
  section.querySelector('.a11y-table-wrap').replaceChildren(element);
}

/// The last column: the smallest timing scale offered under which this tap or swipe
/// passes the defaults with the margin, or the largest under which this hold still does.
function needsText(g, defaults) {
  const n = scaleNeeded(g, defaults);
  if (g.kind === 'hold') {
    const most = [...SCALES].reverse().find((s) => s <= n.most + 1e-9);
    return most === undefined ? 'too short at ×1' : `up to ×${most}`;
  }
  const least = scaleAtLeast(n.least);
  return Number.isFinite(least) ? `×${least}` : `over ×${SCALES[SCALES.length - 1]}`;
}

function th(scope, text) {
  const cell = el('th', null, text);
  cell.scope = scope;
  return cell;
}

