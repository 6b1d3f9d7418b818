// The config's text, as the editor changes it: pure functions of strings.

/// `text` with the binding `yaml` inserted at the end of its `gestures:` list,
/// indented like the entries already there (or with the list added), and where the
/// caret goes: at the inserted binding (null when the list was added).
export function insertBinding(text, yaml) {
  const lines = text.split('\n');
  // An empty flow list (`gestures: []`, what "Start empty" writes) becomes the block list it starts.
  const empty = lines.findIndex((l) => /^gestures:\s*\[\s*\]\s*(#.*)?$/.test(l));
  if (empty >= 0) lines[empty] = lines[empty].replace(/\s*\[\s*\]/, '');
  const start = lines.findIndex((l) => /^gestures:\s*(#.*)?$/.test(l));
  const entry = yaml.replace(/\n+$/, '');
  if (start < 0) return { text: `${text.replace(/\n*$/, '\n')}\ngestures:\n${indent(entry, '  ')}\n`, caret: null };
  let end = start + 1;
  let itemIndent = null;
  for (let i = start + 1; i < lines.length; i++) {
    if (/^\S/.test(lines[i]) && !lines[i].startsWith('#')) break;
    const m = /^(\s*)- /.exec(lines[i]);
    if (m && itemIndent === null) itemIndent = m[1];
    if (lines[i].trim() && !lines[i].trim().startsWith('#')) end = i + 1;
  }
  const block = indent(entry, itemIndent === null ? '  ' : itemIndent).split('\n');
  lines.splice(end, 0, '', ...block);
  return { text: lines.join('\n'), caret: lines.slice(0, end + 1).join('\n').length + 1 };
}

function indent(text, prefix) {
  return text.split('\n').map((l) => (l ? prefix + l : l)).join('\n');
}

/// The offset in `text` of a 1-based line and column (a diagnostic's), kept inside the text.
export function offsetOf(text, line, column) {
  const lines = text.split('\n');
  let offset = 0;
  for (let i = 0; i < Math.min(line - 1, lines.length); i++) offset += lines[i].length + 1;
  const row = lines[Math.min(line - 1, lines.length - 1)] || '';
  return offset + Math.min(Math.max(0, column - 1), row.length);
}
