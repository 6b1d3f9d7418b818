// The form of each gesture (docs/UI.md, "The form"): kind, fingers, direction chips,
// thresholds with their units, and the action (a key recorder, a workspace or overview
// picker, a command box), in its card. The form holds no YAML: it shows what the
// server read of the editor's text (`POST /api/form`), and an edit goes back to the
// server, which changes only that gesture's mapping and returns the new text.

import { el } from './dom.js';
import { plural } from './format.js';

/// The kinds offered when the hello named none (a page before its first hello).
const KINDS = ['tap', 'hold', 'pan', 'swipe', 'pinch', 'rotate', 'edgepan', 'transform', 'scrub', 'circle', 'tip-tap', 'tip-swipe', 'shape'];
const WORKSPACES = ['next', 'previous', '1', '2', '3', '4', '5', '6', '7', '8', '9'];
const OVERVIEW = ['toggle', 'on', 'off'];

/// Add-gesture templates: sensible defaults, at the end of `gestures:`.
export const TEMPLATES = {
  swipe: (name) => `- name: ${name}\n  gesture: swipe\n  fingers: 3\n  direction: left\n  command: {workspace: next}\n`,
  pinch: (name) => `- name: ${name}\n  gesture: pinch\n  fingers: 4\n  direction: in\n  command: {overview: toggle}\n`,
  tap: (name) => `- name: ${name}\n  gesture: tap\n  fingers: 3\n  command: {keys: super+d}\n`,
  hold: (name) => `- name: ${name}\n  gesture: hold\n  fingers: 3\n  begin: notify-send "${name}"\n`,
  pan: (name) => `- name: ${name}\n  gesture: pan\n  fingers: 3\n  axis: vertical\n  every: 8mm\n  update: {keys: volumeup, reverse: volumedown}\n`,
  rotate: (name) => `- name: ${name}\n  gesture: rotate\n  fingers: 2\n  direction: clockwise\n  end: notify-send "${name}"\n`,
};

/// A template's name not yet used in the editor: `swipe-1`, `swipe-2`…
export function freshName(kind, names) {
  let i = 1;
  while (names.includes(`${kind}-${i}`)) i++;
  return `${kind}-${i}`;
}

/// What a gesture does, in a line: `→ keys super+d`, `→ workspace next`.
export function actionLine(entry) {
  return entry.action ? `→ ${entry.action}` : '→ nothing yet (no command)';
}

/// The kind, fingers and direction the editor's text says, in a line.
export function entrySummary(entry) {
  const parts = [entry.kind || 'no kind'];
  if (entry.fingers) parts.push(/^\d+$/.test(entry.fingers) ? plural(Number(entry.fingers), 'finger') : `${entry.fingers} fingers`);
  if (entry.direction) parts.push(entry.direction);
  return parts.join(' · ');
}

/// Key names as gestured's `keys:` takes them (docs/CONFIG.md), from a KeyboardEvent.
const KEY_NAMES = {
  ' ': 'space', Enter: 'enter', Tab: 'tab', Backspace: 'backspace', Delete: 'delete', Escape: 'esc',
  ArrowLeft: 'left', ArrowRight: 'right', ArrowUp: 'up', ArrowDown: 'down', PageUp: 'Page_Up', PageDown: 'Page_Down',
  Home: 'home', End: 'end', Insert: 'insert', '=': 'equal', '-': 'minus', '+': 'equal', ',': 'comma', '.': 'dot',
  '/': 'slash', ';': 'semicolon', "'": 'apostrophe', '[': 'leftbrace', ']': 'rightbrace', '\\': 'backslash', '`': 'grave',
};
const MODIFIERS = new Set(['Control', 'Alt', 'Shift', 'Meta', 'OS', 'Super', 'AltGraph']);

/// `super+d` for Super and D pressed together; null for a modifier alone.
export function keyCombo(event) {
  if (MODIFIERS.has(event.key)) return null;
  let key = KEY_NAMES[event.key];
  if (!key && /^Key[A-Z]$/.test(event.code)) key = event.code.slice(3).toLowerCase();
  if (!key && /^Digit\d$/.test(event.code)) key = event.code.slice(5);
  if (!key && /^F\d{1,2}$/.test(event.key)) key = event.key.toLowerCase();
  if (!key) key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  const mods = [];
  if (event.ctrlKey) mods.push('ctrl');
  if (event.altKey) mods.push('alt');
  if (event.shiftKey) mods.push('shift');
  if (event.metaKey) mods.push('super');
  return [...mods, key].join('+');
}

/// A labelled control: `<label>text <control></label>`.
function labelled(text, control) {
  const label = el('label', 'form-field');
  label.append(el('span', 'form-label', text), control);
  return label;
}

function select(options, value, field) {
  const s = el('select');
  s.dataset.field = field;
  for (const o of options) {
    const opt = el('option', null, o);
    opt.value = o;
    s.append(opt);
  }
  if (value !== null && value !== undefined && !options.includes(value)) {
    const opt = el('option', null, value);
    opt.value = value;
    s.prepend(opt);
  }
  s.value = value ?? options[0];
  return s;
}

export class GestureForms {
  #edit;
  #jump;
  /// name → { entry, el, key }: the form drawn for each gesture of the editor.
  #forms = new Map();
  #entries = [];
  #kinds = KINDS;
  #values = new Map();

  /// `edit({ index, name, key, value })`: a change of one key (value null removes it);
  /// `jump(entry)`: show the gesture's YAML in the editor.
  constructor({ edit, jump }) {
    this.#edit = edit;
    this.#jump = jump;
  }

  get entries() { return this.#entries; }

  /// The gestures of the editor's text as the server read them, and the hello's kinds.
  show(entries, kinds) {
    this.#entries = entries;
    if (kinds && Object.keys(kinds).length) this.#kinds = Object.keys(kinds);
    const names = new Set(entries.map((e) => e.name));
    for (const name of [...this.#forms.keys()]) if (!names.has(name)) { this.#forms.get(name).el.remove(); this.#forms.delete(name); }
    for (const entry of entries) {
      const key = JSON.stringify(entry) + this.#kinds.join();
      const shown = this.#forms.get(entry.name);
      if (shown && shown.key === key) { shown.entry = entry; continue; }
      const form = shown ? shown.el : el('details', 'gesture-form');
      const focused = form.contains(document.activeElement) ? document.activeElement.dataset.field : null;
      this.#draw(form, entry);
      this.#forms.set(entry.name, { entry, el: form, key });
      if (focused) { const again = form.querySelector(`[data-field="${focused}"]`); if (again) again.focus(); }
    }
  }

  /// Each card's "→ …" line, its name as a link to its YAML, and its form; the
  /// gestures of the editor that have no card yet (added, not saved) in `drafts`.
  /// `values`: name → the card's value rows ([label, text]) at the frame shown.
  place(cards, drafts, values) {
    this.#values = values || new Map();
    const carded = new Set();
    for (const article of cards.querySelectorAll('article.card')) {
      const name = article.dataset.gesture;
      const form = this.#forms.get(name);
      let line = article.querySelector(':scope > .card-action');
      let edited = article.querySelector(':scope > .card-edited');
      if (!form) { line?.remove(); edited?.remove(); continue; }
      carded.add(name);
      if (!line) { line = el('p', 'card-action'); edited = el('p', 'card-edited'); article.querySelector('.card-header').after(line, edited); }
      line.textContent = actionLine(form.entry);
      edited.textContent = `In the editor: ${entrySummary(form.entry)}`;
      this.#nameButton(article, form.entry);
      if (form.el.parentElement !== article) article.append(form.el);
      this.#drawValues(form);
    }
    const rest = this.#entries.filter((e) => !carded.has(e.name));
    drafts.hidden = rest.length === 0;
    const list = drafts.querySelector('.draft-list');
    const items = rest.map((entry) => {
      const form = this.#forms.get(entry.name);
      let card = form.el.closest('.draft-card');
      if (!card || card.parentElement !== list) {
        card = el('article', 'card draft-card');
        card.dataset.gesture = entry.name;
        const header = el('header', 'card-header');
        header.append(el('h3', 'card-name'));
        card.append(header, el('p', 'card-action'), el('p', 'card-edited'), form.el);
      }
      card.querySelector('.card-action').textContent = actionLine(entry);
      card.querySelector('.card-edited').textContent = `In the editor: ${entrySummary(entry)} (not saved yet)`;
      this.#nameButton(card, entry);
      return card;
    });
    if (items.length !== list.children.length || items.some((c, i) => list.children[i] !== c)) list.replaceChildren(...items);
  }

  /// The card's name as a button that shows its YAML.
  #nameButton(article, entry) {
    const h3 = article.querySelector('.card-name');
    let button = h3.querySelector('button.name-jump');
    if (!button) {
      button = el('button', 'name-jump', entry.name);
      button.type = 'button';
      button.addEventListener('click', () => {
        const shown = this.#forms.get(button.textContent);
        if (shown) this.#jump(shown.entry);
      });
      h3.replaceChildren(button);
    }
    button.title = `Show ${entry.name}'s YAML in the editor (line ${entry.line})`;
  }

  #drawValues(form) {
    const rows = this.#values.get(form.entry.name) || [];
    const p = form.el.querySelector('.form-recorded');
    if (!p) return;
    p.hidden = rows.length === 0;
    p.textContent = rows.length ? `This recording: ${rows.map(([k, v]) => `${k} ${v}`).join(', ')}` : '';
  }

  #change(entry, key, value) {
    this.#edit({ index: entry.index, name: entry.name, key, value });
  }

  #draw(form, entry) {
    const open = form.open;
    const id = `form-${entry.index}`;
    const summary = el('summary', null, 'Edit');
    summary.setAttribute('aria-label', `Edit ${entry.name}`);
    const body = el('div', 'form-body');
    body.id = id;

    const kind = select(this.#kinds, entry.kind, 'kind');
    kind.addEventListener('change', () => this.#change(entry, 'gesture', kind.value));
    const fingers = el('input');
    Object.assign(fingers, { type: 'number', min: String(entry.fingers_min), max: String(entry.fingers_max), step: '1' });
    fingers.dataset.field = 'fingers';
    fingers.value = /^\d+$/.test(entry.fingers || '') ? entry.fingers : '';
    fingers.placeholder = 'default';
    fingers.addEventListener('change', () => {
      const n = Math.round(Number(fingers.value));
      if (fingers.value === '') this.#change(entry, 'fingers', null);
      else if (n >= entry.fingers_min && n <= entry.fingers_max) this.#change(entry, 'fingers', String(n));
    });
    body.append(labelled('Kind', kind), labelled('Fingers', fingers));

    if (entry.directions.length) {
      const chips = el('div', 'chips');
      chips.setAttribute('role', 'group');
      chips.setAttribute('aria-label', `${entry.name}: direction`);
      chips.append(el('span', 'form-label', 'Direction'));
      for (const d of entry.directions) {
        const chip = el('button', 'chip', d);
        chip.type = 'button';
        chip.dataset.field = `direction-${d}`;
        chip.setAttribute('aria-pressed', String(entry.direction === d));
        chip.addEventListener('click', () => this.#change(entry, 'direction', entry.direction === d ? null : d));
        chips.append(chip);
      }
      body.append(chips);
    }

    if (entry.thresholds.length) {
      const box = el('fieldset', 'thresholds');
      box.append(el('legend', null, 'Thresholds'));
      for (const t of entry.thresholds) {
        const input = el('input');
        input.type = 'text';
        input.dataset.field = `threshold-${t.key}`;
        input.value = t.value ?? '';
        input.placeholder = 'default';
        input.title = `default: ${t.default}`;
        input.size = 8;
        input.addEventListener('change', () => this.#change(entry, t.key, input.value.trim() === '' ? null : input.value.trim()));
        box.append(labelled(`${t.key} (${t.quantity}${t.example ? `, e.g. ${t.example}` : ''})`, input));
      }
      const recorded = el('p', 'form-recorded');
      recorded.hidden = true;
      box.append(recorded);
      body.append(box);
    }

    body.append(this.#actionField(entry));
    form.replaceChildren(summary, body);
    form.open = open;
  }

  /// The action: keys (a recorder), a workspace or the overview (pickers), a command (a box).
  #actionField(entry) {
    const key = entry.action_key || 'command';
    const box = el('fieldset', 'action-field');
    box.append(el('legend', null, `Action (${key}:)`));
    const type = entry.built_in ? entry.built_in.key : 'command';
    const kinds = ['keys', 'workspace', 'overview', 'command'];
    const kindSelect = select(kinds, type, 'action-type');
    kindSelect.addEventListener('change', () => {
      const v = kindSelect.value;
      const value = v === 'keys' ? { keys: 'super+d' } : v === 'workspace' ? { workspace: 'next' } : v === 'overview' ? { overview: 'toggle' } : 'notify-send "' + entry.name + '"';
      this.#change(entry, key, value);
    });
    box.append(labelled('Does', kindSelect));
    if (type === 'keys') {
      const rec = el('button', 'key-recorder', entry.built_in.value);
      rec.type = 'button';
      rec.dataset.field = 'keys';
      rec.setAttribute('aria-pressed', 'false');
      rec.setAttribute('aria-label', `Keys: ${entry.built_in.value}. Press to record new keys`);
      const listen = (event) => {
        event.preventDefault();
        event.stopPropagation();
        if (event.key === 'Escape' && !event.ctrlKey && !event.altKey && !event.metaKey) return stop();
        const combo = keyCombo(event);
        if (!combo) return;
        stop();
        this.#change(entry, key, { keys: combo });
      };
      const stop = () => {
        rec.removeEventListener('keydown', listen);
        rec.setAttribute('aria-pressed', 'false');
        rec.textContent = entry.built_in.value;
      };
      rec.addEventListener('click', () => {
        if (rec.getAttribute('aria-pressed') === 'true') return;
        rec.setAttribute('aria-pressed', 'true');
        rec.textContent = 'Press the keys… (Esc cancels)';
        rec.addEventListener('keydown', listen);
      });
      rec.addEventListener('blur', stop);
      box.append(labelled('Keys', rec));
    } else if (type === 'workspace' || type === 'overview') {
      const picker = select(type === 'workspace' ? WORKSPACES : OVERVIEW, entry.built_in.value, type);
      picker.addEventListener('change', () => this.#change(entry, key, { [type]: picker.value }));
      box.append(labelled(type === 'workspace' ? 'Workspace' : 'Overview', picker));
    } else if (type === 'command') {
      const input = el('input');
      input.type = 'text';
      input.dataset.field = 'command';
      input.value = entry.command ?? '';
      input.placeholder = 'a shell command';
      input.addEventListener('change', () => this.#change(entry, key, input.value === '' ? null : input.value));
      box.append(labelled('Command', input));
    } else {
      box.append(el('p', 'form-note', `${entry.built_in.key}: ${entry.built_in.value} (edit it in the YAML)`));
    }
    return box;
  }
}
