// The page's words: numbers as the command line prints them, plurals, and the text of
// stream lines (docs/CONTROL.md). Pure: no DOM, no state, no clock.

/// The recognizer states, each with a word and an icon, so colour is never the only cue.
export const STATES = {
  possible: { icon: '○', label: 'possible' },
  waiting: { icon: '⏸', label: 'waiting' },
  began: { icon: '▶', label: 'began' },
  changed: { icon: '↻', label: 'changed' },
  ended: { icon: '■', label: 'ended' },
  recognized: { icon: '✓', label: 'recognized' },
  failed: { icon: '✗', label: 'failed' },
  cancelled: { icon: '⊘', label: 'cancelled' },
};

/// A state as the page shows it: one it does not know is shown as possible.
export function knownState(state) {
  return Object.hasOwn(STATES, state) ? state : 'possible';
}

/// A number with `digits` decimals, never "-0.0".
export function num(value, digits) {
  if (typeof value !== 'number' || !isFinite(value)) return '–';
  const s = value.toFixed(digits);
  return /^-0(\.0*)?$/.test(s) ? s.slice(1) : s.replace('-', '−');
}

/// A message as a sentence: with a full stop unless it already ends in one.
function sentence(text) {
  return /[.?!]$/.test(text) ? text : `${text}.`;
}

export function plural(n, word) {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/// The time of day of `date` as hh:mm:ss, for live lines (a recording's are its own seconds).
export function clockTime(date) {
  return [date.getHours(), date.getMinutes(), date.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

export function modeName(mode) {
  return { daemon: 'Live: the running daemon', local: 'Live: own engine (no daemon running)', replay: 'Replay' }[mode] || 'Live';
}

/// The header's line after a hello: where the lines come from and who sends them.
export function sessionText(mode, hello) {
  const bits = [modeName(mode), `gestured ${hello.version || ''}`.trim()];
  if (hello.pid) bits.push(`pid ${hello.pid}`);
  if (hello.dry_run) bits.push('dry run');
  if (hello.focus && hello.focus.app) bits.push(`focus: ${hello.focus.app}`);
  return bits.join(' · ');
}

/// A configured gesture in a few words: kind, fingers, directions, where it begins.
export function gestureSummary(g) {
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

/// A gesture line in one line: the timeline's and Try's.
export function gestureText(line) {
  const parts = [line.gesture, line.phase];
  if (line.fingers) parts.push(plural(line.fingers, 'finger'));
  if (line.direction) parts.push(line.direction);
  if (typeof line.dx_mm === 'number') parts.push(`Δ(${num(line.dx_mm, 1)}, ${num(line.dy_mm, 1)}) mm`);
  if (line.step !== null && line.step !== undefined) parts.push(`step ${line.step}`);
  return parts.join(' · ');
}

/// Who ran an action no gesture ran: ` (run by hand)` for `gestured trigger` and the
/// Run button, ` (run by its shortcut)`; nothing for a gesture's.
export function byText(line) {
  if (line.by === 'manual') return ' (run by hand)';
  if (line.by === 'shortcut') return ' (run by its shortcut)';
  return '';
}

/// An action line: what ran and how it ended.
export function actionText(line) {
  const what = line.command || line.keys || line.desktop || 'action';
  let how = line.outcome;
  if (line.outcome === 'exited') how = `exited with status ${line.status}`;
  return `${what} → ${how}`;
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

/// The rows (name, text) for a gesture line's (or a detected gesture's) values `v` of
/// `kind`: what the kind reports as `kinds` (the hello's) says (a duration only for a
/// hold, the one kind that measures it: a pan's or a circle's showed 0.00 s), the step
/// when stepped, and the direction.
export function valueRows(kinds, kind, v) {
  const traits = kinds[kind] || { discrete: true, values: [] };
  const reported = new Set(traits.values);
  const rows = [];
  for (const [key, name, text] of VALUE_ROWS) {
    if (reported.has(key) && v[key] !== null && v[key] !== undefined) rows.push([name, text(v)]);
  }
  if (v.step !== null && v.step !== undefined) rows.push(['Step', num(v.step, 0)]);
  if (v.direction) rows.push(['Direction', v.direction]);
  return rows;
}

/// A check's result in one sentence: what the status line shows and a screen reader hears.
export function checkSummary(diagnostics, ok) {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  return ok && diagnostics.length === 0 ? 'Checked: no problems.'
    : `Checked: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}.`;
}

/// What the Save dialog asks about a config with errors.
export function confirmText(diagnostics) {
  const errors = diagnostics.filter((d) => d.severity === 'error');
  const first = errors[0] || diagnostics[0];
  const detail = first ? ` The first: line ${first.line}, column ${first.column}: ${sentence(first.message)}` : '';
  return `This config has ${plural(errors.length || diagnostics.length, 'error')}.${detail} The daemon will keep running its current config until the file is fixed. Save it anyway?`;
}
