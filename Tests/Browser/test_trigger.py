"""A card's Run button (issue 36, item 1): the daemon runs the gesture's action without
the gesture (`gestured trigger NAME`), and the card says what ran, or why nothing did.
Beside a real daemon the command really runs; in local mode (the ui's private daemon,
a dry run) the card says what would run, and nothing does."""
import os
import shutil
import tempfile

from harness import By, Daemon, DaemonPageTest, Keys, LocalModePageTest, per_browser, wait_until


def trigger_config(out):
    return f"""# The trigger tests' config.
gestures:
  - name: note-up
    gesture: swipe
    fingers: 3
    direction: up
    command: echo "$GESTURE_NAME $GESTURE_TRIGGER" >> {out}
  - name: note-left
    gesture: swipe
    fingers: 3
    direction: left
    command: echo "$GESTURE_NAME ${{GESTURE_TRIGGER:-gesture}}" >> {out}
  - name: volume
    gesture: pan
    fingers: 4
    axis: vertical
    every: 5mm
    update: echo step >> {out}
"""


class RunButtonMixin:
    def run_button(self, name):
        return self.wait(lambda b: self.card(name).find_element(By.CSS_SELECTOR, 'button.run'), f"{name}'s Run button")

    def answer(self, name):
        return self.card(name).find_element(By.CSS_SELECTOR, '.run-answer')

    def press_run_by_keyboard(self, name):
        """Focuses the card's Run button as Tab would, and presses Enter on it."""
        button = self.run_button(name)
        self.browser.execute_script('arguments[0].focus()', button)
        focused = self.browser.execute_script('return document.activeElement === arguments[0]', button)
        self.assertTrue(focused, 'the Run button takes the keyboard focus')
        self.press(Keys.ENTER)

    def assert_accessible(self, name):
        button = self.run_button(name)
        self.assertEqual(button.get_property('tagName'), 'BUTTON', 'a real button')
        self.assertEqual(button.get_attribute('aria-label'), f'Run {name} without the gesture', 'its label names the gesture')
        self.assertGreaterEqual(int(button.get_property('tabIndex')), 0, 'in the tab order')
        self.assertEqual(self.answer(name).get_attribute('role'), 'status', 'the answer is read out')


class RunOnADaemonTests(RunButtonMixin, DaemonPageTest):
    ui_name = 'ui-trigger'

    @classmethod
    def start_daemon(cls):
        cls.out_dir = tempfile.mkdtemp(prefix='gestured-browser-')
        cls.out = os.path.join(cls.out_dir, 'out')
        return Daemon(trigger_config(cls.out), fake_pad=True, logs=cls.logs)

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        shutil.rmtree(cls.out_dir, ignore_errors=True)

    def read_out(self):
        try:
            with open(self.out) as f:
                return f.read()
        except FileNotFoundError:
            return ''

    def test_run_runs_the_command_and_the_card_says_what_ran(self):
        self.assert_accessible('note-up')
        before = self.read_out().count('note-up manual')
        self.press_run_by_keyboard('note-up')
        wait_until(lambda: self.read_out().count('note-up manual') == before + 1, 'the command ran, with GESTURE_TRIGGER=manual')
        said = self.wait(lambda b: (t := self.answer('note-up').text) and t, 'the answer on the card')
        self.assertIn('note-up: ran (manual trigger):', said)
        self.assertIn('command: echo "$GESTURE_NAME $GESTURE_TRIGGER"', said)
        self.assertIn('[note-up] run by gestured trigger, not by a gesture', self.daemon.log_text())
        self.screenshot('trigger-ran', showing='#cards article.card[data-gesture="note-up"]')

    def test_a_run_is_its_own_timeline_entry_not_the_last_gestures(self):
        """The swipe runs its command under its own entry; Run then runs it again, and
        that run is an entry of its own, said to be run by hand: under the swipe's entry
        it would read as the swipe's second run."""
        self.wait(lambda b: self.text('#connection') == 'Connected', 'the event stream connected')
        self.daemon.pad.three_fingers(dx_mm=-40)
        wait_until(lambda: 'note-left gesture' in self.read_out(), "the swipe's command ran")
        swipe = self.wait(lambda b: [e for e in self.elements('#timeline li.timeline-gesture') if 'note-left · recognized' in e.text],
                          'the swipe in the timeline')[0]
        self.wait(lambda b: 'exited with status 0' in swipe.text, "its command's exit under it")
        self.run_button('note-left').click()
        wait_until(lambda: 'note-left manual' in self.read_out(), 'the run by hand ran the command')
        ran = self.wait(lambda b: [e for e in self.elements('#timeline > li.action') if 'exited with status 0' in e.text],
                        'the run by hand as its own entry, with its exit')[0]
        self.assertTrue(ran.text.startswith('note-left (run by hand): echo "$GESTURE_NAME ${GESTURE_TRIGGER:-gesture}"'), ran.text)
        position = "return [...document.querySelectorAll('#timeline > li')].indexOf(arguments[0])"
        self.assertLess(self.browser.execute_script(position, ran), self.browser.execute_script(position, swipe), 'newest first: the run above the swipe')
        self.assertEqual(len(swipe.find_elements(By.CSS_SELECTOR, 'li.action')), 1, "the swipe's entry keeps its one run: " + swipe.text)
        self.screenshot('trigger-timeline', showing='#timeline')

    def test_a_gesture_with_nothing_to_run_says_why(self):
        self.run_button('volume').click()
        said = self.wait(lambda b: (t := self.answer('volume').text) and t, 'the refusal on the card')
        self.assertEqual(said, 'volume has nothing to run without its gesture: a trigger runs command:, or begin: and end:, and it has only update: (for fingers that move)')
        self.assertIn('refused', self.answer('volume').get_attribute('class'))
        self.assertNotIn('step', self.read_out())


class RunInLocalModeTests(RunButtonMixin, LocalModePageTest):
    """No daemon: the ui's own, in dry run, says what would run; nothing runs."""
    server_name = 'ui-trigger-local'

    @classmethod
    def config_text(cls):
        cls.out = os.path.join(cls.dir, 'out')
        return trigger_config(cls.out)

    def test_run_says_what_would_run_and_runs_nothing(self):
        self.assert_accessible('note-up')
        self.press_run_by_keyboard('note-up')
        said = self.wait(lambda b: (t := self.answer('note-up').text) and t, 'the answer on the card')
        self.assertIn('note-up: would run (dry run, nothing ran):', said)
        self.assertIn('command: echo "$GESTURE_NAME $GESTURE_TRIGGER"', said)
        self.assertFalse(os.path.exists(self.out), 'nothing ran')
        self.screenshot('trigger-dry-run', showing='#cards article.card[data-gesture="note-up"]')


load_tests = per_browser(globals())
