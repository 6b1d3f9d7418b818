"""The page on `gestured ui --replay` of a real touchscreen recording (a four-finger
swipe down), checked against what `gestured replay` says of the same file."""
import os
import re
import shutil
import tempfile
import unittest

from harness import (RECORDINGS, ROOT, SWIPE_DOWN, SWIPES_CONFIG, TWO_FINGER_TAP, Keys, OwnConfigCopy, PageTest, Replay, UiServer,
                     per_browser, relative)


class ReplayPageTests(PageTest):
    truth = Replay(SWIPE_DOWN, SWIPES_CONFIG)

    @classmethod
    def start_server(cls):
        return UiServer('--replay', relative(SWIPE_DOWN), '--config', relative(SWIPES_CONFIG), name='ui-replay',
                        logs=cls.logs)

    def setUp(self):
        super().setUp()
        self.wait(lambda b: b.find_element('id', 'scrubber').get_attribute('max') == str(len(self.truth.frames) - 1),
                  'the scrubber spans every frame of the recording')

    def go_to_frame(self, index):
        """Home, then one arrow press per frame: the scrubber as a keyboard user moves it."""
        scrubber = self.element('#scrubber')
        scrubber.send_keys(Keys.HOME)
        scrubber.send_keys(*([Keys.ARROW_RIGHT] * index))
        self.wait(lambda b: self.text('#frame-label').startswith(f'Frame {index + 1} of '), f'frame {index + 1} shown')

    def last_touching_frame(self):
        """After the lift every recognizer is possible again, as in UIKit; the frame
        before it shows how each one ended."""
        return max(i for i, (_, n) in enumerate(self.truth.frames) if n > 0)

    def test_at_a_frame_the_page_shows_as_many_contacts_as_the_recording_has_fingers(self):
        for fingers in (1, 3, 4):
            index = self.truth.first_frame_with(fingers)
            self.go_to_frame(index)
            self.wait(lambda b: len(self.elements('svg.device circle.contact')) == fingers,
                      f'{fingers} contacts drawn at frame {index + 1}')
            self.assertEqual(self.text('#finger-count'), f'{fingers} finger{"s" if fingers > 1 else ""}')
            t = self.truth.frames[index][0]
            self.assertIn(f'{t:.3f} s', self.text('#frame-label'))
        ids = sorted(int(c.get_attribute('data-id')) for c in self.elements('circle.contact'))
        self.assertEqual(len(set(ids)), 4, 'each contact has its own id')

    def test_the_device_is_drawn_to_scale(self):
        viewbox = self.element('svg.device').get_dom_attribute('viewBox').split()
        surface = self.element('svg.device rect.surface')
        width, height = float(surface.get_dom_attribute('width')), float(surface.get_dom_attribute('height'))
        self.assertGreater(width, 100, 'the Atmel screen is wider than 100 mm')
        self.assertGreater(width / height, 1.2, 'a landscape screen')
        self.assertEqual(len(viewbox), 4)
        # The left-edge gesture's zone is shaded along the left edge.
        zone = self.element('svg.device rect.zone[data-gesture="left-edge"]')
        self.assertEqual(float(zone.get_dom_attribute('x')), 0)
        self.assertEqual(float(zone.get_dom_attribute('height')), height)

    def test_the_swipe_card_is_recognized_with_the_replays_values_on_the_gestures_frame(self):
        event = next(g for g in self.truth.gestures if g['gesture'] == 'swipe-down-4')
        index = self.truth.frame_at(event['time'])
        self.go_to_frame(index - 1)
        self.assertEqual(self.card('swipe-down-4').get_attribute('data-state'), 'possible')
        self.go_to_frame(index)
        card = self.card('swipe-down-4')
        self.wait(lambda b: card.get_attribute('data-state') == 'recognized', 'the swipe card recognized')
        self.assertEqual(card.find_element('css selector', '.state').text.split()[-1], 'recognized')
        values = card.find_element('css selector', '.values').text
        self.assertIn(f'({event["dx_mm"]:.1f}, {event["dy_mm"]:.1f}) mm', values)
        self.assertIn(f'{event["vy_mm_s"]:.0f}) mm/s', values)
        self.assertIn('swipe-down-4 · recognized', self.text('#timeline'))
        self.docs_screenshot()
        # The state at the last frame with fingers down is still the one the gesture reached.
        self.go_to_frame(self.last_touching_frame())
        self.assertEqual(self.card('swipe-down-4').get_attribute('data-state'), 'recognized')

    def docs_screenshot(self):
        """The page at the swipe's frame, tall enough for the timeline and the editor:
        docs/ui.png when GESTURED_UI_DOCS_SCREENSHOT is set."""
        self.browser.set_window_size(1400, 1250)
        try:
            self.browser.execute_script('window.scrollTo(0, 0); document.activeElement.blur()')
            self.screenshot('docs-ui')
        finally:
            self.browser.set_window_size(1400, 1000)
        if os.environ.get('GESTURED_UI_DOCS_SCREENSHOT') and self.browser_name == 'chromium':
            shutil.copy(os.path.join(self.logs, 'docs-ui.png'), os.path.join(ROOT, 'docs', 'ui.png'))

    def test_a_failed_recognizer_says_why_in_the_words_of_replay_explain(self):
        self.go_to_frame(self.last_touching_frame())
        for name in ('hold-3', 'swipe-up-4'):
            card = self.card(name)
            self.assertEqual(card.get_attribute('data-state'), 'failed')
            self.assertEqual(card.find_element('css selector', '.state').text.split()[-1], 'failed')
            self.assertEqual(card.find_element('css selector', '.reason').text, self.truth.reasons[name])

    def test_try_lists_what_the_edited_config_would_fire_on_the_recording(self):
        self.element('#try').click()
        self.wait(lambda b: 'swipe-down-4' in self.text('#try-result'), 'the swipe listed as fired')
        self.assertIn('echo swiped down', self.text('#try-result'))
        self.assertNotIn('swipe-up-4', self.text('#try-result'))
        self.assertEqual(self.element('#try').get_attribute('aria-pressed'), 'true')
        self.element('#try').click()
        self.wait(lambda b: self.text('#try-result') == '', 'trying stopped')

    def test_the_error_check_sees_a_csp_refusal_and_an_uncaught_exception(self):
        """What tearDown's assert_no_page_errors relies on, in this browser: an inline
        script the CSP refuses, and an exception nothing catches, both reported."""
        self.browser.execute_script("""
            const script = document.createElement('script');
            script.textContent = 'document.title = "ran"';
            document.body.append(script);
            setTimeout(() => { throw new Error('thrown by the test'); });""")
        seen = []
        self.wait(lambda b: seen.extend(b.console_errors()) or
                  (any(re.search(r'Content.Security.Policy', m) for m in seen) and any('thrown by the test' in m for m in seen)),
                  'both in the console')
        self.assertNotEqual(self.browser.execute_script('return document.title'), 'ran', 'the inline script was refused')

    def test_at_the_end_of_a_long_wide_config_the_line_numbers_and_marks_stay_on_their_lines(self):
        """Scrolled to the bottom right of a config longer and wider than the editor, the
        gutter and the backdrop (the diagnostics' tint and marks) scroll as far as the
        text does, which its scrollbars let go further than they would by themselves."""
        editor = self.element('#editor')
        self.browser.execute_script("""
            const editor = arguments[0];
            editor.value += Array.from({ length: 40 }, (_, i) => `# note ${i} ` + 'x'.repeat(8 * i)).join('\\n') + '\\n';
            editor.dispatchEvent(new Event('input'));""", editor)
        lines = editor.get_property('value').count('\n') + 1
        self.wait(lambda b: len(self.elements('#gutter .gutter-line')) == lines, 'a number per line')
        self.browser.execute_script('arguments[0].scrollTop = arguments[0].scrollHeight; arguments[0].scrollLeft = arguments[0].scrollWidth', editor)
        gutter, backdrop = self.element('#gutter'), self.element('#backdrop')
        self.wait(lambda b: int(gutter.get_property('scrollTop')) > 0, 'the gutter followed the scroll')
        where = self.browser.execute_script("""
            const [editor, gutter, backdrop] = arguments;
            const top = (list) => list[list.length - 1].getBoundingClientRect().top;
            return { editor: [editor.scrollTop, editor.scrollLeft], backdrop: [backdrop.scrollTop, backdrop.scrollLeft],
                     gutter: gutter.scrollTop, lastNumber: top(gutter.querySelectorAll('.gutter-line')),
                     lastLine: top(backdrop.querySelectorAll('.backdrop-line')) };""", editor, gutter, backdrop)
        self.assertEqual(where['backdrop'], where['editor'], 'the backdrop is where the text is')
        self.assertEqual(where['gutter'], where['editor'][0], 'the gutter is where the text is')
        self.assertAlmostEqual(where['lastNumber'], where['lastLine'], delta=1, msg='the last number beside the last line')

    def test_a_try_stopped_before_its_answer_came_shows_nothing(self):
        """Try, then Try again to stop, while the first answer is still on its way (the
        page holds it: every check of an edit tries again, so a late answer is common):
        the answer that comes after the stop is not shown."""
        self.browser.execute_script("""
            const realFetch = window.fetch, held = [];
            window.releaseTry = () => held.splice(0).forEach((go) => go());
            window.heldTries = () => held.length;
            window.fetch = async (path, options) => {
              const response = await realFetch(path, options);
              if (!path.startsWith('/api/try') || !options.body) return response;
              const text = await response.text();
              await new Promise((go) => held.push(go));
              const late = new Response(text, { status: response.status });
              const read = late.text.bind(late);
              // The page goes on from here in microtasks: done by the next script of the test.
              late.text = () => read().then((t) => { window.tryAnswered = true; return t; });
              return late;
            };""")
        self.element('#try').click()
        # At least one: a check of the edit may try again beside the click's.
        self.wait(lambda b: b.execute_script('return window.heldTries()') >= 1, 'the answer held')
        self.element('#try').click()
        self.assertEqual(self.element('#try').get_attribute('aria-pressed'), 'false')
        self.browser.execute_script('window.releaseTry()')
        self.wait(lambda b: b.execute_script('return window.tryAnswered === true'), 'the late answer read')
        self.assertEqual(self.text('#try-result'), '', 'nothing shown for a Try that was stopped')
        self.assertEqual(self.element('#try').get_attribute('aria-pressed'), 'false')

    def test_every_control_is_reachable_with_the_tab_key(self):
        wanted = {'recording-file', 'scrubber', 'frame-prev', 'frame-next', 'play', 'hide-idle', 'editor', 'try', 'save'}
        self.element('body').click()
        reached = set()
        for _ in range(80):
            keys = [Keys.ESCAPE, Keys.TAB] if self.browser.switch_to.active_element.get_attribute('id') == 'editor' else [Keys.TAB]
            self.press(*keys)
            reached.add(self.browser.switch_to.active_element.get_attribute('id'))
            if wanted <= reached:
                break
        self.assertEqual(wanted - reached, set(), 'controls the Tab key never reached')

    def test_at_200_percent_zoom_nothing_needs_horizontal_scrolling(self):
        self.browser.set_window_size(700, 1000)  # 1400 CSS px at 200 %: the same layout
        try:
            self.wait(lambda b: b.execute_script('return document.documentElement.scrollWidth <= document.documentElement.clientWidth'),
                      'the page fits the narrow window')
            self.screenshot('zoom-200')
        finally:
            self.browser.set_window_size(1400, 1000)


class OpenRecordingTests(PageTest):
    """Its own server: an opened recording becomes the one Try runs on."""

    @classmethod
    def start_server(cls):
        return UiServer('--replay', SWIPE_DOWN, '--config', SWIPES_CONFIG, name='ui-open', logs=cls.logs)

    def test_a_recording_opened_from_the_file_input_replaces_the_shown_one(self):
        other = Replay(TWO_FINGER_TAP, None)
        self.element('#recording-file').send_keys(TWO_FINGER_TAP)
        self.wait(lambda b: self.element('#scrubber').get_attribute('max') == str(len(other.frames) - 1),
                  'the scrubber spans the opened recording')
        self.assertIn(os.path.basename(TWO_FINGER_TAP), self.text('#recording-status'))
        index = other.first_frame_with(2)
        ReplayPageTests.go_to_frame(self, index)
        self.wait(lambda b: len(self.elements('circle.contact')) == 2, 'two contacts of the tap')


class EpochStampedRecording:
    """A recording whose events are stamped with the epoch (t ≈ 1.38e9 s) while the
    page counts from its start (issue 38, item 1): at the last frame the Timeline holds
    what `gestured replay --detect` recognized, its card shows the replay's values, and
    no time the page shows is on the epoch's clock."""

    recording = description = None

    @classmethod
    def start_server(cls):
        cls.truth = Replay(cls.recording, None, description=cls.description)
        where = ['--description', relative(cls.description)] if cls.description else []
        return UiServer('--replay', relative(cls.recording), *where, name='ui-epoch', logs=cls.logs)

    def test_at_the_last_frame_the_timeline_and_the_card_show_what_was_recognized(self):
        with open(self.recording) as f:
            stamps = [float(l.split()[1]) for l in f if l.startswith('E: ')]
        self.assertGreater(stamps[0], 1e9, 'the fixture is stamped with the epoch')
        self.wait(lambda b: b.find_element('id', 'scrubber').get_attribute('max') == str(len(self.truth.frames) - 1),
                  'the scrubber spans every frame of the recording')
        event = next(g for g in self.truth.gestures if g['phase'] == 'recognized')
        ReplayPageTests.go_to_frame(self, len(self.truth.frames) - 1)
        self.wait(lambda b: f'{event["gesture"]} · recognized' in self.text('#timeline'), 'the gesture in the Timeline')
        self.assertIn(f'{event["time"]:.3f} s', self.text('#timeline'), "the gesture's time from the recording's start")
        card = self.card(event['gesture'])
        self.assertEqual(card.get_attribute('data-state'), 'recognized')
        self.assertEqual(self.card_values(card).get('Location'), f'({event["x_mm"]:.1f}, {event["y_mm"]:.1f}) mm')
        self.screenshot(f'epoch-last-frame-{os.path.basename(self.recording)}', showing='#timeline')
        self.screenshot(f'epoch-last-frame-card-{os.path.basename(self.recording)}',
                        showing=f'#cards article.card[data-gesture="{event["gesture"]}"]')
        # Try's list counts from the start too.
        self.set_editor(f'gestures:\n  - name: the-tap\n    gesture: tap\n    fingers: {event["fingers"]}\n    command: echo tapped\n')
        self.element('#try').click()
        self.wait(lambda b: 'the-tap' in self.text('#try-result'), 'the tap listed by Try')
        times = [float(t) for t in re.findall(r'(\d+(?:\.\d+)?) s\b', self.text('#try-result'))]
        self.assertTrue(times and all(t <= self.truth.frames[-1][0] + 1 for t in times), times)
        self.element('#try').click()


class CypressEpochTests(EpochStampedRecording, PageTest):
    recording = os.path.join(RECORDINGS, 'touchpads_CyPS2_Cypress_Trackpad.three_finger_tap.events')


class WacomEpochTests(EpochStampedRecording, PageTest):
    """Also `gestured ui --replay FILE --description FILE`: a recording without a header."""
    recording = os.path.join(RECORDINGS, 'tablets_Wacom_ISDv4_E6_Finger.2fg-tap.events')
    description = os.path.join(RECORDINGS, 'tablets_Wacom_ISDv4_E6_Finger.desc')


class EditedConfigTests(OwnConfigCopy, PageTest):
    """The replay follows the editor (issue 38, item 2): Try redraws the cards from the
    edited config's timeline and says what it changes; Save of the same edit makes the
    page show the saved config's truth, without a reload. Its own copy of the config,
    which Save writes."""
    ui_name = 'ui-edited'

    @classmethod
    def start_server(cls):
        cls.truth = Replay(SWIPE_DOWN, SWIPES_CONFIG)
        return super().start_server()

    def edited(self, min_distance):
        """swipes.yaml with swipe-down-4's min-distance set, and what `gestured replay` says of it."""
        with open(SWIPES_CONFIG) as f:
            text = f.read().replace('    direction: down\n', f'    direction: down\n    min-distance: {min_distance}mm\n', 1)
        path = os.path.join(self.dir, f'edited-{min_distance}.yaml')
        with open(path, 'w') as f:
            f.write(text)
        return text, Replay(SWIPE_DOWN, path)

    def test_try_then_save_of_a_longer_min_distance_fails_the_swipe_with_the_new_number(self):
        later_text, later = self.edited(30)
        failing_text, failing = self.edited(100)
        self.assertIn('needs 100.0 mm', failing.reasons['swipe-down-4'])
        self.wait(lambda b: self.element('#scrubber').get_attribute('max') == str(len(self.truth.frames) - 1), 'the recording')
        # The last frame, the lift, where a swipe that never went far enough fails.
        last = len(self.truth.frames) - 1
        ReplayPageTests.go_to_frame(self, last)
        self.wait(lambda b: self.card('swipe-down-4').get_attribute('data-state') == 'recognized', 'recognized with the saved config')
        fired = lambda replay: next(g for g in replay.gestures if g['gesture'] == 'swipe-down-4')['time']
        # Try: the page says what the edit changes, and the cards are the edited config's.
        self.set_editor(later_text)
        self.element('#try').click()
        self.wait(lambda b: f'swipe-down-4 now fires at {fired(later):.3f} s, was {fired(self.truth):.3f} s' in self.text('#try-result'),
                  'the change said')
        self.set_editor(failing_text)
        self.wait(lambda b: self.card('swipe-down-4').get_attribute('data-state') == 'failed', 'failed with the tried config')
        self.assertEqual(self.card('swipe-down-4').find_element('css selector', '.reason').text, failing.reasons['swipe-down-4'])
        self.assertIn(f'swipe-down-4 no longer fires (it did at {fired(self.truth):.3f} s)', self.text('#try-effects'))
        self.assertIn('edited config (Try)', self.text('#recording-status'))
        self.screenshot('edited-tried', showing='#try-effects')
        self.element('#try').click()
        self.wait(lambda b: self.card('swipe-down-4').get_attribute('data-state') == 'recognized', 'the saved config again')
        # Save: the saved config's truth, on the same frame, without a reload.
        self.element('#save').click()
        self.wait(lambda b: self.text('#save-result').startswith('Saved.'), 'saved')
        self.wait(lambda b: self.card('swipe-down-4').get_attribute('data-state') == 'failed', 'failed with the saved config')
        self.assertEqual(self.card('swipe-down-4').find_element('css selector', '.reason').text, failing.reasons['swipe-down-4'])
        self.assertIn(f'Frame {last + 1} of ', self.text('#frame-label'))
        self.assertNotIn('swipe-down-4 · recognized', self.text('#timeline'))
        self.screenshot('edited-saved', showing='#cards article.card[data-gesture="swipe-down-4"]')


class TryOnTheRecordingOnScreenTests(PageTest):
    """Recordings are kept by id (issue 38, item 2): after another was opened and the
    page reloaded (it shows `--replay`'s again), Try answers for the one on screen."""

    @classmethod
    def start_server(cls):
        return UiServer('--replay', relative(SWIPE_DOWN), '--config', relative(SWIPES_CONFIG), name='ui-by-id', logs=cls.logs)

    def test_try_runs_on_the_recording_on_screen_after_another_was_opened(self):
        swipe, tap = Replay(SWIPE_DOWN, SWIPES_CONFIG), Replay(TWO_FINGER_TAP, SWIPES_CONFIG)
        self.element('#recording-file').send_keys(TWO_FINGER_TAP)
        self.wait(lambda b: self.element('#scrubber').get_attribute('max') == str(len(tap.frames) - 1), 'the tap opened')
        self.element('#try').click()
        self.wait(lambda b: 'Nothing would fire.' in self.text('#try-result'), 'nothing fires on the tap')
        self.assertEqual(self.element('#scrubber').get_attribute('max'), str(len(tap.frames) - 1), "Try's timeline is the tap's")
        self.element('#try').click()
        self.open_page()
        self.wait(lambda b: self.element('#scrubber').get_attribute('max') == str(len(swipe.frames) - 1), 'the swipe again')
        self.element('#try').click()
        self.wait(lambda b: 'swipe-down-4' in self.text('#try-result'), "the swipe's gesture listed")
        self.assertIn('echo swiped down', self.text('#try-result'))
        self.screenshot('try-on-screen', showing='#try-result')
        self.element('#try').click()


class DescriptionPairTests(PageTest):
    """An evemu events file without a header opens with its `.desc` (issue 38, item 5);
    alone, the error names the file and says what to do, and no path of the ui's own."""

    events = os.path.join(RECORDINGS, 'tablets_Wacom_ISDv4_E6_Finger.2fg-tap.events')
    description = os.path.join(RECORDINGS, 'tablets_Wacom_ISDv4_E6_Finger.desc')

    @classmethod
    def start_server(cls):
        return UiServer('--replay', relative(SWIPE_DOWN), name='ui-pair', logs=cls.logs)

    def test_an_events_file_opens_with_its_description_and_alone_says_so(self):
        self.element('#recording-file').send_keys(self.events)
        status = self.wait(lambda b: 'Could not open' in (t := self.text('#recording-status')) and t, 'the error')
        self.assertIn(os.path.basename(self.events), status)
        self.assertIn('.desc', status)
        self.assertNotIn('gestured-ui-', status, 'no path of the ui\'s own')
        self.assertNotIn(os.environ.get('XDG_RUNTIME_DIR', '/run/user') or '/run/user', status)
        self.screenshot('pair-alone', showing='#recording-status')
        refused = self.browser.console_errors()  # Chromium logs the 422 itself
        self.assertTrue(all('/api/recording' in m and '422' in m for m in refused), refused)
        truth = Replay(self.events, None, description=self.description)
        # A new choice, not added to the last (chromedriver adds files to a `multiple` input).
        self.browser.execute_script("arguments[0].value = ''", self.element('#recording-file'))
        self.element('#recording-file').send_keys(self.description + '\n' + self.events)
        self.wait(lambda b: self.element('#scrubber').get_attribute('max') == str(len(truth.frames) - 1), 'the pair opened')
        self.assertIn(os.path.basename(self.events), self.text('#recording-status'))
        self.assertIn('Wacom ISDv4 E6 Finger', self.text('#recording-status'))
        self.screenshot('pair-opened', showing='#recording-status')


load_tests = per_browser(globals())

if __name__ == '__main__':
    unittest.main()
