"""The page on `gestured ui` beside a running daemon (no device: an empty input
directory): the cards are the daemon's gestures, the editor checks as `gestured
check` does, Save asks first when the config has errors, and after Save the daemon
reports the new config in `gestured status`."""
import os
import unittest

from harness import SWIPES_CONFIG, By, Daemon, DaemonPageTest, Keys, check_messages, gestured, per_browser, wait_until


class DaemonPageTests(DaemonPageTest):
    # No --config: the ui edits the file the running daemon says it runs (its hello),
    # which is not where this environment's lookup would go.
    ui_name = 'ui-daemon'

    @classmethod
    def start_daemon(cls):
        with open(SWIPES_CONFIG) as f:
            return Daemon(f.read(), logs=cls.logs)

    def setUp(self):
        super().setUp()
        self.wait(lambda b: self.element('#editor').get_property('value').startswith('# The browser tests'), 'the config in the editor')
        self.wait(lambda b: 'no problems' in self.text('#check-status'), 'the first check answered')

    def caret_to(self, line, column):
        """Puts the caret at a 1-based line and column, as a click there would."""
        self.browser.execute_script("""
            const [editor, line, column] = arguments;
            const lines = editor.value.split('\\n');
            let offset = column - 1;
            for (let i = 0; i < line - 1; i++) offset += lines[i].length + 1;
            editor.focus();
            editor.setSelectionRange(offset, offset);""", self.element('#editor'), line, column)

    def editor_text(self):
        return self.element('#editor').get_property('value')

    def line_of(self, text, occurrence=1):
        lines = [i + 1 for i, l in enumerate(self.editor_text().split('\n')) if l == text]
        return lines[occurrence - 1]

    def test_the_cards_are_the_daemons_gestures(self):
        status = self.daemon.status()
        listed = [l.split()[0] for l in status.split('gestures:\n', 1)[1].split('last gestures:')[0].splitlines() if l.strip()]
        self.wait(lambda b: len(self.elements('#cards article.card')) == len(listed), 'a card per gesture')
        names = [c.get_attribute('data-gesture') for c in self.elements('#cards article.card')]
        self.assertEqual(names, listed)
        self.assertEqual(self.text('#finger-count'), '0 fingers')
        self.assertIn('daemon', self.text('#session'))

    def test_a_typo_shows_the_diagnostic_of_gestured_check_at_its_line_and_column(self):
        line = self.line_of('    fingers: 4', 2)  # swipe-up-4's
        self.caret_to(line, 5)
        self.element('#editor').send_keys('x')
        expected = check_messages(self.editor_text())
        self.assertEqual(len(expected), 1, expected)
        want_line, want_column, severity, message = expected[0]
        self.assertEqual((want_line, want_column), (line, 5))
        item = self.wait(lambda b: b.find_elements(By.CSS_SELECTOR, f'#diagnostics li[data-line="{line}"][data-column="5"]'),
                         'the diagnostic listed at its line and column')[0]
        self.assertIn(message, item.text)
        self.assertIn(severity, item.text)
        gutter = self.elements('#gutter .gutter-line')[line - 1]
        self.assertIn('error', gutter.get_attribute('class'))
        backdrop = self.elements('#backdrop .backdrop-line')[line - 1]
        self.assertIn(message, backdrop.text.strip() or backdrop.get_attribute('textContent'))
        # The list's button puts the caret back on the problem.
        self.element('#editor').send_keys(Keys.CONTROL, Keys.END)
        item.find_element(By.CSS_SELECTOR, 'button.jump').click()
        caret = self.browser.execute_script('return arguments[0].selectionStart', self.element('#editor'))
        self.assertEqual(self.editor_text()[:caret].count('\n') + 1, line)
        self.element('#editor').send_keys(Keys.DELETE)
        self.wait(lambda b: 'no problems' in self.text('#check-status'), 'fixed again')

    def test_saving_a_config_with_errors_asks_first_and_cancel_keeps_the_file(self):
        before = open(self.daemon.config).read()
        self.caret_to(self.line_of('    fingers: 4', 1), 5)
        self.element('#editor').send_keys('y')
        self.wait(lambda b: self.elements('#diagnostics li'), 'the error shown')
        self.element('#save').click()
        dialog = self.wait(lambda b: b.find_element(By.CSS_SELECTOR, '#confirm-dialog[open]'), 'the confirm dialog')
        self.assertIn('error', dialog.text)
        self.screenshot('confirm-dialog')
        self.element('#confirm-cancel').click()
        self.wait(lambda b: self.text('#save-result') == 'Not saved.', 'not saved')
        self.assertEqual(open(self.daemon.config).read(), before)

    def test_after_save_gestured_status_reports_the_new_config(self):
        self.element('#editor').send_keys(Keys.CONTROL, Keys.END)
        self.element('#editor').send_keys('\n  - name: added-in-the-browser\n    gesture: tap\n    fingers: 2\n    command: echo tapped\n')
        self.wait(lambda b: 'no problems' in self.text('#check-status'), 'the edited config checked clean')
        self.element('#save').click()
        self.wait(lambda b: 'reloaded' in self.text('#save-result'), 'the daemon reloaded')
        self.assertIn('5 gestures', self.text('#save-result'))
        status = wait_until(lambda: (s := self.daemon.status()) and 'added-in-the-browser' in s and s, 'status lists the new gesture')
        self.assertIn('(5 gestures)', status)
        self.assertIn('added-in-the-browser', open(self.daemon.config).read())
        self.assertTrue(os.path.exists(self.daemon.config + '.bak'), 'a backup of the old file')
        self.wait(lambda b: self.elements('#cards article.card[data-gesture="added-in-the-browser"]'), 'a card for the new gesture')

    def test_disable_on_a_card_disables_the_gesture_in_the_daemon(self):
        card = self.wait(lambda b: b.find_element(By.CSS_SELECTOR, '#cards article.card[data-gesture="hold-3"]'), 'the hold card')
        card.find_element(By.CSS_SELECTOR, 'button.toggle').click()
        wait_until(lambda: any(l.split()[:1] == ['hold-3'] and 'disabled' in l for l in self.daemon.status().splitlines()),
                   'status says hold-3 is disabled')
        self.wait(lambda b: 'disabled' in card.get_attribute('class'), 'the card says disabled')
        card.find_element(By.CSS_SELECTOR, 'button.toggle').click()
        wait_until(lambda: any(l.split()[:1] == ['hold-3'] and 'enabled' in l for l in self.daemon.status().splitlines()),
                   'enabled again')

    def test_with_no_device_record_is_off_and_says_what_list_devices_says(self):
        """Issue 38, item 5: the daemon has no device, so Record cannot record anything;
        it is off, and says why in `gestured list-devices`' words (the ui's scan of the
        machine's devices, as list-devices makes it)."""
        self.wait(lambda b: self.element('#record').get_attribute('disabled') is not None, 'Record is off')
        said = self.text('#record-result')
        listed = gestured('list-devices')
        self.assertIn('No touchpad or touchscreen is available to gestured.', said)
        for line in self.text('#record-result .no-device-reason').splitlines():
            self.assertIn(line.strip(), listed, 'each line as list-devices says it')
        self.screenshot('record-no-device', showing='#record')


load_tests = per_browser(globals())

if __name__ == '__main__':
    unittest.main()
