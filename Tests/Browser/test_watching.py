"""Watching a gesture happen (issue 38, item 3): the transport bar stays in view, plays
slower and loops; ticks on the scrubber at the gesture events; cards listed fired
first, `--detect`'s failures folded; a flash on recognition (a still highlight with
reduced motion); the centroid's path with its Δ, a pinch's circles and a rotation's
arc on the device; fingers at least 10 px; each step of a stepped pan. Checked against
what `gestured replay` says of the same files.

Play runs on the page's clock, performance.now() and requestAnimationFrame: the tests
replace both with a virtual clock they advance by hand, so no assertion waits on time.
"""
import json
import os
import re
import tempfile
import unittest

from harness import (RECORDINGS, SWIPE_DOWN, SWIPES_CONFIG, FakePadPageTest, Keys, PageTest, Replay, UiServer, gestured,
                     per_browser, relative)

DRAG_UP_DOWN = os.path.join(RECORDINGS, 'touchscreens_Atmel_maXTouch_Touchscreen.1-finger-drag-up-down.events')

STEPPED_PAN = """\
gestures:
  - name: scroll-steps
    gesture: pan
    fingers: 1
    axis: vertical
    every: 10mm
    update: echo step
"""

TWO_FINGER_MEASURES = """\
gestures:
  - name: zoom
    gesture: pinch
    fingers: 2
    update: echo zoom
  - name: turn
    gesture: rotate
    fingers: 2
    update: echo turn
"""

# The page's clock made a virtual one: performance.now() reads it, and the animation
# frames it asks for run when the test advances it, 16 ms a frame.
VIRTUAL_CLOCK = """
  let now = performance.now(), next = 1;
  const waiting = new Map();
  Object.defineProperty(performance, 'now', { configurable: true, value: () => now });
  window.requestAnimationFrame = (callback) => { waiting.set(next, callback); return next++; };
  window.cancelAnimationFrame = (id) => { waiting.delete(id); };
  window.advanceClock = (ms) => {
    for (let left = ms; left > 0; left -= 16) {
      now += Math.min(16, left);
      const due = [...waiting.values()];
      waiting.clear();
      due.forEach((callback) => callback(now));
    }
  };
"""


def atmel_recording(path, positions):
    """An evemu recording on the Atmel touchscreen's header (800 × 480 units, 294 mm
    wide as estimated): `positions` is a list of frames 15 ms apart, each a list of
    (x, y) in device units, one per slot; the last frame lifts every finger."""
    with open(SWIPE_DOWN) as f:
        header = [line for line in f if not line.startswith('E:')]
    lines = list(header)
    t = 0.001
    for k, frame in enumerate(positions):
        for slot, (x, y) in enumerate(frame):
            lines.append(f'E: {t:.6f} 0003 002f {slot:04d}\n')
            if k == 0:
                lines.append(f'E: {t:.6f} 0003 0039 {slot + 40:04d}\n')
            lines.append(f'E: {t:.6f} 0003 0035 {round(x):04d}\n')
            lines.append(f'E: {t:.6f} 0003 0036 {round(y):04d}\n')
        if k == 0:
            lines.append(f'E: {t:.6f} 0001 014a 0001\n')
        lines.append(f'E: {t:.6f} 0000 0000 0000\n')
        t += 0.015
    for slot in range(len(positions[-1])):
        lines.append(f'E: {t:.6f} 0003 002f {slot:04d}\n')
        lines.append(f'E: {t:.6f} 0003 0039 -001\n')
    lines.append(f'E: {t:.6f} 0001 014a 0000\n')
    lines.append(f'E: {t:.6f} 0000 0000 0000\n')
    with open(path, 'w') as f:
        f.writelines(lines)


def two_fingers(radius, degrees):
    """Two fingers opposite each other about the screen's centre."""
    import math
    a = math.radians(degrees)
    return [(400 + radius * math.cos(a), 240 + radius * math.sin(a)),
            (400 - radius * math.cos(a), 240 - radius * math.sin(a))]


class WatchingPage(PageTest):
    """What the tests of a replayed recording share."""

    def go_to_frame(self, index):
        self.browser.execute_script("""
            const s = document.getElementById('scrubber');
            s.value = String(arguments[0]);
            s.dispatchEvent(new Event('input'));""", index)
        self.wait(lambda b: self.text('#frame-label').startswith(f'Frame {index + 1} of '), f'frame {index + 1} shown')

    def shown_time(self):
        return float(re.search(r'· ([0-9.]+) s ·', self.text('#frame-label'))[1])

    def in_view(self, css):
        """Whether the element's box lies wholly inside the window, as the page is scrolled now."""
        return self.browser.execute_script("""
            const r = document.querySelector(arguments[0]).getBoundingClientRect();
            return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;""", css)

    def card_order(self):
        """The cards' names as listed (the folded row's not among them)."""
        return [c.get_attribute('data-gesture') for c in self.elements('#cards > article.card') if c.is_displayed()]

    def sized(self, width, height):
        """The window resized to a viewport of width × height CSS px (the browser's own
        bars are added), back to the harness's 1400 × 1000 after the test.
        Headless Firefox makes no window narrower than 500 px: there, 400 is 500."""
        if self.browser_name == 'firefox':
            width = max(width, 500)
        self.browser.set_window_size(width, height)
        inner = self.browser.execute_script('return [innerWidth, innerHeight]')
        self.browser.set_window_size(2 * width - inner[0], 2 * height - inner[1])
        self.addCleanup(self.browser.set_window_size, 1400, 1000)
        try:
            self.wait(lambda b: b.execute_script('return innerWidth === arguments[0] && innerHeight === arguments[1]', width, height),
                      f'a {width} × {height} viewport', timeout=5)
        except Exception:
            raise AssertionError(f'asked for {width} × {height}, got {self.browser.execute_script("return [innerWidth, innerHeight]")}')
        return width

    def emulate(self, reduced_motion=False, dark=False):
        """prefers-reduced-motion and prefers-color-scheme as a user's settings give them."""
        if self.browser_name == 'chromium':
            features = [{'name': 'prefers-reduced-motion', 'value': 'reduce' if reduced_motion else ''},
                        {'name': 'prefers-color-scheme', 'value': 'dark' if dark else ''}]
            self.browser.execute_cdp_cmd('Emulation.setEmulatedMedia', {'features': features})
        else:
            self.browser.execute_chrome_script("""
                Services.prefs.setIntPref('ui.prefersReducedMotion', arguments[0] ? 1 : 0);
                Services.prefs.setIntPref('layout.css.prefers-color-scheme.content-override', arguments[1] ? 0 : 1);""",
                                               reduced_motion, dark)
        self.addCleanup(self._emulate_nothing)
        self.wait(lambda b: b.execute_script("return matchMedia('(prefers-reduced-motion: reduce)').matches === arguments[0]"
                                             " && matchMedia('(prefers-color-scheme: dark)').matches === arguments[1]",
                                             reduced_motion, dark), 'the media emulated')

    def _emulate_nothing(self):
        if self.browser_name == 'chromium':
            self.browser.execute_cdp_cmd('Emulation.setEmulatedMedia', {'features': []})
        else:
            self.browser.execute_chrome_script("""
                Services.prefs.clearUserPref('ui.prefersReducedMotion');
                Services.prefs.clearUserPref('layout.css.prefers-color-scheme.content-override');""")


class SwipeWatchingTests(WatchingPage):
    """The four-finger swipe down on the Atmel touchscreen, with the browser tests'
    config turned upside down: the gesture that fires is its last."""

    @classmethod
    def start_server(cls):
        with open(SWIPES_CONFIG) as f:
            text = f.read()
        head, *gestures = re.split(r'\n(?=  - name:)', text)
        cls.config = os.path.join(tempfile.mkdtemp(prefix='gestured-watching-'), 'swipes-reversed.yaml')
        with open(cls.config, 'w') as f:
            f.write('\n'.join([head, *reversed([g.rstrip() + '\n' for g in gestures])]))
        cls.truth = Replay(SWIPE_DOWN, cls.config)
        return UiServer('--replay', relative(SWIPE_DOWN), '--config', cls.config, name='ui-watching', logs=cls.logs)

    def setUp(self):
        super().setUp()
        self.wait(lambda b: self.element('#scrubber').get_attribute('max') == str(len(self.truth.frames) - 1),
                  'the recording loaded')
        self.swipe = next(g for g in self.truth.gestures if g['gesture'] == 'swipe-down-4')
        self.swipe_frame = self.truth.frame_at(self.swipe['time'])

    def test_the_transport_stays_in_view_at_1400x900_and_400x800(self):
        for width, height in ((1400, 900), (400, 800)):
            width = self.sized(width, height)
            self.browser.execute_script('window.scrollTo(0, 0)')
            self.assertTrue(self.browser.execute_script(
                'return document.documentElement.scrollWidth <= document.documentElement.clientWidth'), 'nothing scrolls sideways')
            for control in ('#play', '#scrubber', '#frame-prev', '#frame-next', '#loop'):
                self.assertTrue(self.in_view(control), f'{control} in view at {width} × {height}, unscrolled')
            self.screenshot(f'transport-{width}x{height}')
            self.browser.execute_script('window.scrollTo(0, document.documentElement.scrollHeight)')
            self.wait(lambda b: b.execute_script('return scrollY > 0'), 'the page scrolled')
            for control in ('#play', '#scrubber'):
                self.assertTrue(self.in_view(control), f'{control} in view at {width} × {height}, scrolled to the end')
            self.screenshot(f'transport-{width}x{height}-scrolled')

    def test_at_a_tenth_of_the_speed_play_goes_a_tenth_as_far_and_loop_starts_over(self):
        self.go_to_frame(0)
        start = self.shown_time()
        self.browser.execute_script(VIRTUAL_CLOCK)
        self.element('input[name="speed"][value="0.1"]').click()
        self.element('#play').click()
        self.browser.execute_script('advanceClock(400)')
        slow = self.shown_time() - start
        self.assertLessEqual(slow, 0.04 + 1e-6, '0.4 s at 0.1× plays at most 0.04 s of the recording')
        self.assertGreater(slow, 0, 'and it does play')
        self.element('#play').click()  # pause
        self.go_to_frame(0)
        self.element('input[name="speed"][value="1"]').click()
        self.element('#play').click()
        self.browser.execute_script('advanceClock(400)')
        self.assertGreaterEqual(self.shown_time() - start, 0.35, '0.4 s at 1× plays about 0.4 s of it')
        self.element('#play').click()
        # Loop: past the end, play goes on from the first frame.
        self.element('#loop').click()
        self.go_to_frame(len(self.truth.frames) - 2)
        self.element('#play').click()
        self.browser.execute_script('advanceClock(200)')
        self.assertEqual(self.element('#play').get_attribute('aria-pressed'), 'true', 'still playing after the end')
        self.assertLess(self.shown_time() - start, 0.3, 'back near the start')
        self.element('#play').click()

    def test_a_tick_marks_the_recognized_swipe_and_each_failure_on_the_scrubber(self):
        ticks = self.elements('#ticks .tick[data-marks~="recognized"]')
        frames = [int(t.get_attribute('data-frame')) for t in ticks]
        self.assertIn(self.swipe_frame, frames, 'a recognized tick at the swipe\'s frame')
        tick = ticks[frames.index(self.swipe_frame)]
        self.assertIn('swipe-down-4', tick.get_attribute('aria-label'))
        self.assertIn(f'{self.truth.frames[self.swipe_frame][0]:.3f} s', tick.get_attribute('aria-label'))
        self.assertIn('tick-recognized', tick.get_attribute('class'), 'what fired is what its tick shows')
        failed = ' '.join(t.get_attribute('aria-label') for t in self.elements('#ticks .tick[data-marks~="failed"]'))
        for name in ('hold-3', 'swipe-up-4'):
            self.assertIn(name, failed, f'{name} failed, on a tick of its own kind')
        tick.click()
        self.wait(lambda b: self.text('#frame-label').startswith(f'Frame {self.swipe_frame + 1} of '), 'the tick shows its frame')
        self.assertEqual(self.card('swipe-down-4').get_attribute('data-state'), 'recognized')

    def test_the_ticks_are_one_tab_stop_and_the_arrow_keys_go_from_tick_to_tick(self):
        ticks = self.elements('#ticks .tick')
        self.assertGreater(len(ticks), 2)
        self.assertEqual([t.get_attribute('tabindex') for t in ticks], ['0'] + ['-1'] * (len(ticks) - 1), 'one Tab stop')
        self.element('#scrubber').click()
        self.press(Keys.TAB)
        self.assertEqual(self.browser.switch_to.active_element.get_attribute('aria-label'), ticks[0].get_attribute('aria-label'))
        self.press(Keys.ARROW_RIGHT)
        second = self.browser.switch_to.active_element
        self.assertEqual(second.get_attribute('aria-label'), ticks[1].get_attribute('aria-label'), '→ goes to the next tick')
        self.assertEqual(second.get_attribute('tabindex'), '0')
        self.press(' ')
        frame = int(ticks[1].get_attribute('data-frame'))
        self.wait(lambda b: self.text('#frame-label').startswith(f'Frame {frame + 1} of '), 'Space shows the tick\'s frame')

    def test_the_fired_card_is_listed_first_and_the_failed_last(self):
        rank = {'recognized': 0, 'ended': 0, 'began': 1, 'changed': 1, 'waiting': 1, 'possible': 2, 'failed': 3, 'cancelled': 3}
        for index in range(len(self.truth.frames)):
            self.go_to_frame(index)
            states = [self.card(n).get_attribute('data-state') for n in self.card_order()]
            self.assertEqual([rank[s] for s in states], sorted(rank[s] for s in states), f'listed by state at frame {index + 1}: {states}')
            if index == self.swipe_frame:
                self.assertEqual(self.card_order()[0], 'swipe-down-4', 'the fired swipe first')

    def test_the_recognized_card_flashes(self):
        self.go_to_frame(self.swipe_frame - 1)
        self.go_to_frame(self.swipe_frame)
        card = self.card('swipe-down-4')
        self.wait(lambda b: 'flash' in card.get_attribute('class').split(), 'the card flashes')
        self.assertNotEqual(self.browser.execute_script('return getComputedStyle(arguments[0]).animationName', card), 'none')
        self.screenshot('flash')

    def test_with_reduced_motion_the_recognized_card_is_highlighted_not_flashed(self):
        self.emulate(reduced_motion=True)
        self.go_to_frame(self.swipe_frame - 1)
        self.go_to_frame(self.swipe_frame)
        card = self.card('swipe-down-4')
        self.wait(lambda b: 'highlight' in card.get_attribute('class').split(), 'the card highlighted')
        self.assertNotIn('flash', card.get_attribute('class').split())
        self.assertEqual(self.browser.execute_script('return getComputedStyle(arguments[0]).animationName', card), 'none')
        self.assertNotEqual(self.browser.execute_script('return getComputedStyle(arguments[0]).outlineStyle', card), 'none')
        self.screenshot('reduced-motion-highlight')

    def test_the_device_shows_the_centroids_path_and_the_swipes_delta(self):
        self.go_to_frame(self.swipe_frame)
        path = self.wait(lambda b: self.element('svg.device polyline.centroid-path'), 'the centroid\'s path drawn')
        points = path.get_dom_attribute('points').split()
        self.assertGreater(len(points), 2, 'the centroid\'s path over the four-finger frames')
        ys = [float(p.split(',')[1]) for p in points]
        self.assertGreater(ys[-1], ys[0], 'it goes down, as the swipe did')
        delta = self.element('svg.device line.delta')
        shown = (delta.get_dom_attribute('data-dx'), delta.get_dom_attribute('data-dy'))
        self.assertEqual(tuple(s.replace('−', '-') for s in shown), (f'{self.swipe["dx_mm"]:.1f}', f'{self.swipe["dy_mm"]:.1f}'))
        self.assertIn(f'Δ({self.swipe["dx_mm"]:.1f}, {self.swipe["dy_mm"]:.1f}) mm'.replace('-', '−'),
                      self.text('svg.device .delta-label'))

    def test_fingers_are_at_least_10_px_with_ids_in_contrast_in_both_themes(self):
        index = self.truth.first_frame_with(4)
        for width, height, dark in ((1400, 900, False), (400, 800, False), (1400, 900, True), (400, 800, True)):
            width = self.sized(width, height)
            if dark:
                self.emulate(dark=True)
            self.go_to_frame(index)
            self.wait(lambda b: len(self.elements('svg.device circle.contact')) == 4, 'four contacts')
            radii = self.browser.execute_script(
                "return [...document.querySelectorAll('svg.device circle.contact')].map((c) => c.getBoundingClientRect().width / 2)")
            self.assertGreaterEqual(min(radii), 10 - 0.01, f'radius in px at {width} × {height}: {radii}')
            # By selector, in one step: the figure may redraw between finding and reading.
            ratio = self.browser.execute_script(CONTRAST, 'svg.device circle.contact', 'svg.device text.contact-id')
            self.assertGreaterEqual(ratio, 4.5, f'the id\'s contrast on its disc{" (dark)" if dark else ""}')
            self.go_to_frame(self.swipe_frame)
            self.screenshot(f'fingers-{width}x{height}{"-dark" if dark else ""}')


# The contrast ratio (WCAG 2) of a text's fill on a disc's (the first of each selector), both from computed styles
# (rgb() or color(srgb …)), the disc's opacity laid over the page's surface colour.
CONTRAST = """
  const [disc, text] = [document.querySelector(arguments[0]), document.querySelector(arguments[1])];
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const norm = (v) => v.map((x, i) => (i < 3 && v.some((y) => y > 1) ? x / 255 : x));
  const surface = norm(rgb(getComputedStyle(document.querySelector('svg.device .surface')).fill));
  const fill = norm(rgb(getComputedStyle(disc).fill));
  const alpha = Number(getComputedStyle(disc).fillOpacity);
  const back = fill.slice(0, 3).map((x, i) => x * alpha + surface[i] * (1 - alpha));
  const fore = norm(rgb(getComputedStyle(text).fill)).slice(0, 3);
  const lum = (c) => c.map((x) => (x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4))
                      .reduce((s, x, i) => s + x * [0.2126, 0.7152, 0.0722][i], 0);
  const [a, b] = [lum(back), lum(fore)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
"""


class DetectWatchingTests(WatchingPage):
    """The swipe with no config file: every kind is tried, as `replay --detect` does,
    and the failures fold into one row."""

    @classmethod
    def start_server(cls):
        cls.home = tempfile.mkdtemp(prefix='gestured-watching-')
        env = dict(os.environ, HOME=cls.home, XDG_CONFIG_HOME=os.path.join(cls.home, 'config'))
        return UiServer('--replay', relative(SWIPE_DOWN), env=env, name='ui-watching-detect', logs=cls.logs)

    def setUp(self):
        super().setUp()
        self.truth = Replay(SWIPE_DOWN, None)
        self.wait(lambda b: self.element('#scrubber').get_attribute('max') == str(len(self.truth.frames) - 1),
                  'the recording loaded')

    def test_what_fired_comes_first_and_the_failed_kinds_fold_into_one_row(self):
        fired = [g for g in self.truth.gestures if g['phase'] in ('recognized', 'began')]
        self.assertTrue(fired, '--detect finds the swipe')
        index = self.truth.frame_at(fired[0]['time'])
        self.go_to_frame(max(i for i, (_, n) in enumerate(self.truth.frames) if n > 0))
        summary = self.element('#failed-kinds summary')
        failed = len(self.elements('#failed-kinds article.card[data-state="failed"]'))
        self.assertGreater(failed, 5)
        self.assertEqual(summary.text, f'{failed} kinds failed')
        listed = self.card_order()
        self.assertTrue(all(self.card(n).get_attribute('data-state') != 'failed' for n in listed), 'no failure among the cards listed')
        self.assertIn(self.card(listed[0]).get_attribute('data-state'), ('recognized', 'ended', 'began', 'changed'),
                      'what fired is the first card')
        self.go_to_frame(index)
        self.screenshot('detect-folded')
        self.element('#hide-idle').click()
        self.wait(lambda b: not self.element('#failed-kinds').is_displayed(), 'the filter hides the failures too')
        shown = [c for c in self.elements('article.card') if c.is_displayed()]
        self.assertTrue(all(c.get_attribute('data-state') not in ('failed', 'possible') for c in shown),
                        'only what left possible and did not fail')
        self.element('#hide-idle').click()
        summary.click()
        self.wait(lambda b: self.element('#failed-kinds article.card').is_displayed(), 'the row opened')


class StepWatchingTests(WatchingPage):
    """A one-finger drag up and down, bound as a pan with a step every 10 mm."""

    @classmethod
    def start_server(cls):
        cls.config = os.path.join(tempfile.mkdtemp(prefix='gestured-watching-'), 'steps.yaml')
        with open(cls.config, 'w') as f:
            f.write(STEPPED_PAN)
        return UiServer('--replay', relative(DRAG_UP_DOWN), '--config', cls.config, name='ui-watching-steps', logs=cls.logs)

    def test_each_step_of_a_stepped_pan_is_a_mark_on_the_card_and_a_tick(self):
        lines = [json.loads(l) for l in gestured('replay', DRAG_UP_DOWN, '--config', self.config, '--json').splitlines()
                 if l.startswith('{')]
        steps = [g for g in lines if g['phase'] == 'changed' and g['commands']]
        self.assertGreater(len(steps), 3, 'replay runs update once a step')
        truth = Replay(DRAG_UP_DOWN, self.config)
        self.wait(lambda b: self.element('#scrubber').get_attribute('max') == str(len(truth.frames) - 1), 'loaded')
        self.assertEqual(len(self.elements('#ticks .tick[data-marks~="step"]')), len({truth.frame_at(s['time']) for s in steps}),
                         'a tick at each frame a step was crossed on')
        last = max(i for i, (_, n) in enumerate(truth.frames) if n > 0)
        self.go_to_frame(last)
        card = self.card('scroll-steps')
        marks = card.find_elements('css selector', '.step-marks .step-mark')
        self.assertEqual(len(marks), min(len(steps), 24), 'a mark per step on the card')
        self.assertRegex(card.find_element('css selector', '.state').text, r'· step −?\d+$')
        middle = truth.frame_at(steps[2]['time'])
        self.go_to_frame(middle)
        self.wait(lambda b: len(card.find_elements('css selector', '.step-mark')) == 3, 'three marks at the third step')
        self.screenshot('steps')


class TwoFingerMeasureTests(WatchingPage):
    """Made-up recordings on the Atmel screen: two fingers spread apart (a pinch), and
    two fingers turned a quarter round (a rotation)."""

    @classmethod
    def start_server(cls):
        where = tempfile.mkdtemp(prefix='gestured-watching-')
        cls.config = os.path.join(where, 'measures.yaml')
        with open(cls.config, 'w') as f:
            f.write(TWO_FINGER_MEASURES)
        cls.pinch = os.path.join(where, 'pinch.events')
        atmel_recording(cls.pinch, [two_fingers(60 + 3 * k, 30) for k in range(40)])
        cls.turn = os.path.join(where, 'turn.events')
        atmel_recording(cls.turn, [two_fingers(120, 2.5 * k) for k in range(40)])
        return UiServer('--replay', cls.pinch, '--config', cls.config, name='ui-watching-measures', logs=cls.logs)

    def last_touching_frame(self, truth):
        return max(i for i, (_, n) in enumerate(truth.frames) if n > 0)

    def test_a_pinch_draws_its_circle_now_and_where_it_started_with_its_scale(self):
        truth = Replay(self.pinch, self.config)
        zoom = [g for g in truth.gestures if g['gesture'] == 'zoom']
        self.assertTrue(zoom, 'the made-up pinch is recognized')
        self.wait(lambda b: self.element('#scrubber').get_attribute('max') == str(len(truth.frames) - 1), 'loaded')
        index = self.last_touching_frame(truth)
        self.go_to_frame(index)
        # The figure is redrawn at the next animation frame.
        now = self.wait(lambda b: self.element('svg.device circle.pinch-now'), 'the pinch\'s circle drawn')
        start = self.element('svg.device circle.pinch-start')
        scale = float(now.get_dom_attribute('data-scale'))
        self.assertGreater(scale, 1.5, 'spread apart')
        self.assertAlmostEqual(float(now.get_dom_attribute('r')) / float(start.get_dom_attribute('r')), scale, delta=0.01)
        self.assertIn(f'×{scale:.2f}', self.text('svg.device .scale-label'))
        self.screenshot('pinch')

    def test_a_rotation_draws_its_arc_with_its_degrees(self):
        truth = Replay(self.turn, self.config)
        turns = [g for g in truth.gestures if g['gesture'] == 'turn']
        self.assertTrue(turns, 'the made-up rotation is recognized')
        self.element('#recording-file').send_keys(self.turn)
        self.wait(lambda b: self.text('#recording-status').startswith('turn.events: '), 'the turn opened')
        index = self.last_touching_frame(truth)
        self.go_to_frame(index)
        card_values = self.card_values(self.card('turn'))
        arc = self.wait(lambda b: self.element('svg.device path.rotation-arc'), 'the rotation\'s arc drawn')
        degrees = float(arc.get_dom_attribute('data-degrees').replace('−', '-'))
        self.assertGreater(abs(degrees), 45, 'about a quarter turn')
        self.assertEqual(card_values['Rotation'], arc.get_dom_attribute('data-degrees') + '°', 'the card and the arc agree')
        self.assertRegex(arc.get_dom_attribute('d'), r'^M[-\d.]+,[-\d.]+ A')
        self.assertIn(card_values['Rotation'], self.text('svg.device .rotation-label'))
        self.screenshot('rotation')


class LiveStepTests(FakePadPageTest):
    """Live, on the fake touchpad of a real daemon: a three-finger pan stepped every 5 mm."""
    ui_name = 'ui-watching-live'
    config_text = (STEPPED_PAN.replace('fingers: 1', 'fingers: 3').replace('axis: vertical', 'axis: horizontal')
                   .replace('every: 10mm', 'every: 5mm'))

    def test_each_step_of_a_live_pan_is_a_mark_and_the_figure_shows_its_delta(self):
        self.daemon.pad.three_fingers(dx_mm=-40, lift=False)
        card = self.card('scroll-steps')
        self.wait(lambda b: self.card_values(card).get('Step', '0') not in ('0', ''), 'steps crossed')
        self.wait(lambda b: len(self.elements('svg.device line.delta')) == 1, 'the Δ drawn over the fingers')
        step = int(self.card_values(card)['Step'].replace('−', '-'))
        self.assertLessEqual(step, -4, '40 mm to the left at 5 mm a step, less the pan\'s start')
        marks = [m.text for m in card.find_elements('css selector', '.step-marks .step-mark')]
        self.assertEqual(marks, [str(k).replace('-', '−') for k in range(-1, step - 1, -1)], 'a mark per step, in order')
        self.assertTrue(card.find_element('css selector', '.state').text.endswith(f'· step {step}'.replace('-', '−')))
        self.screenshot('live-steps')
        self.daemon.pad.three_fingers(dx_mm=0)


load_tests = per_browser(globals())

if __name__ == '__main__':
    unittest.main()
