"""The form of each gesture (issue 38, item 4): a change in a card's form edits that
gesture's YAML in the editor, keeping the comments and the rest of the file; the card
says what the gesture does; templates add gestures; a name shows its YAML."""
import os
import unittest

from harness import CONFIGS, Keys, OwnConfigCopy, per_browser
from test_watching import WatchingPage


class GestureFormTests(OwnConfigCopy, WatchingPage):
    config_source = os.path.join(CONFIGS, 'form.yaml')
    ui_name = 'ui-form'

    def setUp(self):
        super().setUp()
        self.wait(lambda b: self.elements('#cards article.card[data-gesture="swipe-down-4"] .card-action'), 'the forms in the cards')

    def click(self, element):
        """Clicked where the sticky transport bar does not cover it."""
        self.browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()

    def editor_text(self):
        return self.element('#editor').get_property('value')

    def open_form(self, name):
        form = self.element(f'article.card[data-gesture="{name}"] details.gesture-form')
        if form.get_property('open') is not True:
            self.click(form.find_element('css selector', 'summary'))
        return form

    def wait_for_text(self, expected, what):
        self.wait(lambda b: self.editor_text() == expected, what)

    def test_the_fingers_stepper_updates_the_yaml_keeping_its_comment_and_the_card(self):
        self.open_form('swipe-down-4')
        fingers = self.element('article.card[data-gesture="swipe-down-4"] input[data-field="fingers"]')
        self.assertEqual(fingers.get_property('value'), '4')
        self.click(fingers)
        self.press(Keys.ARROW_DOWN, Keys.TAB)
        expected = self.original.replace('fingers: 4            # four fingers', 'fingers: 3            # four fingers')
        self.wait_for_text(expected, 'fingers: 3 in the editor, its comment and every other line kept')
        card = self.card('swipe-down-4')
        self.wait(lambda b: 'swipe · 3 fingers · down' in card.find_element('css selector', '.card-edited').text, 'the card says 3 fingers')
        self.wait(lambda b: 'no problems' in self.text('#check-status'), 'the edited config checked as after a keystroke')
        self.screenshot('form-fingers', showing='article.card[data-gesture="swipe-down-4"]')

    def test_a_direction_chip_writes_direction(self):
        self.open_form('swipe-down-4')
        chip = self.element('article.card[data-gesture="swipe-down-4"] button[data-field="direction-left"]')
        self.assertEqual(chip.get_attribute('aria-pressed'), 'false')
        self.click(chip)
        self.wait_for_text(self.original.replace('direction: down', 'direction: left'), 'direction: left in the editor')
        self.wait(lambda b: self.element('article.card[data-gesture="swipe-down-4"] button[data-field="direction-left"]')
                  .get_attribute('aria-pressed') == 'true', 'the chip pressed')
        self.screenshot('form-direction', showing='article.card[data-gesture="swipe-down-4"]')

    def test_the_key_recorder_writes_keys_in_a_flow_mapping(self):
        self.open_form('desktop')
        self.assertEqual(self.card('desktop').find_element('css selector', '.card-action').text, '→ keys super+d')
        recorder = self.element('article.card[data-gesture="desktop"] button.key-recorder')
        self.click(recorder)
        self.wait(lambda b: recorder.get_attribute('aria-pressed') == 'true', 'the recorder listening')
        self.press('x')
        self.wait_for_text(self.original.replace('{keys: super+d}', '{keys: x}'), 'keys: x in the flow mapping, its comment kept')
        self.wait(lambda b: self.card('desktop').find_element('css selector', '.card-action').text == '→ keys x', 'the card says → keys x')
        self.screenshot('form-keys', showing='article.card[data-gesture="desktop"]')

    def test_each_card_says_what_it_does(self):
        said = {name: self.card(name).find_element('css selector', '.card-action').text
                for name in ('swipe-down-4', 'desktop', 'hold-3')}
        self.assertEqual(said, {'swipe-down-4': '→ command echo swiped down', 'desktop': '→ keys super+d',
                                'hold-3': '→ workspace next'})

    def test_the_workspace_picker_and_an_add_gesture_template(self):
        self.open_form('hold-3')
        picker = self.element('article.card[data-gesture="hold-3"] select[data-field="workspace"]')
        self.browser.execute_script("arguments[0].value = '2'; arguments[0].dispatchEvent(new Event('change'))", picker)
        self.wait_for_text(self.original.replace('{workspace: next}', '{workspace: 2}'), 'workspace: 2 in the editor')
        self.browser.execute_script("document.getElementById('add-kind').value = 'pinch'")
        self.click(self.element('#add-gesture'))
        self.wait(lambda b: '- name: pinch-1\n    gesture: pinch\n    fingers: 4\n    direction: in\n    command: {overview: toggle}'
                  in self.editor_text(), 'the pinch template at the end of gestures:')
        self.assertTrue(self.editor_text().startswith(self.original.replace('{workspace: next}', '{workspace: 2}').rstrip('\n')))
        draft = self.wait(lambda b: self.elements('#form-drafts article[data-gesture="pinch-1"]'), 'the new gesture as a draft card')[0]
        self.wait(lambda b: draft.find_element('css selector', '.card-action').text == '→ overview toggle', 'its action said')
        self.wait(lambda b: 'no problems' in self.text('#check-status'), 'the added gesture checks')
        self.screenshot('form-template', showing='#form-drafts')

    def test_a_template_in_an_empty_config(self):
        """"Start empty" writes `gestures: []`: the template turns it into the list it starts."""
        self.set_editor('# mine\ngestures: []  # none yet\n')
        self.wait(lambda b: self.text('#form-status') == '' and not self.elements('#form-drafts article'), 'no gesture in the editor')
        self.click(self.element('#add-gesture'))
        self.wait_for_text('# mine\ngestures:  # none yet\n\n  - name: swipe-1\n    gesture: swipe\n    fingers: 3\n    direction: left\n'
                           '    command: {workspace: next}\n', 'the swipe template under gestures:')

    def test_a_name_shows_its_yaml(self):
        self.click(self.card('hold-3').find_element('css selector', 'button.name-jump'))
        start = self.original.index('  - name: hold-3')
        self.wait(lambda b: self.browser.execute_script(
            'const e = document.activeElement; return e.id === "editor" ? [e.selectionStart, e.selectionEnd] : null')
            == [start, len(self.original.rstrip('\n'))], "hold-3's lines selected in the editor")
        self.screenshot('form-jump', showing='#editor')

    def test_the_recordings_values_beside_the_thresholds_at_400x800_in_dark_mode(self):
        width = self.sized(400, 800)
        self.emulate(dark=True)
        frames = int(self.element('#scrubber').get_attribute('max'))
        self.go_to_frame(frames)
        form = self.open_form('swipe-down-4')
        recorded = form.find_element('css selector', '.form-recorded')
        self.wait(lambda b: recorded.text.startswith('This recording: ') and ' mm' in recorded.text, "the card's values beside the thresholds")
        label = form.find_element('css selector', 'input[data-field="threshold-min-distance"]').find_element('xpath', '..').text
        self.assertIn('min-distance (distance, e.g. 20mm)', label)
        self.assertLessEqual(self.browser.execute_script('return document.documentElement.scrollWidth'), width,
                             'the form fits a narrow window')
        self.screenshot('form-400-dark', showing='article.card[data-gesture="swipe-down-4"] details.gesture-form')


load_tests = per_browser(globals())

if __name__ == '__main__':
    unittest.main()
