// The ui server as the page talks to it: its API (docs/UI.md, "Endpoints"), one
// function per endpoint, and its event stream of docs/CONTROL.md lines. No state of
// the page: answers go back to the caller.

/// A request with the cookie; the answer's JSON (null for an empty one), or an error
/// that names the request and the server's status and text.
async function request(method, path, body, contentType) {
  const options = { method, credentials: 'same-origin', headers: {} };
  if (body !== undefined) {
    options.body = body;
    options.headers['Content-Type'] = contentType || 'text/plain; charset=utf-8';
  }
  const response = await fetch(path, options);
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.trim()}`);
  return text ? JSON.parse(text) : null;
}

export const session = () => request('GET', '/api/session');
/// A recording kept by the server as a timeline with the saved config: the one of `id`,
/// or `--replay`'s.
export const replayedRecording = (id) => request('GET', id === undefined ? '/api/recording' : `/api/recording?id=${encodeURIComponent(id)}`);

/// A recording file ({ name, bytes }), with its device's description file for an evemu
/// events file without a header, decoded and replayed by the server: its timeline.
export function openRecording(events, description) {
  const query = new URLSearchParams({ name: events.name });
  let body = events.bytes;
  if (description) {
    query.set('description', description.name);
    query.set('description_length', String(description.bytes.length));
    body = new Uint8Array(description.bytes.length + events.bytes.length);
    body.set(description.bytes, 0);
    body.set(events.bytes, description.bytes.length);
  }
  return request('POST', `/api/recording?${query}`, body, 'application/octet-stream');
}

export const check = (text) => request('POST', '/api/check', text);
/// Tries `text`: on the recording of id `recording` if given (the answer holds its
/// whole timeline), and beside the running config; an empty text stops trying.
export const tryConfig = (text, recording) =>
  request('POST', recording === undefined ? '/api/try' : `/api/try?recording=${encodeURIComponent(recording)}`, text);
/// The editor's gestures as the form shows them, and with `edit` ({ index, name, key,
/// value }) the text with that one key of that gesture changed: `{ ok, text, gestures }`
/// or `{ ok: false, message, line, column }`.
export const form = (text, edit) => request('POST', '/api/form', JSON.stringify({ text, edit: edit || null }), 'application/json');
export const save = (text, force) => request('POST', '/api/save', JSON.stringify({ text, force }), 'application/json');
export const setEnabled = (name, enabled) => request('POST', enabled ? '/api/enable' : '/api/disable', name);
/// Runs gesture `name`'s action without the gesture (`gestured trigger NAME`):
/// { ok, message }, the message what ran (or would, in a dry run) or why not.
export const trigger = (name) => request('POST', '/api/trigger', name);
/// The binding `BindingProposal` makes of gesture `gesture` as it fired by `t` (s) on
/// recording `recording`, with `text` the config the cards were made with ('' the saved
/// one): { gesture, kind, fingers, direction, t, yaml }.
export function proposeBinding(recording, gesture, t, text) {
  const at = typeof t === 'number' && isFinite(t) ? `&t=${t}` : '';
  return request('POST', `/api/propose?recording=${encodeURIComponent(recording)}&gesture=${encodeURIComponent(gesture)}${at}`, text);
}

export const startRecordingGesture = () => request('POST', '/api/record/start');
export const stopRecordingGesture = () => request('POST', '/api/record/stop');

/// Opens the event stream: `opened()` when it is (again) connected, `lost()` when it
/// is not (the browser retries by itself), `line(object)` for each line. Returns the
/// stream, for `close()`.
export function openEvents({ opened, lost, line }) {
  const source = new EventSource('/api/events');
  source.onopen = opened;
  source.onerror = lost;
  source.onmessage = (message) => {
    let parsed;
    try { parsed = JSON.parse(message.data); } catch (_) { return; }
    if (parsed && typeof parsed.type === 'string') line(parsed);
  };
  return source;
}
