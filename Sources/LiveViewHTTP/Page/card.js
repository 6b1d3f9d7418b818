// A gesture's card: its name and what it listens for, its recognizer's state in words
// and an icon, the values its kind reports, its progress, why it failed, where. One
// function draws it, whether the gesture came live from the stream or from a frame of
// a recording: the store makes the same card of both.

import { el } from './dom.js';
import { STATES, gestureSummary, num, valueRows } from './format.js';

/// A card's elements, for `gesture`; with a Disable/Enable button when `toggle` is
/// given and a Run button when `run` is (each called with the gesture's name when
/// pressed). Run asks the daemon to run the gesture's action without the gesture
/// (`gestured trigger`); its answer shows under the button.
export function makeCard(gesture, toggle, run) {
  const article = el('article', 'card');
  article.dataset.gesture = gesture.name;
  article.dataset.kind = gesture.kind || '';
  const header = el('header', 'card-header');
  header.append(el('h3', 'card-name', gesture.name), el('p', 'card-kind', gestureSummary(gesture)));
  const state = el('p', 'state');
  const progress = el('progress', 'progress');
  progress.max = 1;
  progress.value = 0;
  progress.setAttribute('aria-label', `${gesture.name} progress`);
  const follow = el('p', 'follow-caption');
  follow.hidden = true;
  const values = el('dl', 'values');
  const steps = el('ol', 'step-marks');
  steps.setAttribute('aria-label', `${gesture.name}: steps crossed`);
  steps.hidden = true;
  const reason = el('p', 'reason');
  const where = el('p', 'card-device');
  article.append(header, state, progress, follow, values, steps, reason, where);
  const parts = { el: article, gesture, state, progress, follow, values, steps, reason, where, toggle: null, run: null, ran: null };
  if (toggle) {
    parts.toggle = el('button', 'toggle');
    parts.toggle.type = 'button';
    parts.toggle.addEventListener('click', () => toggle(gesture.name));
    article.append(parts.toggle);
  }
  if (run) {
    parts.run = el('button', 'run', 'Run');
    parts.run.type = 'button';
    parts.run.setAttribute('aria-label', `Run ${gesture.name} without the gesture`);
    parts.run.addEventListener('click', () => run(gesture.name));
    // What ran (or would, in a dry run), or why not: read out when it changes.
    parts.ran = el('p', 'run-answer');
    parts.ran.setAttribute('role', 'status');
    parts.ran.hidden = true;
    article.append(parts.run, parts.ran);
  }
  return parts;
}

/// The order cards are listed in, by state: what fired, what is under way, what is
/// still possible, what failed (each group in the config's order).
const GROUPS = { recognized: 0, ended: 0, began: 1, changed: 1, waiting: 1, possible: 2, failed: 3, cancelled: 3 };

export function cardGroup(state) {
  return GROUPS[state] ?? 2;
}

/// The states a card flashes on entering: the moment its gesture is recognized (a
/// continuous one's `began`, as UIKit's continuous recognizers do).
const FLASHES = new Set(['recognized', 'began']);

/// How a card looks: what drawCard needs of the store's card and its surroundings.
/// `applies`: a device it listens to is shown (or none is); `device`: the name of
/// the device its state is on; `kinds`: the hello's; `folded`: a kind `--detect`
/// tried that failed, listed in the folded row (and hidden by "only active");
/// `steps`: the steps a stepped gesture crossed so far ([{ step, t }]).
export function cardLook(card, { applies, device, kinds, onlyActive, folded = false, steps = [] }) {
  return {
    state: card.state,
    reason: card.reason,
    values: card.values,
    progress: card.progress,
    follow: card.follow || null,
    enabled: card.enabled,
    ran: card.ran || null,
    applies,
    where: !applies ? `No ${card.gesture.device} here.` : device && card.state !== 'possible' ? `on ${device}` : '',
    hidden: onlyActive && (card.state === 'possible' || !applies || folded),
    kinds,
    kind: card.gesture.kind,
    steps,
  };
}

export function sameLook(a, b) {
  return Object.keys(a).every((k) => (k === 'steps' ? sameSteps(a.steps, b.steps) : a[k] === b[k]));
}

function sameSteps(a, b) {
  return a.length === b.length && a.every((s, i) => s.step === b[i].step && s.t === b[i].t);
}

/// Whether the user asked for less motion: a flash is then a still highlight.
function reducedMotion() {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/// Draws a card's look into its elements; `last` is the look they show (null: none yet).
export function drawCard(parts, look, last) {
  if (!last || look.state !== last.state) {
    parts.el.dataset.state = look.state;
    const icon = el('span', 'state-icon', STATES[look.state].icon);
    icon.setAttribute('aria-hidden', 'true');
    parts.state.replaceChildren(icon, ' ', el('span', 'state-word', STATES[look.state].label), el('span', 'state-step'));
    // Recognized: the card flashes once, or, with reduced motion, is highlighted while it stays so.
    parts.el.classList.remove('flash', 'highlight');
    if (FLASHES.has(look.state)) parts.el.classList.add(reducedMotion() ? 'highlight' : 'flash');
  }
  if (!last || !sameSteps(look.steps, last.steps)) drawSteps(parts, look.steps);
  const steps = look.steps;
  parts.state.querySelector('.state-step').textContent = steps.length ? ` · step ${num(steps[steps.length - 1].step, 0)}` : '';
  parts.reason.textContent = look.reason || '';
  parts.reason.hidden = !look.reason;
  if (!last || look.values !== last.values || look.kinds !== last.kinds) {
    const rows = look.values ? valueRows(look.kinds, look.kind, look.values) : [];
    parts.values.replaceChildren(...rows.flatMap(([name, text]) => [el('dt', null, name), el('dd', null, text)]));
  }
  const known = typeof look.progress === 'number' && isFinite(look.progress);
  parts.progress.hidden = !known;
  if (known) {
    parts.progress.value = Math.min(1, Math.max(0, look.progress));
    parts.progress.textContent = `${Math.round(parts.progress.value * 100)} %`;
  }
  // A follow's bar is the desktop's own transition, moved with the fingers.
  parts.progress.setAttribute('aria-label', look.follow ? `${parts.gesture.name}: ${look.follow} transition` : `${parts.gesture.name} progress`);
  parts.progress.classList.toggle('follow', !!look.follow);
  parts.follow.hidden = !(look.follow && known);
  if (look.follow && known) parts.follow.textContent = `${look.follow} transition: ${Math.round(Math.min(1, Math.abs(look.progress)) * 100)} %`;
  parts.el.classList.toggle('disabled', !look.enabled);
  if (parts.toggle) {
    const verb = look.enabled ? 'Disable' : 'Enable';
    parts.toggle.textContent = verb;
    parts.toggle.setAttribute('aria-label', `${verb} ${parts.gesture.name}`);
  }
  if (parts.ran && (!last || look.ran !== last.ran)) {
    parts.ran.hidden = !look.ran;
    parts.ran.textContent = look.ran ? look.ran.message : '';
    parts.ran.classList.toggle('refused', !!look.ran && !look.ran.ok);
  }
  parts.el.classList.toggle('inapplicable', !look.applies);
  parts.where.textContent = look.where;
  parts.el.hidden = look.hidden;
}

/// The most step marks a card shows: the newest, after an ellipsis.
const STEP_MARKS = 24;

/// A mark per step crossed (its signed count from the gesture's start), the newest
/// last, and the count beside the state word: a stepped pan shows each step, not a
/// "began" that lasts as long as the fingers move.
function drawSteps(parts, steps) {
  parts.steps.hidden = steps.length === 0;
  const shown = steps.slice(-STEP_MARKS);
  const marks = shown.map(({ step, t }) => {
    const mark = el('li', `step-mark ${step < 0 ? 'back' : 'on'}`, step > 0 ? `+${step}` : num(step, 0));
    mark.title = `step ${step} at ${num(t, 3)} s`;
    return mark;
  });
  if (steps.length > shown.length) marks.unshift(el('li', 'step-more', `${steps.length - shown.length} more…`));
  // Only a new step is added (and so animated); a scrub back redraws the list.
  const kept = parts.steps.querySelectorAll('.step-mark');
  const same = kept.length <= shown.length && [...kept].every((m, i) => m.title === marks[i].title) && steps.length <= STEP_MARKS;
  if (same) parts.steps.append(...marks.slice(kept.length));
  else parts.steps.replaceChildren(...marks);
}
