// "Propose a binding from this recording" (docs/UI.md): on a replayed recording, a
// card whose gesture has fired by the frame shown offers its binding, as the server's
// BindingProposal makes it (the recording's fingers and direction, thresholds with a
// margin from what the recording did). The YAML is shown in the card with "Insert into
// the config", which puts it in the editor as Record's proposal does.

import { el } from './dom.js';
import { num, plural } from './format.js';

/// The card states in which its gesture has fired by the frame shown.
const FIRED = new Set(['recognized', 'began', 'changed', 'ended']);

// MARK: The store's changes (pure: state in, state out)

/// The proposal asked for gesture `name` of recording `recording` (its id).
export function proposalAsked(state, recording, name) {
  return { ...state, proposal: { recording, gesture: name, pending: true } };
}

export function proposalAnswered(state, recording, name, answer) {
  const { yaml, t, fingers, direction, margin } = answer;
  return { ...state, proposal: { recording, gesture: name, yaml: yaml || '', t, fingers, direction, margin } };
}

export function proposalFailed(state, recording, name, message) {
  return { ...state, proposal: { recording, gesture: name, error: message } };
}

// MARK: The card's part

/// Adds the button and the proposal's box to a card's `parts`; `propose(name)` and
/// `insert()` are called when they are pressed.
export function addProposal(parts, { propose, insert }) {
  const name = parts.gesture.name;
  const button = el('button', 'propose', 'Propose a binding');
  button.type = 'button';
  button.setAttribute('aria-label', `Propose a binding from ${name}`);
  button.hidden = true;
  button.addEventListener('click', () => propose(name));
  const box = el('div', 'proposal');
  box.setAttribute('role', 'group');
  box.setAttribute('aria-label', `Binding proposed from ${name}`);
  box.hidden = true;
  const said = el('p', 'proposal-said');
  const yaml = el('pre', 'yaml proposal-yaml');
  const insertButton = el('button', 'insert-proposal', 'Insert into the config');
  insertButton.type = 'button';
  insertButton.addEventListener('click', () => insert());
  box.append(said, yaml, insertButton);
  parts.el.append(button, box);
  parts.proposal = { button, box, said, yaml, insertButton, key: null };
}

/// Draws a card's button (shown on a recording once its gesture fired) and its
/// proposal (the store's, if it is this card's on this recording).
export function drawProposal(parts, card, state) {
  const p = parts.proposal;
  if (!p) return;
  const recording = state.recording;
  const offered = Boolean(recording && recording.id !== undefined && FIRED.has(card.state));
  const mine = state.proposal && recording && state.proposal.recording === recording.id && state.proposal.gesture === parts.gesture.name
    ? state.proposal : null;
  const key = `${offered}|${mine ? JSON.stringify(mine) : ''}`;
  if (key === p.key) return;
  p.key = key;
  p.button.hidden = !offered;
  p.box.hidden = !mine;
  if (!mine) return;
  p.box.classList.toggle('error', Boolean(mine.error));
  p.yaml.hidden = !mine.yaml;
  p.insertButton.hidden = !mine.yaml;
  p.yaml.textContent = mine.yaml || '';
  if (mine.pending) p.said.textContent = 'Proposing…';
  else if (mine.error) p.said.textContent = `Could not propose a binding: ${mine.error}`;
  else p.said.textContent = proposalText(mine);
}

/// "From the recording at 0.181 s: 4 fingers, down. …": what it was, and the margins
/// its thresholds were given (BindingProposal's rule, docs/UI.md: minimums at 80 %, or
/// 90 % or 100 % when the recording replayed with less did not fire).
export function proposalText(p) {
  const what = [plural(p.fingers, 'finger'), p.direction].filter(Boolean).join(', ');
  const under = typeof p.margin === 'number' ? Math.round(p.margin * 100) : 80;
  return `From the recording at ${num(p.t, 3)} s: ${what}. A minimum is ${under} % of what the recording reached, ` +
    'a maximum 150 % of what its touches did.';
}
