"""The page on `gestured ui --replay` of a real touchscreen recording (a four-finger
swipe down), checked against what `gestured replay` says of the same file."""
import os
import re
import shutil
import unittest

from harness import (ROOT, SWIPE_DOWN, SWIPES_CONFIG, TWO_FINGER_TAP, Keys, PageTest, Replay, UiServer, per_browser,
                     relative)


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
              if (path !== '/api/try' || !options.body) return response;
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


load_tests = per_browser(globals())

if __name__ == '__main__':
    unittest.main()
