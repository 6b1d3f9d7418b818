// The config editor: a transparent textarea over a backdrop that tints each
// diagnostic's line, marks its column and shows its message after the line's end,
// with the line numbers in a gutter beside it; all three scroll together.

import { el } from './dom.js';
import { offsetOf } from './config-text.js';

export class ConfigEditor {
  #textarea;
  #gutter;
  #backdrop;
  #text = '';
  #diagnostics = [];
  #drawPending = false;

  constructor(textarea, gutter, backdrop) {
    this.#textarea = textarea;
    this.#gutter = gutter;
    this.#backdrop = backdrop;
    textarea.addEventListener('scroll', () => this.#syncScroll());
  }

  /// Calls `handler(text)` after each edit: typing, and Tab, which indents (YAML wants
  /// spaces); Escape then Tab leaves the editor, as in most code editors.
  onEdit(handler) {
    const editor = this.#textarea;
    editor.addEventListener('input', () => handler(editor.value));
    let escaped = false;
    editor.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') { escaped = true; return; }
      if (e.key === 'Tab' && !e.shiftKey && !escaped && !e.ctrlKey && !e.altKey) {
        e.preventDefault();
        editor.setRangeText('  ', editor.selectionStart, editor.selectionEnd, 'end');
        handler(editor.value);
      }
      escaped = false;
    });
  }

  /// Shows `text` (unless the textarea has it already: typing is not undone) with
  /// `diagnostics` marked. New diagnostics are marked at once; new text alone once per
  /// screen refresh, with the last diagnostics until the next check answers (so the
  /// text and its marks stay aligned).
  show(text, diagnostics) {
    if (this.#textarea.value !== text) this.#textarea.value = text;
    const now = diagnostics !== this.#diagnostics;
    this.#text = text;
    this.#diagnostics = diagnostics;
    if (now) return this.#draw();
    if (this.#drawPending) return;
    this.#drawPending = true;
    requestAnimationFrame(() => { this.#drawPending = false; this.#draw(); });
  }

  /// Puts the caret at a 1-based line and column and scrolls it into view.
  moveCaret(line, column) {
    this.placeCaret(offsetOf(this.#textarea.value, line, column));
    const lineHeight = parseFloat(getComputedStyle(this.#textarea).lineHeight) || 18;
    this.#textarea.scrollTop = Math.max(0, (line - 3) * lineHeight);
    this.#syncScroll();
  }

  /// Selects lines `from` to `to` (1-based, whole) and scrolls them into view.
  selectLines(from, to) {
    const text = this.#textarea.value;
    this.moveCaret(from, 1);
    this.#textarea.setSelectionRange(offsetOf(text, from, 1), offsetOf(text, to, Number.MAX_SAFE_INTEGER));
  }

  placeCaret(offset) {
    this.#textarea.focus();
    this.#textarea.setSelectionRange(offset, offset);
  }

  /// The gutter's line numbers, and the backdrop's lines with their diagnostics.
  #draw() {
    const lines = this.#text.split('\n');
    const byLine = new Map();
    for (const d of this.#diagnostics) {
      if (!byLine.has(d.line)) byLine.set(d.line, []);
      byLine.get(d.line).push(d);
    }
    const numbers = [];
    const rows = [];
    for (let i = 0; i < lines.length; i++) {
      const here = byLine.get(i + 1);
      const severity = here ? (here.some((d) => d.severity === 'error') ? 'error' : 'warning') : null;
      const mark = severity ? (severity === 'error' ? '✗' : '⚠') : '';
      numbers.push(el('div', severity ? `gutter-line ${severity}` : 'gutter-line', `${mark}${i + 1}`));
      rows.push(backdropLine(lines[i], here, severity));
    }
    // The pads let the gutter and the backdrop scroll as far as the textarea does.
    this.#gutter.replaceChildren(...numbers, el('div', 'scroll-pad', ' '));
    this.#backdrop.replaceChildren(...rows, el('div', 'scroll-pad', ' '));
    this.#syncScroll();
  }

  #syncScroll() {
    this.#backdrop.scrollTop = this.#textarea.scrollTop;
    this.#backdrop.scrollLeft = this.#textarea.scrollLeft;
    this.#gutter.scrollTop = this.#textarea.scrollTop;
  }
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
  row.append(el('span', 'inline-message', `   ${diagnostics.map((d) => d.message).join(' · ')}`));
  return row;
}
