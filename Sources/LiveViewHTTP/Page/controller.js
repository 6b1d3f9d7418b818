// Between the server, the store and the view: what the user does (the view's events)
// and what the server sends (answers, stream lines) become changes of the store, and
// each new state is drawn by the view. What is in flight lives here, not in the
// store: the event stream, the timers, the number of the newest check and try.

import * as server from './server.js';
import * as changes from './store.js';
import { insertBinding } from './config-text.js';
import { TEMPLATES, freshName } from './gesture-form.js';
import { proposalAnswered, proposalAsked, proposalFailed } from './propose.js';
import { touchLineArrived, withProfile } from './accessibility.js';
import { checkSummary, clockTime, confirmText, plural } from './format.js';

/// How long the editor waits after the last keystroke before checking, ms.
const CHECK_DELAY_MS = 300;
/// "Start empty" on a first run: a valid config with no gesture yet.
const EMPTY_CONFIG = '# gestured config: docs/CONFIG.md. Add gestures under gestures:, then Save.\ngestures: []\n';

/// Whether a file's text has an evemu event line (`E: …`): a description file has none.
function hasEventLines(bytes) {
  return /^E: /m.test(new TextDecoder().decode(bytes));
}

export class Controller {
  #store;
  #view;
  #stream = null;
  #checkTimer = null;
  /// Counts the checks asked for: an answer to an older one, while a newer is under way, is dropped.
  #checks = 0;
  /// Counts the form's requests: only the newest answer is drawn.
  #formRequests = 0;
  /// The editor's gestures' names, as the form last read them.
  #formNames = [];
  /// Counts the tries asked for: an answer that comes back after Try was stopped, or
  /// after a newer try (each check of an edit tries again), is not what is shown.
  #tries = 0;
  /// Play's animation frame request, while it plays.
  #player = null;
  /// Play's speed (1: the recording's own) and whether it starts over at the end: the
  /// transport's own inputs hold them, as the player's parameters.
  #speed = 1;
  #loop = false;
  /// Where play (re)started: the recording's time and performance.now() then.
  #playedFrom = null;

  constructor(store, view) {
    this.#store = store;
    this.#view = view;
    store.onChange((state) => view.render(state));
    view.bind('toggleGesture', (name) => this.#toggleGesture(name));
    view.bind('runGesture', (name) => this.#runGesture(name));
    view.bind('onlyActive', (on) => this.#update(changes.onlyActiveChanged, on));
    view.bind('openRecording', (files) => this.#openRecording(files));
    view.bind('showFrame', (index) => this.#showFrame(index));
    view.bind('stepFrame', (step) => this.#state.recording && this.#showFrame(this.#state.recording.frame + step));
    view.bind('play', () => this.#togglePlay());
    view.bind('speed', (speed) => this.#setSpeed(speed));
    view.bind('loop', (loop) => { this.#loop = loop; });
    view.bind('backToLive', () => this.#backToLive());
    view.bind('edit', (text) => this.#edited(text));
    view.bind('try', () => this.#toggleTry());
    view.bind('save', () => this.#save(false));
    view.bind('confirmSave', (save) => (save ? this.#save(true) : this.#update(changes.notSaved)));
    view.bind('record', () => this.#toggleRecord());
    view.bind('insertBinding', () => this.#insertBinding());
    view.bind('propose', (name) => this.#propose(name));
    view.bind('insertProposal', () => this.#insertYAML(this.#state.proposal && this.#state.proposal.yaml));
    view.bind('startConfig', (fromDefault) => this.#startConfig(fromDefault));
    view.bind('formEdit', (edit) => this.#formEdit(edit));
    view.bind('addGesture', (kind) => this.#addGesture(kind));
    view.bind('applyAccessibility', (choice) => this.#applyAccessibility(choice));
  }

  get #state() { return this.#store.state; }

  #update(change, ...args) {
    this.#store.update(change, ...args);
  }

  /// The session (mode, config), `--replay`'s recording, then the event stream.
  async start() {
    let session;
    try {
      session = await server.session();
    } catch (error) {
      this.#update(changes.sessionFailed, error.message);
      return;
    }
    this.#update(changes.sessionLoaded, session);
    if (session.config) this.#checkSoon();
    if (session.mode === 'replay') {
      try {
        this.#update(changes.recordingOpened, await server.replayedRecording());
      } catch (error) {
        this.#update(changes.recordingStatusSaid, `Could not load the recording: ${error.message}`);
      }
    }
    this.#connect();
  }

  /// (Re)opens the event stream: its first line is a hello.
  #connect() {
    if (this.#stream) this.#stream.close();
    this.#stream = server.openEvents({
      opened: () => this.#update(changes.connectionChanged, true),
      lost: () => this.#update(changes.connectionChanged, false),
      line: (line) => this.#lineArrived(line),
    });
  }

  #lineArrived(line) {
    const live = !this.#state.recording;
    this.#update(changes.lineArrived, line, clockTime(new Date()));
    this.#update(touchLineArrived, line);
    // The gestures' cards change with the hello the server sends after a reload.
    if (line.type === 'reload' && line.source !== 'try' && live) this.#view.announce(line.message || 'config reloaded');
  }

  async #toggleGesture(name) {
    const card = this.#state.cards.get(name);
    if (!card) return;
    try {
      const answer = await server.setEnabled(name, !card.enabled);
      if (answer.ok) this.#update(changes.gestureEnabled, name, !card.enabled);
      const now = this.#state.cards.get(name);
      this.#view.announce(answer.message || `${name}: ${now && now.enabled ? 'enabled' : 'disabled'}`);
    } catch (error) {
      this.#view.announce(error.message);
    }
  }

  /// A card's Run: the daemon runs the gesture's action (the ui's own daemon in local
  /// mode is a dry run: it says what would run); its answer goes on the card, and is read out.
  async #runGesture(name) {
    let answer;
    try {
      answer = await server.trigger(name);
    } catch (error) {
      answer = { ok: false, message: error.message };
    }
    this.#update(changes.triggerAnswered, name, answer);
  }

  // MARK: Recordings

  /// One recording file, or an evemu events file and its description (`.desc`): the
  /// one of the two with no event (`E:`) line describes the device.
  async #openRecording(files) {
    if (!files || files.length === 0) return;
    const names = files.map((f) => f.name).join(' and ');
    if (files.length > 2) {
      this.#update(changes.recordingStatusSaid, `Could not open ${names}: open one recording, or an events file and its .desc file`);
      return;
    }
    this.#update(changes.recordingStatusSaid, `Reading ${names}…`);
    try {
      const contents = await Promise.all(files.map(async (f) => ({ name: f.name, bytes: new Uint8Array(await f.arrayBuffer()) })));
      const [first, second] = contents;
      if (second && hasEventLines(first.bytes) && hasEventLines(second.bytes)) {
        throw new Error('both hold events (E: lines): open one recording, or an events file and its .desc file');
      }
      const [events, description] = second && !hasEventLines(first.bytes) ? [second, first] : [first, second];
      const timeline = await server.openRecording(events, description);
      this.#stopPlaying();
      this.#update(changes.recordingOpened, timeline, events.name);
      this.#view.announce(`Opened ${events.name}`);
    } catch (error) {
      this.#update(changes.recordingStatusSaid, `Could not open ${names}: ${error.message}`);
    }
  }

  #showFrame(index) {
    this.#stopPlaying();
    this.#update(changes.frameShown, index);
  }

  #backToLive() {
    this.#stopPlaying();
    this.#update(changes.backToLive);
    this.#connect();
  }

  /// Plays the recording from the shown frame on, at its own speed times the
  /// transport's (0.1× shows a 0.57 s swipe in 5.7 s), from the start again at the end
  /// when Loop is on.
  #togglePlay() {
    if (this.#player !== null) return this.#stopPlaying();
    const recording = this.#state.recording;
    if (!recording || recording.frames.length === 0) return;
    if (recording.frame >= recording.frames.length - 1) this.#update(changes.frameShown, 0);
    this.#playFrom(this.#state.recording.frame);
    this.#update(changes.playingChanged, true);
    const step = () => {
      const { frames, frame } = this.#state.recording;
      const t = this.#playedFrom.t + ((performance.now() - this.#playedFrom.wall) / 1000) * this.#speed;
      let i = frame;
      while (i + 1 < frames.length && frames[i + 1].t <= t) i++;
      if (i !== frame) this.#update(changes.frameShown, i);
      if (i >= frames.length - 1) {
        if (!this.#loop) return this.#stopPlaying();
        this.#update(changes.frameShown, 0);
        this.#playFrom(0);
      }
      this.#player = requestAnimationFrame(step);
    };
    this.#player = requestAnimationFrame(step);
  }

  #playFrom(frame) {
    this.#playedFrom = { t: this.#state.recording.frames[frame].t, wall: performance.now() };
  }

  /// A new speed goes on from the frame shown, not from where play started.
  #setSpeed(speed) {
    this.#speed = speed > 0 && isFinite(speed) ? speed : 1;
    if (this.#player !== null) this.#playFrom(this.#state.recording.frame);
  }

  #stopPlaying() {
    if (this.#player !== null) cancelAnimationFrame(this.#player);
    this.#player = null;
    this.#update(changes.playingChanged, false);
  }

  // MARK: The config editor

  #edited(text) {
    this.#update(changes.edited, text);
    this.#checkSoon();
  }

  #checkSoon() {
    clearTimeout(this.#checkTimer);
    this.#checkTimer = setTimeout(() => this.#check(), CHECK_DELAY_MS);
  }

  /// The no-config banner's choice: the built-in default's text, or an empty config.
  #startConfig(fromDefault) {
    const config = this.#state.config;
    if (!config) return;
    this.#edited(fromDefault ? config.defaultText : EMPTY_CONFIG);
    this.#view.announce(fromDefault ? 'The default config is in the editor; Save to create the file' : 'An empty config is in the editor; Save to create the file');
  }

  async #check() {
    const sequence = ++this.#checks;
    const text = this.#state.editor.text;
    this.#readForm(text);
    try {
      const answer = await server.check(text);
      if (sequence !== this.#checks) return;
      this.#showDiagnostics(answer.diagnostics || [], answer.ok);
      if (this.#state.trying) this.#try(text);
    } catch (error) {
      if (sequence === this.#checks) this.#update(changes.checkFailed, error.message);
    }
  }

  #showDiagnostics(diagnostics, ok) {
    this.#update(changes.checked, diagnostics, ok);
    this.#view.announce(checkSummary(diagnostics, ok));
  }

  // MARK: The form

  /// The editor's gestures as the form shows them (none while the YAML is broken: the
  /// form says why, the check lists the problem).
  async #readForm(text, edit) {
    const sequence = ++this.#formRequests;
    try {
      const answer = await server.form(text, edit);
      if (sequence !== this.#formRequests) return null;
      if (answer.ok) {
        this.#formNames = answer.gestures.map((g) => g.name);
        this.#view.showForms(answer.gestures, null);
      } else {
        this.#view.showForms(edit ? null : [], `${edit ? 'Not changed' : 'The form waits for valid YAML'}: ${answer.message}`);
      }
      return answer;
    } catch (error) {
      if (sequence === this.#formRequests) this.#view.showForms(null, error.message);
      return null;
    }
  }

  /// A change in a gesture's form: the server edits that gesture's mapping in the
  /// editor's text (its comments and the rest kept), and the editor checks it as after a keystroke.
  async #formEdit(edit) {
    const answer = await this.#readForm(this.#state.editor.text, edit);
    if (!answer) return;
    if (!answer.ok) return this.#view.announce(`Not changed: ${answer.message}`);
    this.#edited(answer.text);
    const value = edit.value === null ? 'removed' : typeof edit.value === 'object' ? Object.entries(edit.value).map(([k, v]) => `${k} ${v}`).join() : edit.value;
    this.#view.announce(`${edit.name}: ${edit.key} ${value}, in the editor`);
  }

  /// An add-gesture template at the end of `gestures:`, with a name not yet used.
  #addGesture(kind) {
    const template = TEMPLATES[kind];
    if (!template) return;
    const name = freshName(kind, this.#formNames);
    const { text } = insertBinding(this.#state.editor.text, template(name));
    this.#edited(text);
    this.#view.announce(`Added ${name} to the config; Save to use it`);
  }

  async #toggleTry() {
    if (this.#state.trying) return this.#stopTry();
    this.#update(changes.tryStarted);
    await this.#try(this.#state.editor.text);
  }

  /// Tries `text`: on the recording on screen (by its id), whose whole timeline comes
  /// back and is shown; live, beside the running config.
  async #try(text) {
    const sequence = ++this.#tries;
    try {
      const recording = this.#state.recording;
      const answer = await server.tryConfig(text, recording ? recording.id : undefined);
      if (sequence !== this.#tries) return;
      this.#update(changes.tryAnswered, answer);
      if (!answer.ok) this.#view.announce(checkSummary(answer.diagnostics || [], false));
      else this.#view.announce(answer.fired ? `${plural(answer.fired.length, 'gesture')} would fire` : 'Trying the edited config');
    } catch (error) {
      if (sequence === this.#tries) this.#update(changes.tryFailed, error.message);
    }
  }

  async #stopTry() {
    this.#tries++;
    this.#update(changes.tryStopped);
    try { await server.tryConfig(''); } catch (_) { /* the server may be gone */ }
  }

  async #save(force) {
    const text = this.#state.editor.text;
    this.#update(changes.saveStarted);
    try {
      const answer = await server.save(text, force);
      if (answer.needs_confirm && !force) {
        const diagnostics = answer.diagnostics || [];
        this.#update(changes.saveNeedsConfirm, answer);
        this.#view.announce(checkSummary(diagnostics, false));
        this.#view.confirmSave(confirmText(diagnostics));
        return;
      }
      this.#update(changes.saveAnswered, answer, text);
      if (!answer.saved) return;
      this.#view.announce(this.#state.saveResult.text);
    } catch (error) {
      this.#update(changes.saveFailed, error.message);
      return;
    }
    await this.#recomputeRecording();
  }

  /// The recording on screen with the config as saved now (after a Save).
  async #recomputeRecording() {
    const recording = this.#state.recording;
    if (!recording || recording.id === undefined) return;
    try {
      this.#update(changes.recordingRecomputed, await server.replayedRecording(recording.id), false);
    } catch (error) {
      this.#update(changes.recordingStatusSaid, `Could not replay the recording with the saved config: ${error.message}`);
    }
  }

  // MARK: Recording a gesture

  async #toggleRecord() {
    const recording = this.#state.record.on;
    try {
      if (!recording) {
        await server.startRecordingGesture();
        this.#update(changes.recordStarted);
        this.#view.announce('Recording');
        return;
      }
      this.#update(changes.recordStopped);
      const answer = await server.stopRecordingGesture();
      this.#update(changes.gestureDetected, answer);
      const best = (answer.detected || [])[0];
      this.#view.announce(best ? `Recognized ${best.kind}, ${plural(best.fingers, 'finger')}` : 'Nothing recognized');
    } catch (error) {
      this.#update(changes.recordFailed, error.message);
    }
  }

  /// Record's proposed binding, at the end of the editor's `gestures:`.
  #insertBinding() {
    const result = this.#state.record.result;
    this.#insertYAML(result && result.yaml);
  }

  /// A card's proposed binding (its recognition at the frame shown), from the server's
  /// BindingProposal: with the config the cards were made with (the edited one while
  /// Try shows the recording, else the saved one).
  async #propose(name) {
    const recording = this.#state.recording;
    if (!recording || recording.id === undefined) return;
    const frame = recording.frames[recording.frame];
    this.#update(proposalAsked, recording.id, name);
    try {
      const answer = await server.proposeBinding(recording.id, name, frame ? frame.t : undefined, recording.tried ? this.#state.editor.text : '');
      this.#update(proposalAnswered, recording.id, name, answer);
      this.#view.announce(`Proposed a binding from ${name}: Insert into the config adds it`);
    } catch (error) {
      this.#update(proposalFailed, recording.id, name, error.message);
    }
  }

  /// `yaml` (a binding) at the end of the editor's `gestures:`.
  #insertYAML(yaml) {
    if (!yaml) return;
    const { text, caret } = insertBinding(this.#state.editor.text, yaml);
    this.#edited(text);
    if (caret !== null) this.#view.placeCaret(caret);
    this.#view.announce('Inserted into the config; Save to use it');
  }

  /// The accessibility panel's choice, under `settings: accessibility:` in the editor's
  /// text (the rest of it kept), checked as after a keystroke; Save is the user's.
  #applyAccessibility(choice) {
    const { text, error } = withProfile(this.#state.editor.text, choice);
    if (error) return this.#view.accessibilitySaid(`Not written: ${error}`);
    this.#edited(text);
    this.#view.accessibilitySaid(`Written into the config under settings: accessibility: (timing-scale ${choice['timing-scale']}, tremor-filter ${choice['tremor-filter']}); Save to use it.`);
  }
}
