"""The accessibility panel (issue 36, item 3): the user's own taps, holds and swipes,
measured from a replayed recording, beside the thresholds; a timing scale and the
tremor filter suggested for slow and shaky ones and nothing for normal ones; Apply
writes the choice into the editor's config under `settings: accessibility:`.

The recordings are the Atmel touchscreen's real ones (nine fast taps, a two-finger
press held 0.82 s, a four-finger swipe down) one after the other, as recorded, and
the same slowed 2.5× with a 5 Hz, 1 mm hand tremor added (how a person with a motor
impairment performs them: the issue's measure)."""
import atexit
import math
import os
import re
import shutil
import tempfile

import test_watching
from harness import CONFIGS, RECORDINGS, FakePad, FakePadPageTest, Keys, OwnConfigCopy, PageTest, gestured, per_browser

ATMEL = os.path.join(RECORDINGS, 'touchscreens_Atmel_maXTouch_Touchscreen.')
PARTS = [ATMEL + '1-finger-fast-taps.events', ATMEL + '2-fingers-touch-release.events', ATMEL + '4-finger-drag-down.events']
CONFIG = os.path.join(CONFIGS, 'accessibility.yaml')
# The page's figures (Sources/LiveViewHTTP/Page/accessibility.js): the margin a
# suggestion leaves, the scales it offers, the wobble over which it suggests the filter.
MARGIN, SCALES, TREMOR_MM = 1.25, [1, 1.5, 2, 2.5, 3, 4], 0.5

EV_SYN, EV_ABS = 0, 3
SLOT, TRACKING, MT_X, MT_Y = 0x2f, 0x39, 0x35, 0x36


def frames_of(text):
    """An evemu recording's frames: [(time, [(type, code, value)])], each ending at its SYN_REPORT."""
    frames, events = [], []
    for line in text.splitlines():
        m = re.match(r'^E: (\d+\.\d+) ([0-9a-f]{4}) ([0-9a-f]{4}) (-?\d+)', line)
        if not m:
            continue
        kind, code, value = int(m[2], 16), int(m[3], 16), int(m[4])
        if kind == EV_SYN and code == 0:
            frames.append((float(m[1]), events))
            events = []
        else:
            events.append((kind, code, value))
    return frames


def joined(paths, gap_s=1.0):
    """The recordings of one device one after the other, `gap_s` apart: the first's
    header, each one's frames from the slot 0 it assumes."""
    with open(paths[0]) as f:
        header = [l for l in f.read().splitlines() if not l.startswith('E:')]
    frames, offset = [], 0.0
    for path in paths:
        with open(path) as f:
            own = frames_of(f.read())
        t0 = own[0][0]
        own[0] = (own[0][0], [(EV_ABS, SLOT, 0)] + own[0][1])
        frames += [(offset + t - t0, events) for t, events in own]
        offset = frames[-1][0] + gap_s
    return header, frames


def shaken(header, frames, stretch, hz, amplitude, rate_hz=100):
    """The recording slowed `stretch` times, every contact moved along a circle of
    `amplitude` ((x, y) device units) `hz` times a second, with a frame every 1/rate_hz s
    while any finger is down (a still finger shakes too: the device reports it)."""
    slot, slots, out = 0, {}, []

    def emit(t, events):
        out.extend(f'E: {t:.6f} {kind:04x} {code:04x} {value:04d}' for kind, code, value in events + [(EV_SYN, 0, 0)])

    def positions(t):
        phase = 2 * math.pi * hz * t
        moved = [e for s, (x, y) in sorted(slots.items()) for e in
                 [(EV_ABS, SLOT, s), (EV_ABS, MT_X, round(x + amplitude[0] * math.sin(phase))),
                  (EV_ABS, MT_Y, round(y + amplitude[1] * math.cos(phase)))]]
        return moved + [(EV_ABS, SLOT, slot)] if moved else []

    last = None
    for t, events in frames:
        t *= stretch
        if last is not None and slots:
            k = last + 1 / rate_hz
            while k < t - 1e-4:
                emit(k, positions(k))
                k += 1 / rate_hz
        kept = []
        for kind, code, value in events:
            if kind == EV_ABS and code == SLOT:
                slot = value
            elif kind == EV_ABS and code == TRACKING:
                if value < 0:
                    slots.pop(slot, None)
                else:
                    slots.setdefault(slot, (0, 0))
            elif kind == EV_ABS and code in (MT_X, MT_Y):
                x, y = slots.get(slot, (0, 0))
                slots[slot] = (value, y) if code == MT_X else (x, value)
                continue
            kept.append((kind, code, value))
        emit(t, kept + positions(t))
        last = t
    return '\n'.join(header + out) + '\n'


def written(path, header, frames, stretch=1.0, hz=0.0, amplitude=(0, 0)):
    with open(path, 'w') as f:
        f.write(shaken(header, frames, stretch, hz, amplitude))
    return path


def units_per_mm(path):
    """The device's units per mm, as gestured sizes it (the Atmel reports no resolution):
    the first contact's position in mm (`replay --frames`) against its first raw one."""
    header, frames = joined([path])
    raw = {code: value for _, events in frames[:1] for kind, code, value in events if kind == EV_ABS}
    first = next(l for l in gestured('replay', path, '--detect', '--frames').splitlines() if '#' in l)
    x_mm, y_mm = map(float, re.search(r'\(([\d.]+), ([\d.]+)\)', first).groups())
    return raw[MT_X] / x_mm, raw[MT_Y] / y_mm


def one_finger(path, header, per_mm, touches, rate_hz=100):
    """A recording of one finger on the device of `header`: each touch (start s,
    duration s, from (x, y) mm, to (x, y) mm) drawn straight at an even speed."""
    out = []

    def emit(t, events):
        out.extend(f'E: {t:.6f} {kind:04x} {code:04x} {value:04d}' for kind, code, value in events + [(EV_SYN, 0, 0)])

    def at(x, y):
        return [(EV_ABS, MT_X, round(x * per_mm[0])), (EV_ABS, MT_Y, round(y * per_mm[1]))]

    for n, (start, duration, (x0, y0), (x1, y1)) in enumerate(touches):
        steps = max(1, round(duration * rate_hz))
        emit(start, [(EV_ABS, SLOT, 0), (EV_ABS, TRACKING, 100 + n)] + at(x0, y0) + [(1, 0x14a, 1)])
        for k in range(1, steps + 1):
            emit(start + duration * k / steps, at(x0 + (x1 - x0) * k / steps, y0 + (y1 - y0) * k / steps))
        emit(start + duration + 1 / rate_hz, [(EV_ABS, TRACKING, -1), (1, 0x14a, 0)])
    with open(path, 'w') as f:
        f.write('\n'.join(header + out) + '\n')
    return path


class Recordings:
    """The normal and the slow, shaky recording, made once for the run."""
    dir = None

    @classmethod
    def make(cls):
        if cls.dir:
            return cls.normal, cls.shaky
        cls.dir = tempfile.mkdtemp(prefix='gestured-a11y-')
        atexit.register(shutil.rmtree, cls.dir, True)
        header, frames = joined(PARTS)
        per_mm = units_per_mm(PARTS[0])
        cls.normal = written(os.path.join(cls.dir, 'atmel-normal.events'), header, frames)
        cls.shaky = written(os.path.join(cls.dir, 'atmel-slow-shaky.events'), header, frames, stretch=2.5, hz=5,
                            amplitude=(per_mm[0], per_mm[1]))
        return cls.normal, cls.shaky


class PanelPage:
    """Reading the panel as a person does."""
    emulate = test_watching.WatchingPage.emulate
    _emulate_nothing = test_watching.WatchingPage._emulate_nothing
    sized = test_watching.WatchingPage.sized

    def rows(self, kind):
        """A kind's measured rows ({column: text}), newest first, read in one step."""
        return self.browser.execute_script("""
            const table = document.querySelector(`#a11y-${arguments[0]} table`);
            if (!table) return [];
            const heads = [...table.querySelectorAll('thead th')].map((h) => h.textContent.trim());
            return [...table.querySelectorAll('tbody tr')].filter((r) => !r.querySelector('.none'))
              .map((r) => Object.fromEntries([...r.children].map((c, i) => [heads[i], c.textContent.trim()])));""", kind)

    def threshold_rows(self, kind):
        """A kind's threshold rows: {row title: {column: text}}."""
        return self.browser.execute_script("""
            const table = document.querySelector(`#a11y-${arguments[0]} table`);
            const heads = [...table.querySelectorAll('thead th')].map((h) => h.textContent.trim());
            return Object.fromEntries([...table.querySelectorAll('tfoot tr')].map((r) =>
              [r.children[0].textContent.trim(), Object.fromEntries([...r.children].map((c, i) => [heads[i], c.textContent.trim()]))]));""",
                                           kind)

    def wait_measured(self, taps, holds, swipes, where='From the recording shown'):
        said = f'{where}: {taps} taps, {holds} hold{"s" if holds != 1 else ""}, {swipes} swipe{"s" if swipes != 1 else ""}'
        self.wait(lambda b: self.text('#a11y-source').startswith(said), said)

    def number(self, text):
        return float(re.match(r'[≤≥ ]*([\d.]+)', text)[1])


class NormalGesturesTests(PanelPage, OwnConfigCopy, PageTest):
    """The recordings as they were made: the panel measures them, and suggests nothing."""
    config_source = CONFIG
    ui_name = 'ui-a11y-normal'

    @classmethod
    def start_server(cls):
        cls.recording = Recordings.make()[0]
        return super().start_server()

    def test_normal_taps_holds_and_swipes_are_measured_and_nothing_is_suggested(self):
        self.wait_measured(5, 1, 1)
        taps = self.rows('taps')
        self.assertEqual(len(taps), 5, 'the last five of the nine taps')
        # The recording's own touches: 83–110 ms each (replay --frames).
        for tap in taps:
            self.assertLess(float(tap['Duration'].split()[0]), 0.12, tap)
            self.assertEqual(tap['Needs scale'], '×1')
        hold = self.rows('holds')[0]
        self.assertEqual(hold['Duration'], '0.82 s')
        swipe = self.rows('swipes')[0]
        self.assertEqual(swipe['Fingers'], '4')
        self.assertGreater(float(swipe['Speed'].split()[0]), MARGIN * 50)
        self.assertLess(float(swipe['Wobble'].split()[0]), TREMOR_MM)
        self.assertEqual(self.text('#a11y-scale-said'), 'Suggested timing scale: ×1 (none needed).')
        self.assertEqual(self.text('#a11y-tremor-said'), 'Tremor filter: not needed.')
        self.assertEqual(self.element('#a11y-scale').get_property('value'), '1')
        self.assertFalse(self.element('#a11y-tremor').get_property('checked'))
        self.screenshot('a11y-normal', showing='#a11y-title')


    def test_the_profile_goes_into_any_config_keeping_the_rest(self):
        """accessibility.js's withProfile, evaluated in the page, on the shapes a config's
        settings come in."""
        cases = [
            ('# mine\ngestures:\n  - {name: t, gesture: tap}\n', True,
             '# mine\nsettings:\n  accessibility:\n    timing-scale: 2.5\n    tremor-filter: true\n\ngestures:\n  - {name: t, gesture: tap}\n'),
            ('settings:\n    accessibility:   # mine\n        timing-scale: 1.5   # slow\n        tap-at: last\n    key-delay: 10ms\n', False,
             'settings:\n    accessibility:   # mine\n        timing-scale: 2.5   # slow\n        tap-at: last\n'
             '        tremor-filter: false\n    key-delay: 10ms\n'),
            ('settings:\n  accessibility:\n    tremor-filter:   # tuned\n      min-cutoff: 0.5\n      beta: 0.01\n\ngestures: []\n', True,
             'settings:\n  accessibility:\n    tremor-filter:   # tuned\n      min-cutoff: 0.5\n      beta: 0.01\n    timing-scale: 2.5\n\ngestures: []\n'),
            ('settings:\n  accessibility:\n    tremor-filter:   # tuned\n      min-cutoff: 0.5\n      beta: 0.01\n\ngestures: []\n', False,
             'settings:\n  accessibility:\n    tremor-filter: false   # tuned\n    timing-scale: 2.5\n\ngestures: []\n'),
            ('settings: {}\ngestures: []\n', True,
             'settings:\n  accessibility:\n    timing-scale: 2.5\n    tremor-filter: true\ngestures: []\n'),
        ]
        for text, tremor, expected in cases:
            got = self.browser.execute_script(
                "return import('/accessibility.js').then((m) => m.withProfile(arguments[0], {'timing-scale': 2.5, 'tremor-filter': arguments[1]}))",
                text, tremor)
            self.assertEqual(got, {'text': expected}, text)
        refused = self.browser.execute_script(
            "return import('/accessibility.js').then((m) => m.withProfile('settings: {key-delay: 10ms}\\n', {'timing-scale': 2}))")
        self.assertEqual(refused, {'error': 'line 1: settings: is written on one line; add accessibility: to it by hand'})


class SlowShakyGesturesTests(PanelPage, OwnConfigCopy, PageTest):
    """The same slowed 2.5× with a 5 Hz, 1 mm tremor: a scale over 1 and the tremor
    filter are suggested, and Apply writes them into the editor's config."""
    config_source = CONFIG
    ui_name = 'ui-a11y-shaky'

    @classmethod
    def start_server(cls):
        cls.recording = Recordings.make()[1]
        return super().start_server()

    def test_slow_shaky_gestures_get_a_scale_and_the_tremor_filter_with_why(self):
        self.wait_measured(5, 1, 1)
        taps = self.rows('taps')
        longest = max(float(t['Duration'].split()[0]) for t in taps)
        self.assertGreater(longest, 0.2, 'the taps, 2.5 times as long')
        pauses = [float(t['Pause before'].split()[0]) for t in taps if t['Pause before'] != 'none']
        self.assertTrue(pauses, 'the pauses between the taps measured')
        for tap in taps:
            self.assertGreater(float(tap['Wobble'].split()[0]), TREMOR_MM, f'a 1 mm tremor: {tap}')
        swipe = self.rows('swipes')[0]
        self.assertGreater(float(swipe['Wobble'].split()[0]), TREMOR_MM, swipe)
        self.assertEqual(self.rows('holds')[0]['Duration'], '2.06 s')
        # The smallest scale under which every tap and pause passes with the margin.
        worst = max(MARGIN * longest / 0.3, MARGIN * max(pauses) / 0.35)
        scale = next(s for s in SCALES if s >= worst - 1e-9)
        self.assertGreater(scale, 1)
        said = self.text('#a11y-scale-said')
        self.assertEqual(said, f'Suggested timing scale: ×{scale:g}.')
        why = self.text('#a11y-scale-why')
        self.assertRegex(why, r'^Your longest (tap lasted|pause between two taps was) [\d.]+ s; ')
        self.assertEqual(self.text('#a11y-tremor-said'), 'Tremor filter: suggested.')
        self.assertRegex(self.text('#a11y-tremor-why'), r'^Your fingers wobbled [\d.]+ mm around the path they were taking, more than the 0\.50 mm')
        # The defaults beside the figures, and the config's own value, not scaled.
        own = "double-tap-1's own (not scaled)"
        taps_limits = self.wait(lambda b: (rows := self.threshold_rows('taps')) and own in rows and rows, 'the config\'s own values read')
        self.assertEqual(taps_limits['Default']['Duration'], '≤ 0.30 s')
        self.assertEqual(taps_limits['Default']['Pause before'], '≤ 0.35 s')
        self.assertEqual(taps_limits[f'At ×{scale:g} (suggested)']['Duration'], f'≤ {0.3 * scale:.2f} s')
        self.assertEqual(taps_limits[own]['Pause before'], '≤ 0.40 s')
        self.assertEqual(self.threshold_rows('swipes')['Default']['Speed'], '≥ 50 mm/s')
        self.assertEqual(self.threshold_rows('holds')['Default']['Duration'], '≥ 0.50 s')
        self.screenshot('a11y-shaky', showing='#a11y-title')
        self.screenshot('a11y-shaky-suggestion', showing='#a11y-apply')

    def test_the_panel_reads_in_both_themes_and_is_reached_by_keyboard(self):
        self.wait_measured(5, 1, 1)
        for dark in (False, True):
            if dark:
                self.emulate(dark=True)
            ratio, worst = self.browser.execute_script(CONTRAST)
            self.assertGreaterEqual(ratio, 4.5, f'the panel\'s text on its background{" (dark)" if dark else ""}: {worst}')
            self.screenshot(f'a11y-shaky{"-dark" if dark else ""}-contrast', showing='#a11y-swipes')
        # On a phone's width the tables scroll sideways in their own box, which the keyboard reaches.
        width = self.sized(400, 800)
        self.assertLessEqual(self.browser.execute_script('return document.documentElement.scrollWidth'), width, 'no page-wide scrolling')
        self.screenshot('a11y-shaky-400px', showing='#a11y-taps')
        headers = self.browser.execute_script(
            "return [...document.querySelectorAll('.a11y-panel table')].map((t) => ["
            "t.querySelector('caption') !== null, [...t.querySelectorAll('thead th')].every((h) => h.scope === 'col'),"
            "[...t.querySelectorAll('tbody th, tfoot th')].every((h) => h.scope === 'row')])")
        self.assertEqual(headers, [[True, True, True]] * 3, 'each table: a caption, column and row headers')
        self.assertEqual(self.browser.execute_script(
            "return [...document.querySelectorAll('.a11y-panel h2, .a11y-panel h3')].map((h) => h.textContent)"),
            ['Accessibility', 'Taps', 'Holds', 'Swipes', 'Suggested'])
        # From the scale's list, Tab reaches the checkbox and then Apply; each has its label.
        self.element('#a11y-scale').click()
        self.press(Keys.ESCAPE)
        stops = [self.browser.execute_script('return document.activeElement.id')]
        for _ in range(2):
            self.press(Keys.TAB)
            stops.append(self.browser.execute_script('return document.activeElement.id'))
        self.assertEqual(stops, ['a11y-scale', 'a11y-tremor', 'a11y-apply'])
        self.assertEqual(self.browser.execute_script(
            "return [...document.querySelector('#a11y-scale').labels].map((l) => l.textContent.trim())"), ['Timing scale'])
        self.assertEqual(self.browser.execute_script(
            "return [...document.querySelector('#a11y-tremor').labels].map((l) => l.textContent.trim())"), ['Tremor filter'])

    def test_the_defaults_shown_are_the_engines(self):
        """The page's table of defaults (the form says only "recognizer's") against the
        engine's own words: `replay --explain` on touches made to miss each one, with
        gestures that set none, names the default each missed."""
        header, _ = joined(PARTS[:1])
        recording = one_finger(os.path.join(Recordings.make() and Recordings.dir, 'misses.events'), header, units_per_mm(PARTS[0]), [
            (0.0, 0.05, (60, 40), (60, 40)), (0.5, 0.05, (60, 40), (60, 40)),   # a pause of 0.44 s
            (2.0, 0.5, (60, 40), (60, 40)),                                     # a touch of 0.5 s
            (4.0, 1.0, (60, 30), (60, 70)),                                     # a stroke at 40 mm/s
            (6.0, 0.8, (60, 40), (60, 47))])                                    # a press that moves 7 mm
        with open(os.path.join(Recordings.dir, 'defaults.yaml'), 'w') as f:
            f.write('gestures:\n'
                    '  - {name: double-tap, gesture: tap, fingers: 1, taps: 2, command: echo}\n'
                    '  - {name: hold, gesture: hold, fingers: 1, command: echo}\n'
                    '  - {name: swipe, gesture: swipe, fingers: 1, direction: down, command: echo}\n')
            config = f.name
        said = gestured('replay', recording, '--config', config, '--explain')
        engine = {
            ('taps', 'Duration'): re.search(r'double-tap failed: still down after ([\d.]+) s, too long for a tap', said),
            ('taps', 'Pause before'): re.search(r'double-tap failed: the next tap did not come within ([\d.]+) s', said),
            ('taps', 'Moved'): re.search(r'double-tap failed: moved [\d.]+ mm, allows ([\d.]+) mm', said),
            ('holds', 'Duration'): re.search(r'hold failed: lifted after [\d.]+ s, needs ([\d.]+) s', said),
            ('holds', 'Moved'): re.search(r'hold failed: moved [\d.]+ mm, allows ([\d.]+) mm', said),
            ('swipes', 'Speed'): re.search(r'swipe failed: moved at [\d.]+ mm/s, needs ([\d.]+) mm/s', said),
        }
        self.wait_measured(5, 1, 1)
        for (kind, column), m in engine.items():
            self.assertIsNotNone(m, f'the engine names its default for {kind} {column}:\n{said}')
            shown = self.threshold_rows(kind)['Default'][column]
            self.assertAlmostEqual(self.number(shown), float(m[1]), places=6, msg=f'{kind} {column}: the page shows {shown}')

    def test_apply_writes_the_choice_under_settings_accessibility_keeping_the_rest(self):
        self.wait_measured(5, 1, 1)
        self.wait(lambda b: self.text('#a11y-tremor-said') == 'Tremor filter: suggested.', 'the suggestion')
        scale = self.element('#a11y-scale').get_property('value')
        self.assertNotEqual(scale, '1')
        self.assertTrue(self.element('#a11y-tremor').get_property('checked'))
        self.element('#a11y-apply').click()
        self.wait(lambda b: 'accessibility:' in self.element('#editor').get_property('value'), 'the profile in the editor')
        text = self.element('#editor').get_property('value')
        expected = self.original.replace(
            'settings:\n  command-timeout: 5s   # kept as it is\n',
            f'settings:\n  command-timeout: 5s   # kept as it is\n  accessibility:\n    timing-scale: {scale}\n    tremor-filter: true\n')
        self.assertEqual(text, expected)
        # What Apply writes is a config gestured takes, as the editor's check says; the
        # double tap's own max-interval is noted as taken as written, not scaled.
        self.wait(lambda b: 'overrides settings.accessibility.timing-scale' in self.text('#diagnostics'), 'the applied profile checked')
        self.assertEqual(self.element('#check-status').get_attribute('data-ok'), 'true', self.text('#check-status'))
        self.assertIn(f'max-interval: 400ms overrides settings.accessibility.timing-scale ({scale}x would make it', self.text('#diagnostics'))
        self.assertIn('Save to use it', self.text('#a11y-applied'))
        self.assertEqual(self.element('#config-path').get_attribute('data-modified'), 'true', 'not saved: Save is the user\'s')
        with open(self.config) as f:
            self.assertEqual(f.read(), self.original, 'the file untouched until Save')
        # A second choice replaces the values in place, by keyboard alone.
        self.element('#a11y-scale').send_keys(Keys.END)
        self.wait(lambda b: self.element('#a11y-scale').get_property('value') == '4', 'the largest scale chosen')
        self.element('#a11y-tremor').send_keys(' ')
        self.assertFalse(self.element('#a11y-tremor').get_property('checked'))
        self.press(Keys.TAB)
        self.assertEqual(self.browser.execute_script('return document.activeElement.id'), 'a11y-apply', 'Apply next after the checkbox')
        self.press(' ')
        self.wait(lambda b: 'tremor-filter: false' in self.element('#editor').get_property('value'), 'the second choice')
        self.assertEqual(self.element('#editor').get_property('value'),
                         expected.replace(f'timing-scale: {scale}', 'timing-scale: 4').replace('tremor-filter: true', 'tremor-filter: false'))
        self.screenshot('a11y-applied', showing='#editor')


class LiveGesturesTests(PanelPage, FakePadPageTest):
    """Live, on a daemon's fake touchpad: the panel measures the touches of the stream
    as they come (the path the cards take), not only a recording's."""
    config_file = 'accessibility.yaml'

    def test_live_taps_and_a_swipe_are_measured_as_they_come(self):
        self.wait_measured(0, 0, 0, where='Live, from your touches')
        self.assertEqual(self.text('#a11y-scale-said'), 'Suggested timing scale: none yet.')
        self.assertTrue(self.element('#a11y-apply').get_property('disabled'), 'nothing to apply yet')
        # Three taps of 80 ms, 150 ms apart, written at 100 frames a second.
        s = FakePad.Stamped(ago=0.8)
        for _ in range(3):
            s.land(0, 50, 30)
            s.tool(0, 1)
            s.frame(0.01)
            for _ in range(7):
                s.move(0, 50.1, 30)
                s.frame(0.01)
            s.lift(0)
            s.tool(1, 0)
            s.frame(0.15)
        self.daemon.pad.write(s)
        self.wait_measured(3, 0, 0, where='Live, from your touches')
        for tap in self.rows('taps'):
            self.assertAlmostEqual(float(tap['Duration'].split()[0]), 0.08, delta=0.011, msg=tap)
        self.assertEqual([t['Pause before'] for t in self.rows('taps')][:2], ['0.15 s', '0.15 s'])
        # A swipe of 60 mm in 0.3 s.
        self.daemon.pad.one_finger_path([(20, 30), (80, 30)], seconds=0.3)
        self.wait_measured(3, 0, 1, where='Live, from your touches')
        swipe = self.rows('swipes')[0]
        self.assertEqual(swipe['Distance'], '60.0 mm')
        self.assertGreater(float(swipe['Speed'].split()[0]), MARGIN * 50)
        self.assertEqual(self.text('#a11y-scale-said'), 'Suggested timing scale: ×1 (none needed).')
        self.assertEqual(self.text('#a11y-tremor-said'), 'Tremor filter: not needed.')
        self.screenshot('a11y-live', showing='#a11y-title')


# The lowest contrast ratio (WCAG 2) of the panel's text on what is behind it (the first
# ancestor with a background colour), and which text it is.
CONTRAST = """
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const norm = (v) => v.map((x, i) => (i < 3 && v.slice(0, 3).some((y) => y > 1) ? x / 255 : x));
  const lum = (c) => c.slice(0, 3).map((x) => (x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4))
                      .reduce((s, x, i) => s + x * [0.2126, 0.7152, 0.0722][i], 0);
  const behind = (e) => {
    for (; e; e = e.parentElement) {
      const c = norm(rgb(getComputedStyle(e).backgroundColor));
      if (c.length >= 3 && (c.length < 4 || c[3] > 0)) return c;
    }
    return [1, 1, 1];
  };
  let worst = [Infinity, ''];
  const texts = document.querySelectorAll('.a11y-panel :is(h2, h3, p, strong, span, caption, th, td, label, button, select)');
  for (const e of texts) {
    if (!e.textContent.trim() || e.offsetParent === null) continue;
    const [a, b] = [lum(norm(rgb(getComputedStyle(e).color))), lum(behind(e))].sort((x, y) => y - x);
    const ratio = (a + 0.05) / (b + 0.05);
    if (ratio < worst[0]) worst = [ratio, `${e.tagName} ${e.textContent.trim().slice(0, 40)}`];
  }
  return worst;
"""


load_tests = per_browser(globals())
