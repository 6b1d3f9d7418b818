// A touch device drawn to scale as SVG in millimetres: its surface with its real
// aspect, the zones where configured gestures must begin, a 10 mm scale bar, the
// contacts with their trails, and what the gesture under way measures: the centroid's
// path and its Δ, a pinch's circles, a rotation's arc.

import { el, svg } from './dom.js';
import { listensTo } from './store.js';
import { num, plural } from './format.js';

/// Radius of a drawn contact, mm: about a fingertip.
const CONTACT_RADIUS_MM = 4.5;
/// The smallest radius a contact is drawn at, px: a fingertip on a 294 mm screen drawn
/// 500 px wide would be a 7 px dot, too small for its id to be read.
const MINIMUM_CONTACT_RADIUS_PX = 10;
/// The size of a measure's numbers over the surface, px, whatever the device's scale,
/// and the width of its lines (the dashed ones: half).
const LABEL_PX = 13;
const MEASURE_LINE_PX = 2;
/// The most points a centroid path is drawn with (a long recording's run is thinned).
const PATH_POINTS = 400;
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
  const arrow = svg('marker', { id: `${hatch}-arrow`, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 6, markerHeight: 6, orient: 'auto-start-reverse' });
  arrow.append(svg('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrow-head' }));
  defs.append(arrow);
  const pattern = svg('pattern', { id: hatch, width: 3, height: 3, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' });
  pattern.append(svg('line', { x1: 0, y1: 0, x2: 0, y2: 3, class: 'hatch-line' }));
  defs.append(pattern);
  image.append(defs, svg('rect', { class: 'surface', x: 0, y: 0, width: w, height: h, rx: 2 }));
  image.append(drawZones(info, w, h, gestures, hatch));
  image.append(drawScaleBar(h));
  const trails = svg('g', { class: 'trails' });
  const measures = svg('g', { class: 'measures' });
  const contacts = svg('g', { class: 'contacts' });
  const labels = svg('g', { class: 'measure-labels' });
  image.append(trails, measures, contacts, labels);
  const caption = el('figcaption');
  caption.append(el('strong', 'device-name', info.name || path), ' ', el('span', 'device-facts', deviceFacts(info, w, h)));
  const count = el('span', 'device-fingers');
  caption.append(' ', count);
  figure.replaceChildren(image, caption);
  const layers = { image, width: w + 2 * margin, arrow: `${hatch}-arrow`, trails, measures, contacts, labels, count, drawn: null };
  // A contact's radius is kept in pixels as the figure is resized (a narrow window).
  if (typeof ResizeObserver === 'function') {
    new ResizeObserver(() => layers.drawn && drawContacts(layers, ...layers.drawn)).observe(image);
  }
  return layers;
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
/// while it is down) and their trails into the layers drawDevice made, and `measure`
/// (see gestureMeasure) over them when a gesture is under way or has just fired.
export function drawContacts(layers, contacts, fingers, measure = null) {
  layers.drawn = [contacts, fingers, measure];
  const mm = mmPerPixel(layers);
  const radius = Math.max(CONTACT_RADIUS_MM, MINIMUM_CONTACT_RADIUS_PX * mm);
  const circles = [];
  const trails = [];
  for (const [id, points] of contacts) {
    const last = points[points.length - 1];
    if (points.length > 1) {
      trails.push(svg('polyline', { class: 'trail', points: points.map((p) => `${p.x},${p.y}`).join(' ') }));
    }
    if (!last.down) continue;
    const circle = svg('circle', { class: 'contact', cx: last.x, cy: last.y, r: radius, 'data-id': id });
    const label = svg('text', { class: 'contact-id', x: last.x, y: last.y, 'font-size': radius * 1.1 });
    label.textContent = String(id);
    circles.push(circle, label);
  }
  layers.trails.replaceChildren(...trails);
  layers.contacts.replaceChildren(...circles);
  const { marks, labels } = measure ? drawMeasure(layers, measure, contacts, mm) : { marks: [], labels: [] };
  layers.measures.replaceChildren(...marks);
  layers.labels.replaceChildren(...labels);
  layers.count.textContent = `· ${plural(fingers, 'finger')}`;
}

/// The figure's millimetres per screen pixel (as drawn now; before layout, a guess).
function mmPerPixel(layers) {
  const px = layers.image.getBoundingClientRect().width;
  return px > 0 ? layers.width / px : 0.5;
}

/// What the figure draws of a gesture: the centroid's `path` (mm, the last point where
/// the fingers are now) and its gesture line's `values`, with what its kind reports
/// (the hello's `kinds[kind].values`): a translation, a scale, a rotation.
export function gestureMeasure(path, values, reported) {
  if (!values || path.length === 0) return null;
  const has = (key) => reported.includes(key) && typeof values[key] === 'number' && isFinite(values[key]);
  return {
    gesture: values.gesture,
    path,
    delta: has('dx_mm') && has('dy_mm') ? { dx: values.dx_mm, dy: values.dy_mm } : null,
    scale: has('scale') ? values.scale : null,
    rotation: has('rotation_deg') ? values.rotation_deg : null,
  };
}

/// The centroid of each frame of `frames` (each with its `contacts`) from the first of
/// the run of frames with frame i's finger count, up to frame i (on the lift, the frame
/// before it: a gesture recognized as the fingers lift keeps its path).
export function centroidRun(frames, i) {
  if (i > 0 && frames[i] && !(frames[i].fingers > 0)) i--;
  const fingers = frames[i] ? frames[i].fingers || 0 : 0;
  if (fingers === 0) return [];
  let first = i;
  while (first > 0 && (frames[first - 1].fingers || 0) === fingers) first--;
  const every = Math.max(1, Math.ceil((i - first + 1) / PATH_POINTS));
  const path = [];
  for (let k = first; k <= i; k++) {
    if ((i - k) % every === 0) path.push(centroid(frames[k].contacts || []));
  }
  return path.filter(Boolean);
}

/// The centroid path of live contacts (id → their trails): the mean of the positions of
/// the ones down, over the frames all of them have.
export function centroidOfTrails(contacts) {
  const down = [...contacts.values()].filter((points) => points[points.length - 1].down);
  if (down.length === 0) return [];
  const length = Math.min(...down.map((points) => points.length));
  const path = [];
  for (let k = length; k >= 1; k--) path.push(centroid(down.map((points) => points[points.length - k])));
  return path;
}

function centroid(points) {
  if (points.length === 0) return null;
  return { x: mean(points.map((p) => p.x)), y: mean(points.map((p) => p.y)) };
}

function mean(values) {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

/// The measure's marks: the path, the Δ as an arrow to where the centroid is now, a
/// pinch's circle now and where it started (now ÷ scale), a rotation's arc ending at
/// the first finger; and their numbers, drawn over the fingers (the Δ's behind the
/// arrow's tail, where the fingers no longer are).
function drawMeasure(layers, measure, contacts, mm) {
  const marks = [];
  const labels = [];
  const size = LABEL_PX * mm;
  const line = MEASURE_LINE_PX * mm;
  const label = (x, y, text, className, anchor = 'start') => {
    const t = svg('text', { class: `measure-label ${className}`, x, y, 'font-size': size, 'text-anchor': anchor });
    t.textContent = text;
    labels.push(t);
  };
  const { path } = measure;
  const now = path[path.length - 1];
  if (path.length > 1) {
    marks.push(svg('polyline', { class: 'centroid-path', points: path.map((p) => `${p.x},${p.y}`).join(' '), 'stroke-width': line / 2 }));
  }
  if (measure.delta) {
    const { dx, dy } = measure.delta;
    const from = { x: now.x - dx, y: now.y - dy };
    marks.push(svg('line', { class: 'delta', x1: from.x, y1: from.y, x2: now.x, y2: now.y, 'marker-end': `url(#${layers.arrow})`, 'stroke-width': line,
                             'data-dx': num(dx, 1), 'data-dy': num(dy, 1) }));
    const length = Math.hypot(dx, dy) || 1;
    const [bx, by] = [from.x - (dx / length) * size, from.y - (dy / length) * size + size * 0.35];
    label(bx, by, `Δ(${num(dx, 1)}, ${num(dy, 1)}) mm`, 'delta-label', Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? 'end' : 'start') : 'middle');
  }
  const down = [...contacts.values()].map((points) => points[points.length - 1]).filter((p) => p.down);
  const spread = down.length > 1 ? mean(down.map((p) => Math.hypot(p.x - now.x, p.y - now.y))) : 0;
  if (measure.scale !== null && spread > 0 && measure.scale > 0) {
    marks.push(svg('circle', { class: 'pinch-start', cx: now.x, cy: now.y, r: spread / measure.scale, 'stroke-width': line / 2 }));
    marks.push(svg('circle', { class: 'pinch-now', cx: now.x, cy: now.y, r: spread, 'data-scale': num(measure.scale, 2), 'stroke-width': line }));
    label(now.x + spread * 0.75, now.y + spread * 0.75 + size, `×${num(measure.scale, 2)}`, 'scale-label');
  }
  if (measure.rotation !== null) {
    const r = Math.max(spread, 8);
    const end = down.length ? Math.atan2(down[0].y - now.y, down[0].x - now.x) : -Math.PI / 2;
    marks.push(svg('path', { class: 'rotation-arc', d: arc(now, r, end - (measure.rotation * Math.PI) / 180, end),
                             'marker-end': `url(#${layers.arrow})`, 'data-degrees': num(measure.rotation, 1), 'stroke-width': line }));
    label(now.x + r + size * 0.3, now.y - size * 0.3, `${num(measure.rotation, 1)}°`, 'rotation-label');
  }
  return { marks, labels };
}

/// An SVG arc of radius r about c from angle `from` to `to` (radians, y down).
function arc(c, r, from, to) {
  const at = (a) => `${num2(c.x + r * Math.cos(a))},${num2(c.y + r * Math.sin(a))}`;
  const sweep = to >= from ? 1 : 0;
  const large = Math.abs(to - from) % (2 * Math.PI) > Math.PI ? 1 : 0;
  if (Math.abs(to - from) >= 2 * Math.PI - 1e-6) {  // a whole turn or more: two halves
    const mid = from + Math.sign(to - from) * Math.PI;
    return `M${at(from)} A${r},${r} 0 0 ${sweep} ${at(mid)} A${r},${r} 0 0 ${sweep} ${at(to)}`;
  }
  return `M${at(from)} A${r},${r} 0 ${large} ${sweep} ${at(to)}`;
}

function num2(x) {
  return x.toFixed(2);
}
