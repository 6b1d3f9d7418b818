// A touch device drawn to scale as SVG in millimetres: its surface with its real
// aspect, the zones where configured gestures must begin, a 10 mm scale bar, and the
// contacts with their trails.

import { el, svg } from './dom.js';
import { listensTo } from './store.js';
import { num, plural } from './format.js';

/// Radius of a drawn contact, mm: about a fingertip.
const CONTACT_RADIUS_MM = 4.5;
/// Default width of a touchscreen's edge zone, mm (the engine's defaultEdgeZoneMM).
const DEFAULT_EDGE_ZONE_MM = 6;

/// The device's size in mm, as drawn (a device that reports none is 100 × 60).
export function drawnWidth(info) {
  return Math.max(1, Number(info.width_mm) || 100);
}

function drawnHeight(info) {
  return Math.max(1, Number(info.height_mm) || 60);
}

/// Draws the device `info` at `path` into `figure` (its children replaced), with the
/// zones of `gestures`; `hatch` is an id of the document's own for its zones' pattern.
/// Returns where its contacts go, for drawContacts.
export function drawDevice(figure, path, info, gestures, hatch) {
  const w = drawnWidth(info);
  const h = drawnHeight(info);
  const margin = 2 + CONTACT_RADIUS_MM;
  const image = svg('svg', {
    class: 'device', viewBox: `${-margin} ${-margin} ${w + 2 * margin} ${h + 2 * margin + 8}`,
    role: 'img', 'data-path': path, 'data-kind': info.kind || '',
  });
  image.setAttribute('aria-label', `${info.name || path}, ${info.kind || 'device'}, ${num(w, 0)} × ${num(h, 0)} mm`);
  const defs = svg('defs');
  const pattern = svg('pattern', { id: hatch, width: 3, height: 3, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' });
  pattern.append(svg('line', { x1: 0, y1: 0, x2: 0, y2: 3, class: 'hatch-line' }));
  defs.append(pattern);
  image.append(defs, svg('rect', { class: 'surface', x: 0, y: 0, width: w, height: h, rx: 2 }));
  image.append(drawZones(info, w, h, gestures, hatch));
  image.append(drawScaleBar(h));
  const trails = svg('g', { class: 'trails' });
  const contacts = svg('g', { class: 'contacts' });
  image.append(trails, contacts);
  const caption = el('figcaption');
  caption.append(el('strong', 'device-name', info.name || path), ' ', el('span', 'device-facts', deviceFacts(info, w, h)));
  const count = el('span', 'device-fingers');
  caption.append(' ', count);
  figure.replaceChildren(image, caption);
  return { image, trails, contacts, count };
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
function drawZones(info, w, h, gestures, hatch) {
  const layer = svg('g', { class: 'zones' });
  if (info.kind !== 'touchscreen') return layer;
  for (const g of gestures) {
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

/// Draws `contacts` (id → positions, the last the contact's: a circle with its id
/// while it is down) and their trails into the layers drawDevice made.
export function drawContacts(layers, contacts, fingers) {
  const circles = [];
  const trails = [];
  for (const [id, points] of contacts) {
    const last = points[points.length - 1];
    if (points.length > 1) {
      trails.push(svg('polyline', { class: 'trail', points: points.map((p) => `${p.x},${p.y}`).join(' ') }));
    }
    if (!last.down) continue;
    const circle = svg('circle', { class: 'contact', cx: last.x, cy: last.y, r: CONTACT_RADIUS_MM, 'data-id': id });
    const label = svg('text', { class: 'contact-id', x: last.x, y: last.y + 1.6 });
    label.textContent = String(id);
    circles.push(circle, label);
  }
  layers.trails.replaceChildren(...trails);
  layers.contacts.replaceChildren(...circles);
  layers.count.textContent = `· ${plural(fingers, 'finger')}`;
}
