"""Propose a binding from this recording (issue 38, item 6): on a replayed recording,
a card whose gesture fired offers its binding, with the recording's fingers and
direction and thresholds chosen from what it did; Insert puts it in the editor, whose
check is clean."""
import math
import os
import re
import shutil
import tempfile

from harness import (SWIPE_DOWN, SWIPES_CONFIG, TWO_FINGER_TAP, Keys, OwnConfigCopy, PageTest, Replay, UiServer, per_browser, relative)

# The margins of BindingProposal.swift: a minimum is 0.8 of what the recording reached,
# a maximum 1.5 times what its touches did (and at least 50 ms above).
UNDER, OVER, DURATION_FLOOR_S = 0.8, 1.5, 0.05


class Proposing:
    """What both classes do: go to a frame, press a card's Propose, read its YAML,
    insert it and wait for the check."""

    def go_to_frame(self, index):
        scrubber = self.element('#scrubber')
        scrubber.send_keys(Keys.HOME)
        scrubber.send_keys(*([Keys.ARROW_RIGHT] * index))
        self.wait(lambda b: self.text('#frame-label').startswith(f'Frame {index + 1} of '), f'frame {index + 1} shown')

    def propose(self, name):
        card = self.card(name)
        button = card.find_element('css selector', 'button.propose')
        self.assertTrue(button.is_displayed(), f'{name} offers a proposal once it fired')
        self.assertEqual(button.get_attribute('aria-label'), f'Propose a binding from {name}')
        button.click()
        self.wait(lambda b: 'gesture:' in card.find_element('css selector', '.proposal-yaml').text, f"{name}'s proposal shown")
        return card, card.find_element('css selector', '.proposal-yaml').text

    def insert_and_check(self, card, yaml):
        card.find_element('css selector', 'button.insert-proposal').click()
        first = yaml.splitlines()[0].strip()
        self.wait(lambda b: first in self.element('#editor').get_property('value'), 'the binding in the editor')
        self.wait(lambda b: self.text('#check-status').startswith('Checked:'), 'the edited config checked')
        self.wait(lambda b: self.text('#check-status') == 'Checked: no problems.' or ' 0 errors' in self.text('#check-status'),
                  'the check is clean')
        self.assertEqual([d.text for d in self.elements('#diagnostics li') if 'error' in d.text], [])


class ConfigCardProposalTests(Proposing, OwnConfigCopy, PageTest):
    """A config's own card: the swipe of the 4-finger drag on the Atmel screen."""
    ui_name = 'ui-propose'

    @classmethod
    def start_server(cls):
        cls.truth = Replay(SWIPE_DOWN, SWIPES_CONFIG)
        return super().start_server()

    def test_the_recognized_swipe_proposes_its_fingers_direction_and_distance_and_inserts_clean(self):
        self.wait(lambda b: self.element('#scrubber').get_attribute('max') == str(len(self.truth.frames) - 1), 'the recording')
        event = next(g for g in self.truth.gestures if g['gesture'] == 'swipe-down-4')
        index = self.truth.frame_at(event['time'])
        self.go_to_frame(index - 1)
        self.assertFalse(self.card('swipe-down-4').find_element('css selector', 'button.propose').is_displayed(),
                         'nothing to propose before it fired')
        self.go_to_frame(index)
        card, yaml = self.propose('swipe-down-4')
        self.assertIn('gesture: swipe', yaml)
        self.assertIn('fingers: 4', yaml)
        self.assertIn('direction: down', yaml)
        travelled = math.hypot(event['dx_mm'], event['dy_mm'])
        mm = float(re.search(r'min-distance: ([\d.]+)mm', yaml)[1])
        self.assertAlmostEqual(mm, UNDER * travelled, delta=0.2, msg=f'{mm} mm, a margin under the {travelled:.1f} mm travelled')
        said = card.find_element('css selector', '.proposal-said').text
        self.assertIn(f'at {event["time"]:.3f} s: 4 fingers, down', said)
        self.assertIn('A minimum is 80 % of what the recording reached', said)
        self.screenshot('propose-config-card', showing='#cards article.card[data-gesture="swipe-down-4"]')
        self.insert_and_check(card, yaml)
        self.screenshot('propose-config-inserted', showing='#editor')


class DetectCardProposalTests(Proposing, PageTest):
    """A recording opened without a config (every kind, as `replay --detect`): the
    Alps two-finger tap. Its own home, so no config of the user's is found."""

    @classmethod
    def start_server(cls):
        cls.dir = tempfile.mkdtemp(prefix='gestured-browser-')
        cls.truth = Replay(TWO_FINGER_TAP, None)
        env = dict(os.environ, HOME=os.path.join(cls.dir, 'home'), XDG_CONFIG_HOME=os.path.join(cls.dir, 'config'))
        return UiServer('--replay', relative(TWO_FINGER_TAP), env=env, name='ui-propose-detect', logs=cls.logs)

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        shutil.rmtree(cls.dir, ignore_errors=True)

    def test_the_detected_tap_proposes_a_max_duration_above_its_touch_and_inserts_clean(self):
        self.wait(lambda b: self.element('#scrubber').get_attribute('max') == str(len(self.truth.frames) - 1), 'the recording')
        event = next(g for g in self.truth.gestures if g['phase'] == 'recognized')
        self.assertEqual(event['gesture'], 'tap-2')
        self.go_to_frame(len(self.truth.frames) - 1)
        self.wait(lambda b: self.card('tap-2').get_attribute('data-state') == 'recognized', 'the tap recognized')
        card, yaml = self.propose('tap-2')
        self.assertIn('gesture: tap', yaml)
        self.assertIn('fingers: 2', yaml)
        # The touch: from the first frame with fingers to the lift.
        down = [t for t, n in self.truth.frames if n > 0]
        lift = next(t for t, n in self.truth.frames if n == 0 and t > down[0])
        touch = lift - down[0]
        ms = int(re.search(r'max-duration: (\d+)ms', yaml)[1])
        self.assertGreater(ms / 1000, touch, 'max-duration above the recording\'s touch')
        self.assertAlmostEqual(ms / 1000, max(OVER * touch, touch + DURATION_FLOOR_S), delta=0.002)
        self.screenshot('propose-detect-card', showing='#cards article.card[data-gesture="tap-2"]')
        self.insert_and_check(card, yaml)
        self.screenshot('propose-detect-inserted', showing='#editor')


load_tests = per_browser(globals())
