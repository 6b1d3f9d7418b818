"""The page on `gestured ui` in local mode (no daemon running) with a config that has
an error: the private dry-run daemon cannot start, the page says why, and a good Save
starts it again and makes the page live (issue 35, item 10)."""
import os
import shutil
import tempfile

from harness import SWIPES_CONFIG, LocalModePageTest, PageTest, UiServer, check_messages, per_browser


class LocalBrokenConfigTests(LocalModePageTest):
    @classmethod
    def config_text(cls):
        return 'gestures:\n  - name: x\n    gesture: swipee\n'

    def test_the_page_says_why_there_is_no_engine_and_a_good_save_makes_it_live(self):
        def why(b):
            return [e.text for e in self.elements('#timeline li.timeline-reload.error') if 'private daemon' in e.text]
        said = self.wait(why, 'why the private daemon is not running')[0]
        self.assertIn("unknown gesture kind 'swipee'", said)
        self.assertIn('It starts again in', said)
        self.assertIn('own engine', self.text('#session'))
        self.assertEqual(self.elements('#cards article.card'), [])
        with open(SWIPES_CONFIG) as f:
            self.set_editor(f.read())
        self.wait(lambda b: 'no problems' in self.text('#check-status'), 'the good config checked clean')
        self.element('#save').click()
        self.wait(lambda b: 'started it again' in self.text('#save-result'), 'Save started the private daemon')
        self.wait(lambda b: self.elements('#cards article.card'), "the saved config's cards: the page is live")


class FirstRunTests(PageTest):
    """A first run (issue 38, item 5): no config file and no daemon. The page says that
    there is no config yet and that Save creates it, and offers to start from the
    default or empty; Save of an empty one creates the file, and the banner goes."""

    @classmethod
    def start_server(cls):
        cls.dir = tempfile.mkdtemp(prefix='gestured-browser-')
        for sub in ('run', 'home'):
            os.makedirs(os.path.join(cls.dir, sub), mode=0o700)
        cls.config = os.path.join(cls.dir, 'home', '.config', 'gestured', 'config.yaml')
        env = dict(os.environ, XDG_RUNTIME_DIR=os.path.join(cls.dir, 'run'), HOME=os.path.join(cls.dir, 'home'))
        for k in ('WAYLAND_DISPLAY', 'DISPLAY', 'SWAYSOCK', 'I3SOCK', 'HYPRLAND_INSTANCE_SIGNATURE', 'XDG_CONFIG_HOME'):
            env.pop(k, None)
        return UiServer(env=env, name='ui-first-run', logs=cls.logs)

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        shutil.rmtree(cls.dir, ignore_errors=True)

    def test_no_config_yet_says_save_creates_it_and_starts_from_the_default_or_empty(self):
        banner = self.wait(lambda b: (e := self.element('#no-config')).is_displayed() and e, 'the no-config banner')
        self.assertIn('No config yet — Save creates', banner.text)
        self.assertEqual(self.text('#no-config-path'), self.config)
        self.screenshot('first-run-banner')
        self.element('#start-empty').click()
        self.wait(lambda b: 'gestures: []' in self.element('#editor').get_property('value'), 'an empty config in the editor')
        self.wait(lambda b: 'no problems' in self.text('#check-status'), 'it checks clean')
        self.element('#start-default').click()
        self.wait(lambda b: 'gestures: []' not in (t := self.element('#editor').get_property('value')) and 'gestures:' in t,
                  'the default in the editor')
        self.wait(lambda b: 'no problems' in self.text('#check-status'), 'the default checks clean')
        self.assertEqual(check_messages(self.element('#editor').get_property('value')), [])
        self.element('#start-empty').click()
        self.wait(lambda b: 'gestures: []' in self.element('#editor').get_property('value'), 'empty again')
        self.element('#save').click()
        self.wait(lambda b: self.text('#save-result').startswith('Saved.'), 'saved')
        self.assertTrue(os.path.exists(self.config), 'Save created the file')
        self.wait(lambda b: not self.element('#no-config').is_displayed(), 'the banner gone')
        self.screenshot('first-run-saved', showing='#save-result')

    def test_a_binding_inserted_after_start_empty_checks_clean(self):
        """Start empty, then a recorded or proposed binding's Insert: `gestures: []`
        becomes the list it goes into (its comment kept), not a second `gestures:`."""
        empty = 'gestures: []  # none yet\n'
        binding = '- name: tap-2\n  gesture: tap\n  fingers: 2\n  command: notify-send tap\n'
        text = self.browser.execute_script(
            "return import('/config-text.js').then((m) => m.insertBinding(arguments[0], arguments[1]).text)", empty, binding)
        self.assertEqual(text.count('gestures:'), 1, text)
        self.assertIn('# none yet', text)
        self.assertIn('  - name: tap-2', text)
        self.assertEqual(check_messages(text), [])



load_tests = per_browser(globals())
