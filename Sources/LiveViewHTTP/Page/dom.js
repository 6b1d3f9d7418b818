// Making elements for the view. Every string from the stream is hostile (device names,
// gesture names, commands): it reaches the page through textContent or an attribute,
// never through innerHTML.

const SVG_NS = 'http://www.w3.org/2000/svg';

export function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

export function svg(tag, attributes) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attributes || {})) e.setAttribute(k, String(v));
  return e;
}

/// A list element whose children are drawn from items with ids: `show(items)` adds
/// the new ones, removes the gone ones and redraws the changed ones in place, and
/// leaves the rest as they are, so a live region hears only what is new.
export class KeyedList {
  #list;
  #draw;
  #redraw;
  #shown = new Map(); // id → { item, element }

  /// `draw(item)` makes an item's element; `redraw(element, item)`, when given,
  /// updates it for a changed item (else a changed item is drawn anew).
  constructor(list, draw, redraw) {
    this.#list = list;
    this.#draw = draw;
    this.#redraw = redraw;
  }

  show(items) {
    const next = new Map();
    for (const item of items) {
      const old = this.#shown.get(item.id);
      let element = old ? old.element : null;
      if (old && old.item !== item) {
        if (this.#redraw) this.#redraw(element, item);
        else element = null;
      }
      next.set(item.id, { item, element });
    }
    for (const [id, old] of this.#shown) if (!next.has(id) || next.get(id).element !== old.element) old.element.remove();
    let cursor = this.#list.firstChild;
    for (const entry of next.values()) {
      if (!entry.element) entry.element = this.#draw(entry.item);
      if (entry.element === cursor) cursor = cursor.nextSibling;
      else this.#list.insertBefore(entry.element, cursor);
    }
    while (cursor) {
      const after = cursor.nextSibling;
      cursor.remove();
      cursor = after;
    }
    this.#shown = next;
  }
}
