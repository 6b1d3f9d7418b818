// A gesture's card: its name and what it listens for, its recognizer's state in words
// and an icon, the values its kind reports, its progress, why it failed, where. One
// function draws it, whether the gesture came live from the stream or from a frame of
// a recording: the store makes the same card of both.

import { el } from './dom.js';
import { STATES, gestureSummary, valueRows } from './format.js';

/// A card's elements, for `gesture`; with a Disable/Enable button when `toggle` is
/// given (called with the gesture's name when pressed).
export function makeCard(gesture, toggle) {
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
  const reason = el('p', 'reason');
  const where = el('p', 'card-device');
  article.append(header, state, progress, follow, values, reason, where);
  const parts = { el: article, gesture, state, progress, follow, values, reason, where, toggle: null };
  if (toggle) {
    parts.toggle = el('button', 'toggle');
    parts.toggle.type = 'button';
    parts.toggle.addEventListener('click', () => toggle(gesture.name));
    article.append(parts.toggle);
  }
  return parts;
}

/// How a card looks: what drawCard needs of the store's card and its surroundings.
/// `applies`: a device it listens to is shown (or none is); `device`: the name of
/// the device its state is on; `kinds`: the hello's.
export function cardLook(card, { applies, device, kinds, onlyActive }) {
  return {
    state: card.state,
    reason: card.reason,
    values: card.values,
    progress: card.progress,
    follow: card.follow || null,
    enabled: card.enabled,
    applies,
    where: !applies ? `No ${card.gesture.device} here.` : device && card.state !== 'possible' ? `on ${device}` : '',
    hidden: onlyActive && (card.state === 'possible' || !applies),
    kinds,
    kind: card.gesture.kind,
  };
}

export function sameLook(a, b) {
  return Object.keys(a).every((k) => a[k] === b[k]);
}

/// Draws a card's look into its elements; `last` is the look they show (null: none yet).
export function drawCard(parts, look, last) {
  if (!last || look.state !== last.state) {
    parts.el.dataset.state = look.state;
    const icon = el('span', 'state-icon', STATES[look.state].icon);
    icon.setAttribute('aria-hidden', 'true');
    parts.state.replaceChildren(icon, ' ', el('span', 'state-word', STATES[look.state].label));
  }
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
  parts.el.classList.toggle('inapplicable', !look.applies);
  parts.where.textContent = look.where;
  parts.el.hidden = look.hidden;
}
