"""The page on the live stream of a real daemon fed by the fake touchpad
(gestured-fake-daemon): the fingers on the device, the swipe's card and the command
it ran, and the reason the other swipe failed, in the daemon's own words; a Z drawn,
a tip-tap and a tip-swipe, each card with the values only its kind has (the shape and
its score, the side), as the daemon gave them to its command."""
import math
import os
import re
import time
import unittest

from harness import Daemon, DaemonPageTest, FakePadPageTest, TimeoutException, per_browser, wait_until

CONFIG = """gestures:
  - name: next
    gesture: swipe
    fingers: 3
    direction: left
    command: echo next '<img src=x onerror=alert(1)>'
  - name: previous
    gesture: swipe
    fingers: 3
    direction: right
    command: echo previous
"""


class LivePageTests(DaemonPageTest):
    ui_name = 'ui-live'

    @classmethod
    def start_daemon(cls):
        cls.before_daemon = time.clock_gettime(time.CLOCK_MONOTONIC)
        daemon = Daemon(CONFIG, fake_pad=True, extra=['--explain'], logs=cls.logs)
        cls.ui_args = ('--config', daemon.config)
        if not daemon.subscribes():
            daemon.stop()
            raise AssertionError('the daemon does not answer `subscribe` (the event stream, docs/CONTROL.md)')
        return daemon

    def setUp(self):
        super().setUp()
        self.wait(lambda b: self.elements('svg.device'), 'the fake touchpad drawn')
        self.wait(lambda b: self.text('#connection') == 'Connected', 'the event stream connected')

    def test_the_device_is_the_fake_touchpad_to_scale(self):
        surface = self.element('svg.device rect.surface')
        self.assertEqual((float(surface.get_dom_attribute('width')), float(surface.get_dom_attribute('height'))), (100.0, 60.0))
        self.assertIn('Fake Touchpad', self.text('#devices'))

    def test_three_fingers_down_are_three_contacts_and_none_after_the_lift(self):
        self.daemon.pad.three_fingers(dx_mm=-5, lift=False)
        self.wait(lambda b: len(self.elements('svg.device circle.contact')) == 3, 'three contacts drawn')
        self.assertEqual(self.text('#finger-count'), '3 fingers')
        xs = sorted(float(c.get_dom_attribute('cx')) for c in self.elements('circle.contact'))
        self.assertEqual([round(x) for x in xs], [25, 35, 45], 'positions in mm: 300, 400, 500 units less 5 mm')
        self.daemon.pad.three_fingers(dx_mm=0)  # the same fingers lift at the end
        self.wait(lambda b: len(self.elements('svg.device circle.contact')) == 0, 'no contact after the lift')
        self.assertEqual(self.text('#finger-count'), '0 fingers')

    def test_a_swipe_recognized_shows_its_card_values_and_the_command_it_ran(self):
        self.daemon.pad.three_fingers(dx_mm=-40)
        wait_until(lambda: 'next recognized' in self.daemon.status(), 'the daemon recognized the swipe')
        card = self.card('next')
        self.wait(lambda b: 'next · recognized' in self.text('#timeline'), 'the swipe in the timeline')
        command = "echo next '<img src=x onerror=alert(1)>'"
        self.wait(lambda b: f'{command} → exited with status 0' in self.text('#timeline'), 'its command ran and exited 0')
        self.assertEqual(self.elements('#timeline img'), [], 'a command is text, never markup')
        values = card.find_element('css selector', '.values').text
        dx = float(re.search(r'Translation\s+\(([−\-\d.]+),', values)[1].replace('−', '-'))
        self.assertLess(dx, -10, values)
        self.assertIn('left', values)

    def test_the_timeline_counts_from_the_daemons_start(self):
        """One clock (issue 38, item 1): live, a gesture's time is seconds from the
        daemon's start, on the clock its lines are stamped with, not the time of day."""
        self.daemon.pad.three_fingers(dx_mm=-40)
        entry = self.wait(lambda b: [e for e in self.elements('#timeline li.timeline-gesture') if 'next · recognized' in e.text],
                          'the swipe in the timeline')[0]
        when = entry.find_element('css selector', '.when').text
        self.assertRegex(when, r'^\d+\.\d{3} s$')
        since_start = time.clock_gettime(time.CLOCK_MONOTONIC) - self.before_daemon
        self.assertTrue(0 < float(when[:-2]) < since_start, f'{when}, and the daemon started less than {since_start:.3f} s ago')
        self.screenshot('live-timeline-clock', showing='#timeline')

    def test_a_new_touch_starts_the_cards_over(self):
        self.daemon.pad.three_fingers(dx_mm=-40)
        card = self.card('next')
        self.wait(lambda b: card.get_attribute('data-state') == 'recognized', 'the swipe recognized')
        self.wait(lambda b: len(self.elements('circle.contact')) == 0, 'lifted')
        self.assertEqual(card.get_attribute('data-state'), 'recognized', 'after the lift the card keeps how it ended')
        self.daemon.pad.three_fingers(dx_mm=-2, lift=False)
        self.wait(lambda b: card.get_attribute('data-state') == 'possible', 'the next touch starts it over')
        self.assertEqual(card.find_element('css selector', '.values').text, '')
        self.daemon.pad.three_fingers(dx_mm=0)

    def test_a_recorded_gesture_proposes_its_binding_and_inserts_it_into_the_config(self):
        # Recording asks the daemon for every frame (a new subscription): a swipe made
        # before that is in place is not recorded, so record until one is.
        def record_a_swipe():
            self.element('#record').click()
            self.wait(lambda b: self.element('#record').get_attribute('aria-pressed') == 'true', 'recording')
            self.daemon.pad.three_fingers(dx_mm=-40)
            self.wait(lambda b: len(self.elements('circle.contact')) == 0 and 'next · recognized' in self.text('#timeline'),
                      'the swipe seen')
            self.element('#record').click()
            self.wait(lambda b: self.element('#record').get_attribute('aria-pressed') == 'false' and
                      self.text('#record-result').startswith(('Recognized', 'Nothing')), 'stopped')
            return self.element('#record-yaml').is_displayed()
        wait_until(record_a_swipe, 'the proposed binding')
        detected = self.text('#record-result')
        self.assertIn('swipe · 3 fingers · left', detected)
        yaml = self.element('#record-yaml').text
        self.assertIn('gesture: swipe', yaml)
        self.assertIn('fingers: 3', yaml)
        self.assertIn('direction: left', yaml)
        self.element('#insert-yaml').click()
        self.wait(lambda b: self.element('#editor').get_property('value').endswith(
            'command: echo previous\n\n' + '\n'.join('  ' + l for l in yaml.split('\n')) + '\n'), 'inserted as the last gesture')
        self.wait(lambda b: self.text('#check-status').startswith('Checked'), 'checked')
        self.assertRegex(self.text('#record-result'), r'translation \(−\d+\.\d, \d+\.\d\) mm', 'its values, in mm')

    def test_try_shows_what_the_edited_config_would_fire_beside_the_running_one(self):
        self.wait(lambda b: 'no problems' in self.text('#check-status'), 'the config checked')
        editor = self.element('#editor')
        self.browser.execute_script(
            "arguments[0].value = arguments[0].value.replace('name: next', 'name: tried-next'); arguments[0].dispatchEvent(new Event('input'))", editor)
        self.element('#try').click()
        self.wait(lambda b: 'beside the running one' in self.text('#try-result'), 'trying')
        # Trying asks the daemon for every frame (a new subscription): a swipe made
        # before that is in place is not seen by the tried config, so swipe until it is.
        def swipe_and_see():
            self.daemon.pad.three_fingers(dx_mm=-40)
            try:
                return self.wait(lambda b: 'tried-next · recognized' in self.text('#try-result'), 'seen', timeout=3)
            except TimeoutException:
                return False
        wait_until(swipe_and_see, 'the edited gesture would fire')
        self.wait(lambda b: 'next · recognized' in self.text('#timeline'), 'the running config fired its own')
        self.assertNotIn('tried-next', self.text('#timeline'), 'what Try would fire is not what ran')
        self.element('#try').click()
        self.wait(lambda b: self.text('#try-result') == '', 'trying stopped')

    def test_the_other_swipe_fails_with_the_reason_the_daemon_logs(self):
        self.daemon.pad.three_fingers(dx_mm=-40, lift=False)
        card = self.card('previous')
        self.wait(lambda b: card.get_attribute('data-state') == 'failed', 'the right swipe failed')
        reason = card.find_element('css selector', '.reason').text
        self.assertTrue(reason)
        wait_until(lambda: f'previous failed: {reason}' in self.daemon.log_text(), 'the daemon logged the same reason (--explain)')
        self.daemon.pad.three_fingers(dx_mm=0)


class FollowPageTests(FakePadPageTest):
    """Tests/Browser/configs/follow.yaml: `follow-ws`, a 3-finger pan whose command is
    {workspace: follow} with distance: 40mm."""
    ui_name = 'ui-follow'
    config_file = 'follow.yaml'

    def test_the_card_shows_the_transition_moved_with_the_fingers(self):
        card = self.card('follow-ws')
        bar = card.find_element('css selector', 'progress')
        # 20 mm to the left of 40 mm for a whole transition: half of it, forward.
        self.daemon.pad.three_fingers(dx_mm=-20, lift=False)
        self.wait(lambda b: 'follow' in (bar.get_attribute('class') or ''), 'the bar is the transition\'s')
        self.wait(lambda b: 0.4 <= float(bar.get_attribute('value')) <= 0.6, f'the bar near half way: {bar.get_attribute("value")}')
        self.assertEqual(bar.get_attribute('aria-label'), 'follow-ws: workspace transition')
        caption = card.find_element('css selector', '.follow-caption').text
        self.assertRegex(caption, r'^workspace transition: (4\d|5\d|60) %$')
        self.screenshot('follow-mid-pan')
        self.assertIn(card.get_attribute('data-state'), ('began', 'changed'), 'the pan is under way')
        self.daemon.pad.three_fingers(dx_mm=0)


class ShapeAndTipTapPageTests(FakePadPageTest):
    """Tests/Browser/configs/shape-tiptap.yaml: `draw-z` (a shape, one finger),
    `tip-right` (a tip-tap to the right of the resting finger), `tip-swipe-left`
    (a swipe down to its left) and `knob` (a circle)."""
    ui_name = 'ui-shape-tiptap'
    # A Z about 30 mm across, as the built-in one is drawn (docs/SHAPES.md): right,
    # down-left, right; in mm on the 100 × 60 mm pad, +y down.
    Z = [(30, 15), (60, 15), (30, 45), (60, 45)]

    config_file = 'shape-tiptap.yaml'
    daemon_extra = ['--explain']

    def daemon_saw(self, name):
        """What the binding's command wrote (the config's commands write their gesture's
        GESTURE_* into the daemon's HOME), once it has run."""
        path = os.path.join(self.daemon.env['HOME'], name)

        def written():
            if os.path.exists(path):
                with open(path) as f:
                    text = f.read()
                return text.strip() if text.endswith('\n') else None
        return wait_until(written, f'the command of {name} ran')

    def recognized(self, name):
        card = self.card(name)
        try:
            self.wait(lambda b: card.get_attribute('data-state') == 'recognized', f'{name} recognized')
        except TimeoutException:
            raise AssertionError(f'{name}: {card.text!r}; the daemon: {self.daemon.log_text()[-2000:]}')
        return card

    def test_a_drawn_z_shows_its_shape_and_score_on_its_card(self):
        self.daemon.pad.one_finger_path(self.Z)
        card = self.recognized('draw-z')
        self.wait(lambda b: 'Shape' in self.card_values(card), 'the Shape row shown')
        shape = self.card_values(card)['Shape']
        m = re.fullmatch(r'(\S+) \((\d\.\d\d\d)\)', shape)
        self.assertTrue(m, f'the Shape row reads "NAME (SCORE)": {shape!r}')
        self.assertEqual(m[1], 'z', shape)
        self.assertGreaterEqual(float(m[2]), 0.80, f'a Z drawn as the built-in one scores its min-score: {shape}')
        self.assertEqual(self.daemon_saw('draw-z'), f'z {m[2]}', 'the shape and score its command was given (GESTURE_SHAPE, GESTURE_SCORE)')
        self.assertNotIn('Side', self.card_values(card), 'a shape has no side')
        self.assertNotIn('Duration', self.card_values(card), 'a discrete gesture shows no duration')

    def test_a_tip_tap_to_the_right_shows_its_side_on_its_card(self):
        self.daemon.pad.rest_then_tap(side='right')
        card = self.recognized('tip-right')
        self.wait(lambda b: 'Side' in self.card_values(card), 'the Side row shown')
        self.assertEqual(self.card_values(card)['Side'], 'right')
        self.assertEqual(self.daemon_saw('tip-right'), 'right', 'the side its command was given (GESTURE_SIDE)')
        self.assertNotIn('Shape', self.card_values(card), 'a tip-tap has no shape')
        self.assertNotIn('Duration', self.card_values(card), 'a discrete gesture shows no duration')
        self.assertEqual(self.card('draw-z').get_attribute('data-state'), 'failed', 'a resting finger and a tap are no shape')

    def test_a_tip_swipe_to_the_left_shows_its_side_and_direction_on_its_card(self):
        self.daemon.pad.rest_then_swipe(side='left', moved_mm=(0, 25))
        card = self.recognized('tip-swipe-left')
        self.wait(lambda b: 'Side' in self.card_values(card), 'the Side row shown')
        values = self.card_values(card)
        self.assertEqual((values['Side'], values.get('Direction')), ('left', 'down'), values)
        self.assertEqual(self.daemon_saw('tip-swipe-left'), 'left down', 'its command was given GESTURE_SIDE, GESTURE_DIRECTION')
        self.assertEqual(self.card('tip-right').get_attribute('data-state'), 'failed', 'a swipe is no tip-tap, nor on its side')

    def test_a_circle_shows_its_rotation_on_its_card(self):
        """The card shows what its kind reports, as the hello's `kinds` says (the page's
        own table of kinds had lost a circle's rotation)."""
        # A turn and a quarter, clockwise on the pad (+y down), 15 mm round its centre, in
        # half a second (stamped in the past: all of it within the daemon's 1 s stale bound).
        turn = [(50 + 15 * math.cos(2 * math.pi * k / 32), 30 + 15 * math.sin(2 * math.pi * k / 32)) for k in range(41)]
        self.daemon.pad.one_finger_path(turn, seconds=0.5)
        card = self.card('knob')
        try:
            self.wait(lambda b: card.get_attribute('data-state') == 'ended' and 'Rotation' in self.card_values(card),
                      'the circle ended with its Rotation row')
        except TimeoutException:
            raise AssertionError(f'knob: {card.text!r}; the daemon: {self.daemon.log_text()[-2000:]}')
        values = self.card_values(card)
        rotation = float(re.fullmatch(r'(−?\d+\.\d)°', values['Rotation'])[1].replace('−', '-'))
        self.assertGreater(rotation, 270, values)
        self.assertNotIn('Translation', values, 'a circle reports its arc, not a translation')
        self.assertNotIn('Duration', values, 'only a hold reports a duration (a circle showed 0.00 s)')
        self.assertAlmostEqual(rotation, float(self.daemon_saw('knob')), delta=0.051,
                               msg='the rotation its command was given (GESTURE_ROTATION_DEG)')


load_tests = per_browser(globals())

if __name__ == '__main__':
    unittest.main()
