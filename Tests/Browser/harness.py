"""What the browser tests share: a real `gestured ui` (and, for some, a real daemon),
the browsers (headless Chromium driven by Debian's python3-selenium and
chromium-driver, headless Firefox ESR driven over its own Marionette socket by
marionette.py), the ground truth the page must agree with (`gestured replay` and
`gestured check` on the same input), and screenshots under
.build/test-logs/browser/BROWSER/.

Each page test class runs once per browser of GESTURED_BROWSERS (default
`chromium,firefox`): `load_tests = per_browser` in a module makes the copies.
Every browser is reached at 127.0.0.1 by number, never `localhost`: a minimal root
may have no /etc/hosts.

Every wait is bounded and waits for a fact (WebDriverWait, or a poll with a
deadline); nothing sleeps for a fixed time.
"""
import atexit
import http.client
import inspect
import json
import os
import re
import select
import shutil
import socket
import struct
import subprocess
import tempfile
import time
import unittest
import urllib.parse

import marionette
from marionette import By, Keys, TimeoutException, WebDriverWait  # noqa: F401 (the tests' names for them)

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
GESTURED = os.environ.get('GESTURED', os.path.join(ROOT, '.build', 'debug', 'gestured'))
FAKE_DAEMON = os.path.join(os.path.dirname(GESTURED), 'gestured-fake-daemon')
RECORDINGS = os.path.join(ROOT, 'Tests', 'Recordings')
CONFIGS = os.path.join(ROOT, 'Tests', 'Browser', 'configs')
LOGS = os.path.join(os.environ.get('GESTURED_TEST_LOGS', os.path.join(ROOT, '.build', 'test-logs')), 'browser')
BROWSERS = [b for b in os.environ.get('GESTURED_BROWSERS', 'chromium,firefox').split(',') if b]
# Two busy cores: a debug build's ui takes a while to decode and replay a recording.
WAIT_S = float(os.environ.get('GESTURED_BROWSER_WAIT', '20'))

SWIPE_DOWN = os.path.join(RECORDINGS, 'touchscreens_Atmel_maXTouch_Touchscreen.4-finger-drag-down.events')
TWO_FINGER_TAP = os.path.join(RECORDINGS, 'touchpads_AlpsPS2_ALPS_GlidePoint.2-finger-tap.events')
SWIPES_CONFIG = os.path.join(CONFIGS, 'swipes.yaml')


def relative(path):
    """A path from the source tree's root (where the servers run)."""
    return os.path.relpath(path, ROOT)


def wait_until(fact, what, timeout=WAIT_S):
    """Polls `fact` until it returns something true, for at most `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = fact()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f'not within {timeout} s: {what}')
        time.sleep(0.05)


def gestured(*args, env=None, check=True):
    """Runs the gestured binary; its stdout."""
    result = subprocess.run([GESTURED, *args], capture_output=True, text=True, env=env, timeout=60)
    if check and result.returncode not in (0, 3):
        raise AssertionError(f'gestured {" ".join(args)}: exit {result.returncode}: {result.stderr}')
    return result.stdout


class Replay:
    """What `gestured replay` says of a recording: the frames (time, finger count),
    each recognizer's last failure reason, and the gesture events with their values."""

    FRAME = re.compile(r'^(\d+\.\d{6})\s+(\d+) fingers?\b')
    FAILED = re.compile(r'^\d+\.\d{3}\s+(\S+) failed: (.*)$')

    def __init__(self, recording, config, description=None):
        where = (['--config', config] if config else ['--detect']) + (['--description', description] if description else [])
        text = gestured('replay', recording, *where, '--frames', '--explain')
        self.frames = []
        self.reasons = {}
        for line in text.splitlines():
            m = self.FRAME.match(line)
            if m:
                self.frames.append((float(m[1]), int(m[2])))
            m = self.FAILED.match(line)
            if m:
                self.reasons[m[1]] = m[2]
        self.gestures = [json.loads(l) for l in gestured('replay', recording, *where, '--json').splitlines() if l.startswith('{')]

    def first_frame_with(self, fingers):
        return next(i for i, (_, n) in enumerate(self.frames) if n == fingers)

    def frame_at(self, t):
        """The index of the frame at time t (the one a gesture event happened on)."""
        return min(range(len(self.frames)), key=lambda i: abs(self.frames[i][0] - t))


def check_messages(text):
    """`gestured check` on `text`: (line, column, severity, message) per diagnostic."""
    with tempfile.NamedTemporaryFile('w', suffix='.yaml', delete=False) as f:
        f.write(text)
    try:
        out = gestured('check', f.name, check=False)
    finally:
        os.unlink(f.name)
    found = []
    for line in out.splitlines():
        m = re.match(r'^.*?:(\d+):(\d+): (error|warning): (.*)$', line)
        if m:
            found.append((int(m[1]), int(m[2]), m[3], m[4]))
    return found


def read_first_line(process, log_path):
    """A child's first line on stdout, waited for at most WAIT_S."""
    deadline = time.monotonic() + WAIT_S
    line = ''
    while not line.endswith('\n'):
        left = deadline - time.monotonic()
        if left <= 0 or process.poll() is not None:
            raise AssertionError(f'{process.args[0]} printed no first line (exit {process.poll()}); see {log_path}')
        ready, _, _ = select.select([process.stdout], [], [], left)
        if ready:
            line += process.stdout.readline()
    return line.strip()


class Process:
    """A child with its stderr in a log file; stopped with SIGTERM, then SIGKILL."""

    def __init__(self, name, args, env=None, stdout=subprocess.DEVNULL, logs=LOGS):
        os.makedirs(logs, exist_ok=True)
        self.log_path = os.path.join(logs, f'{name}.log')
        self.log = open(self.log_path, 'w')
        # From the source tree, so the paths the page shows are the tree's own.
        self.process = subprocess.Popen(args, stdout=stdout, stderr=self.log, env=env, text=True, cwd=ROOT)

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


class UiServer(Process):
    """`gestured ui --no-open …`, and the URL it prints first."""

    def __init__(self, *args, env=None, name='ui', logs=LOGS):
        super().__init__(name, [GESTURED, 'ui', '--no-open', '--idle-exit', '120', *args], env=env, stdout=subprocess.PIPE,
                         logs=logs)
        self.url = self._first_line()
        parts = urllib.parse.urlsplit(self.url)
        self.port = parts.port
        self.token = urllib.parse.parse_qs(parts.query)['token'][0]
        self.origin = f'http://127.0.0.1:{self.port}'

    def _first_line(self):
        line = read_first_line(self.process, self.log_path)
        assert re.match(r'^http://127\.0\.0\.1:\d+/\?token=[0-9a-f]{32}$', line), line
        return line

    def log_in(self):
        """Trades the printed URL (which works once) for a session, with no browser:
        (the answer's status and headers, the `Cookie` header's value)."""
        status, headers, _ = self.request('GET', self.url[len(self.origin):], headers={'Host': f'127.0.0.1:{self.port}'})
        return status, headers, headers.get('Set-Cookie', '').split(';')[0]

    def request(self, method, path, body=None, headers=None):
        """A raw HTTP request (no browser): (status, headers, body)."""
        connection = http.client.HTTPConnection('127.0.0.1', self.port, timeout=WAIT_S)
        connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        for k, v in (headers or {}).items():
            connection.putheader(k, v)
        data = body.encode() if isinstance(body, str) else body
        if data is not None:
            connection.putheader('Content-Length', str(len(data)))
        connection.endheaders(data)
        response = connection.getresponse()
        answer = (response.status, dict(response.getheaders()), response.read().decode('utf-8', 'replace'))
        connection.close()
        return answer


class Daemon(Process):
    """`gestured run` with no devices (an empty input directory), its own runtime
    directory (the control socket) and home, so it never sees the user's. With
    `fake_pad`, `gestured-fake-daemon` instead: the same daemon with the fake 100 ×
    60 mm touchpad of Tests/Support, which `pad` (a FakePad) writes events into."""

    def __init__(self, config_text, fake_pad=False, extra=(), logs=LOGS):
        self.dir = tempfile.mkdtemp(prefix='gestured-browser-')
        for sub in ('run', 'home', 'input'):
            os.makedirs(os.path.join(self.dir, sub), mode=0o700)
        self.config = os.path.join(self.dir, 'config.yaml')
        with open(self.config, 'w') as f:
            f.write(config_text)
        self.env = dict(os.environ, XDG_RUNTIME_DIR=os.path.join(self.dir, 'run'), HOME=os.path.join(self.dir, 'home'))
        for k in ('WAYLAND_DISPLAY', 'DISPLAY', 'SWAYSOCK', 'I3SOCK', 'HYPRLAND_INSTANCE_SIGNATURE', 'XDG_CONFIG_HOME'):
            self.env.pop(k, None)
        where = ['--config', self.config, '--input-dir', os.path.join(self.dir, 'input'), *extra]
        if fake_pad:
            super().__init__('fake-daemon', [FAKE_DAEMON, *where], env=self.env, stdout=subprocess.PIPE, logs=logs)
            self.pad = FakePad(read_first_line(self.process, self.log_path))
        else:
            super().__init__('daemon', [GESTURED, 'run', *where], env=self.env, logs=logs)
        wait_until(lambda: self.status(check=False).startswith('gestured '), 'the daemon answers status')

    def log_text(self):
        self.log.flush()
        with open(self.log_path) as f:
            return f.read()

    def subscribes(self):
        """Whether the daemon answers `subscribe` (the event stream, docs/CONTROL.md)."""
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(WAIT_S)
            s.connect(os.path.join(self.env['XDG_RUNTIME_DIR'], 'gestured.sock'))
            s.sendall(b'subscribe\n')
            return s.recv(3) == b'ok\n'

    def status(self, check=True):
        return gestured('status', env=self.env, check=check)

    def stop(self):
        if getattr(self, 'pad', None):
            self.pad.close()
        super().stop()
        shutil.rmtree(self.dir, ignore_errors=True)


class FakePad:
    """Writes kernel input events (24-byte `struct input_event`s) into the fake
    touchpad of a gestured-fake-daemon: 100 × 60 mm, 10 units per mm.

    Each stroke is written in one go and stamped in the past (`Stamped`), as
    LiveDeviceTests.swipe does: no engine deadline of it lies in the future (a tip-tap
    is recognized 100 ms after its tap lifted: the daemon's timer fires at once), yet
    all of it inside the daemon's 1 s bound past which a frame is a stall's backlog and
    dropped (Daemon.staleFrameAge)."""
    EV_SYN, EV_KEY, EV_ABS = 0, 1, 3
    ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID = 0x2f, 0x35, 0x36, 0x39
    BTN_TOUCH, BTN_TOOL_FINGER, BTN_TOOL_DOUBLETAP, BTN_TOOL_TRIPLETAP = 0x14a, 0x145, 0x14d, 0x14e
    UNITS_PER_MM = 10

    def __init__(self, path):
        self.fd = os.open(path, os.O_WRONLY)

    def close(self):
        os.close(self.fd)

    class Stamped:
        """Events stamped from `ago` seconds before now (CLOCK_MONOTONIC), `t` on as
        the stroke advances it."""

        def __init__(self, ago):
            self.t = time.clock_gettime(time.CLOCK_MONOTONIC) - ago
            self.events = []

        def send(self, kind, code, value):
            self.events.append(struct.pack('qqHHi', int(self.t), int((self.t - int(self.t)) * 1e6), kind, code, value))

        def move(self, slot, x_mm, y_mm):
            self.send(FakePad.EV_ABS, FakePad.ABS_MT_SLOT, slot)
            self.send(FakePad.EV_ABS, FakePad.ABS_MT_POSITION_X, round(x_mm * FakePad.UNITS_PER_MM))
            self.send(FakePad.EV_ABS, FakePad.ABS_MT_POSITION_Y, round(y_mm * FakePad.UNITS_PER_MM))

        def land(self, slot, x_mm, y_mm):
            self.send(FakePad.EV_ABS, FakePad.ABS_MT_SLOT, slot)
            self.send(FakePad.EV_ABS, FakePad.ABS_MT_TRACKING_ID, 100 + slot)
            self.move(slot, x_mm, y_mm)

        def lift(self, slot):
            self.send(FakePad.EV_ABS, FakePad.ABS_MT_SLOT, slot)
            self.send(FakePad.EV_ABS, FakePad.ABS_MT_TRACKING_ID, -1)

        def tool(self, before, after):
            """BTN_TOUCH and BTN_TOOL_* for a finger count going from `before` to `after`."""
            tools = {1: FakePad.BTN_TOOL_FINGER, 2: FakePad.BTN_TOOL_DOUBLETAP, 3: FakePad.BTN_TOOL_TRIPLETAP}
            if before in tools:
                self.send(FakePad.EV_KEY, tools[before], 0)
            if after in tools:
                self.send(FakePad.EV_KEY, tools[after], 1)
            if (before == 0) != (after == 0):
                self.send(FakePad.EV_KEY, FakePad.BTN_TOUCH, int(after > 0))

        def frame(self, then_s):
            """Ends the frame (SYN_REPORT); the next is `then_s` later."""
            self.send(FakePad.EV_SYN, 0, 0)
            self.t += then_s

    def write(self, stamped):
        os.write(self.fd, b''.join(stamped.events))

    def three_fingers(self, dx_mm, lift=True):
        """Three fingers down at y = 30 mm, moved dx_mm sideways in 20 steps of 10 ms,
        then lifted; stamped 0.5 s in the past."""
        s = self.Stamped(ago=0.5)
        xs = [30, 40, 50]
        for slot, x in enumerate(xs):
            s.land(slot, x, 30)
        s.tool(0, 3)
        s.frame(0.01)
        for step in range(1, 21):
            for slot, x in enumerate(xs):
                s.send(self.EV_ABS, self.ABS_MT_SLOT, slot)
                s.send(self.EV_ABS, self.ABS_MT_POSITION_X, x * 10 + int(dx_mm * 10) * step // 20)
            s.frame(0.01)
        if lift:
            for slot in range(3):
                s.lift(slot)
            s.tool(3, 0)
            s.frame(0)
        self.write(s)

    def one_finger_path(self, points_mm, seconds=0.4, hz=100):
        """One finger down at the first of `points_mm` ((x, y) in mm, +y down), drawn
        straight through each of the others at an even speed in `seconds`, `hz` frames a
        second (every corner a frame of its own), then lifted; stamped to end 0.2 s ago."""
        legs = [(a, b, ((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2) ** 0.5) for a, b in zip(points_mm, points_mm[1:])]
        total = sum(length for _, _, length in legs)
        frames = max(len(legs), round(seconds * hz))
        s = self.Stamped(ago=seconds + 0.2)
        s.land(0, *points_mm[0])
        s.tool(0, 1)
        s.frame(1 / hz)
        for a, b, length in legs:
            steps = max(1, round(frames * length / total))
            for k in range(1, steps + 1):
                s.move(0, a[0] + (b[0] - a[0]) * k / steps, a[1] + (b[1] - a[1]) * k / steps)
                s.frame(1 / hz)
        s.lift(0)
        s.tool(1, 0)
        s.frame(0)
        self.write(s)

    def rest_then_tap(self, side='right', gap_mm=20, rest_s=0.2, tap_s=0.1, after_s=0.15):
        """A tip-tap: one finger down at (40, 30) mm and still for `rest_s`, a second
        lands `gap_mm` to its `side` and lifts `tap_s` later, where it landed (a tap's
        bounds: 300 ms, 3 mm), and the resting finger lifts `after_s` after that (the
        tip-tap's settle window is 100 ms); stamped to end 0.1 s ago."""
        self._rest_then(side, gap_mm, rest_s, tap_s, after_s, moved_mm=(0, 0))

    def rest_then_swipe(self, side='left', gap_mm=20, moved_mm=(0, 25), rest_s=0.2, swipe_s=0.2, after_s=0.1):
        """A tip-swipe: as rest_then_tap, but the second finger moves `moved_mm` ((dx,
        dy), +y down; its path centred on the resting finger's height) in 10 even steps
        over `swipe_s` before it lifts."""
        self._rest_then(side, gap_mm, rest_s, swipe_s, after_s, moved_mm)

    def _rest_then(self, side, gap_mm, rest_s, other_s, after_s, moved_mm, steps=10):
        rest = (40, 30)
        other = (rest[0] + (gap_mm if side == 'right' else -gap_mm), rest[1] - moved_mm[1] / 2)
        s = self.Stamped(ago=rest_s + other_s + after_s + 0.1)
        s.land(0, *rest)
        s.tool(0, 1)
        s.frame(rest_s)
        s.land(1, *other)
        s.tool(1, 2)
        if moved_mm == (0, 0):
            s.frame(other_s)
        else:
            s.frame(other_s / steps)
            for k in range(1, steps + 1):
                s.move(1, other[0] + moved_mm[0] * k / steps, other[1] + moved_mm[1] * k / steps)
                s.frame(other_s / steps)
        s.lift(1)
        s.tool(2, 1)
        s.frame(after_s)
        s.lift(0)
        s.tool(1, 0)
        s.frame(0)
        self.write(s)


def chromium(logs):
    """Debian's headless Chromium through Selenium and chromedriver, with the names
    marionette.Firefox has for what Selenium lacks (`press`, `console_errors`)."""
    from selenium import webdriver
    from selenium.common.exceptions import NoSuchElementException
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common import utils
    from selenium.webdriver.common.action_chains import ActionChains

    class ChromeDriverService(Service):
        """chromedriver at 127.0.0.1: Selenium 4.8 dials `localhost`, which does not
        resolve on a root without /etc/hosts (it then gives up after 30 s)."""

        @property
        def service_url(self):
            return f'http://127.0.0.1:{self.port}'

        def is_connectable(self):
            return utils.is_connectable(self.port, '127.0.0.1')

    class Chromium(webdriver.Chrome):
        no_such_element = NoSuchElementException

        def press(self, *keys):
            ActionChains(self).send_keys(*keys).perform()

        def console_errors(self):
            """What the console said since the last call: errors (an uncaught exception
            is one) and every refusal of the Content-Security-Policy."""
            return [entry['message'] for entry in self.get_log('browser')
                    if entry['level'] == 'SEVERE' or 'Content Security Policy' in entry['message']]

    options = Options()
    options.binary_location = shutil.which('chromium') or '/usr/bin/chromium'
    # A pipe between chromedriver and Chromium, not its default DevTools port, which
    # chromedriver dials as `localhost` too.
    for flag in ('--headless=new', '--disable-dev-shm-usage', '--disable-gpu', '--window-size=1400,1000',
                 '--no-first-run', '--disable-extensions', '--lang=en-US', '--remote-debugging-pipe'):
        options.add_argument(flag)
    if os.geteuid() == 0:
        options.add_argument('--no-sandbox')  # Chromium refuses to run its sandbox as root
    options.set_capability('goog:loggingPrefs', {'browser': 'ALL'})
    driver = shutil.which('chromedriver') or '/usr/bin/chromedriver'
    log = os.path.join(logs, 'chromedriver.log')
    # Debian 12's Selenium 4.8 calls it log_path; later ones log_output.
    where = 'log_output' if 'log_output' in inspect.signature(Service.__init__).parameters else 'log_path'
    return Chromium(options=options, service=ChromeDriverService(driver, **{where: log}))


def firefox(logs):
    """Debian's Firefox ESR, headless, over Marionette (marionette.py)."""
    return marionette.Firefox(width=1400, height=1000, log_path=os.path.join(logs, 'firefox.log'),
                              prefs={'intl.accept_languages': 'en-US'})


START = {'chromium': chromium, 'firefox': firefox}
# One browser of each kind for the whole run, quit at exit: Firefox takes about 15 s
# to start on two busy cores, once per run rather than once per test class.
RUNNING = {}


def shared_browser(name, logs):
    if name not in RUNNING:
        RUNNING[name] = START[name](logs)
        atexit.register(RUNNING[name].quit)
    return RUNNING[name]


def per_browser(namespace):
    """Each PageTest class of a test module (its `globals()`) once per browser of
    BROWSERS, as NAME_BROWSER beside it (so `run test_replay.ReplayPageTests_firefox`
    works); the module's `load_tests`, which runs those copies and not the original."""
    for name, value in list(namespace.items()):
        if isinstance(value, type) and issubclass(value, PageTest) and value.__module__ == namespace['__name__']:
            for browser in BROWSERS:
                copy = f'{name}_{browser}'
                namespace[copy] = type(copy, (value,), {'browser_name': browser, '__module__': value.__module__,
                                                        '__qualname__': copy})

    def load_tests(loader, tests, pattern):
        suite = unittest.TestSuite()
        for test in unittest.TestSuite(tests)._tests:
            cases = [t for t in test if not isinstance(t, PageTest) or 'browser_name' in type(t).__dict__]
            suite.addTests(cases)
        return suite
    return load_tests


class PageTest(unittest.TestCase):
    """A browser on a `gestured ui`; subclasses say how to start the server. The
    browser is `browser_name` (set by per_browser; alone, the first of BROWSERS),
    shared with the run's other classes, and its screenshots and the servers' logs go
    to `logs` (LOGS/BROWSER)."""

    server = None
    browser = None
    browser_name = None

    @classmethod
    def start_server(cls):
        raise NotImplementedError

    @classmethod
    def setUpClass(cls):
        cls.browser_name = cls.browser_name or BROWSERS[0]
        cls.logs = os.path.join(LOGS, cls.browser_name)
        os.makedirs(cls.logs, exist_ok=True)
        cls.server = cls.start_server()
        try:
            cls.browser = shared_browser(cls.browser_name, cls.logs)
        except Exception:
            cls.server.stop()
            raise

    @classmethod
    def tearDownClass(cls):
        """The page closed before its server stops, so the next class's first test
        hears nothing of a page retrying a server that is gone."""
        if cls.browser:
            cls.browser.get('about:blank')
            cls.browser.console_errors()
        if cls.server:
            cls.server.stop()

    def setUp(self):
        self.open_page()

    def tearDown(self):
        self.screenshot(self.id().split('.')[-1])
        self.assert_no_page_errors()

    def open_page(self):
        """The URL with the token the first time (the server trades it for its cookie
        and sends the browser to `/`), then `/` with the cookie alone."""
        if not getattr(type(self), 'has_cookie', False):
            self.browser.get(self.server.url)
            self.wait(lambda b: b.current_url == f'{self.server.origin}/', 'the token traded for the cookie')
            type(self).has_cookie = True
        else:
            self.browser.get(f'{self.server.origin}/')
        self.wait(lambda b: b.find_element(By.ID, 'session').text not in ('', 'Connecting…'), 'the session loaded')

    def wait(self, fact, what, timeout=WAIT_S):
        """`fact(browser)` true within `timeout` s (a missing element is not yet)."""
        waiting = WebDriverWait(self.browser, timeout, ignored=(self.browser.no_such_element,))
        return waiting.until(fact, f'not within {timeout} s: {what}')

    def element(self, css):
        return self.browser.find_element(By.CSS_SELECTOR, css)

    def elements(self, css):
        return self.browser.find_elements(By.CSS_SELECTOR, css)

    def text(self, css):
        return self.element(css).text

    def card(self, name):
        return self.element(f'#cards article.card[data-gesture="{name}"]')

    def card_values(self, card):
        """A card's values as a person reads them: each row's name (Translation, Shape,
        Side…) and its text, read in one step in the page: a live card redraws its rows
        as frames come, and rows found first and read one by one went stale between."""
        rows = self.browser.execute_script(
            "const c = arguments[0];"
            "const names = [...c.querySelectorAll('.values dt')].map((e) => e.innerText.trim());"
            "const texts = [...c.querySelectorAll('.values dd')].map((e) => e.innerText.trim());"
            "return names.map((n, i) => [n, texts[i] ?? '']);", card)
        return {name: text for name, text in rows}

    def screenshot(self, name, showing=None):
        """The window as it is, or first scrolled to the element `showing` (a CSS selector)."""
        if showing:
            self.browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", self.element(showing))
        self.browser.save_screenshot(os.path.join(self.logs, f'{name}.png'))

    def press(self, *keys):
        """Keys pressed on whatever has the focus, as a user would."""
        self.browser.press(*keys)

    def assert_no_page_errors(self):
        """The page broke no rule of the CSP and threw nothing (the browser's console:
        test_replay proves this sees both)."""
        self.assertEqual(self.browser.console_errors(), [], f'the {self.browser_name} console reported errors')

    def set_editor(self, text):
        """Replaces the editor's text as a user would: select all, then type."""
        editor = self.element('#editor')
        editor.click()
        self.browser.execute_script('arguments[0].select()', editor)
        editor.send_keys(text)


class DaemonPageTest(PageTest):
    """A browser on a `gestured ui` beside a real daemon: subclasses say how to start
    the daemon (`start_daemon`) and what the ui is given (`ui_args`, `ui_name`). The
    daemon goes when the class's tests are done, or at once if the ui cannot start."""

    daemon = None
    ui_args = ()
    ui_name = 'ui'

    @classmethod
    def start_daemon(cls):
        raise NotImplementedError

    @classmethod
    def start_server(cls):
        cls.daemon = cls.start_daemon()
        try:
            return UiServer(*cls.ui_args, env=cls.daemon.env, name=cls.ui_name, logs=cls.logs)
        except Exception:
            cls.daemon.stop()
            raise

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        cls.daemon.stop()


class OwnConfigCopy:
    """For a page test: `gestured ui --replay RECORDING --config` on the test's own copy
    of a config (`config_source`), which Save may write. `cls.dir`, `cls.config` (the
    copy), `cls.original` (its text); the directory goes after the class's tests."""
    recording = SWIPE_DOWN
    config_source = SWIPES_CONFIG
    ui_name = 'ui'

    @classmethod
    def start_server(cls):
        cls.dir = tempfile.mkdtemp(prefix='gestured-browser-')
        cls.config = os.path.join(cls.dir, os.path.basename(cls.config_source))
        shutil.copy(cls.config_source, cls.config)
        with open(cls.config) as f:
            cls.original = f.read()
        return UiServer('--replay', relative(cls.recording), '--config', cls.config, name=cls.ui_name, logs=cls.logs)

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        shutil.rmtree(cls.dir, ignore_errors=True)


class FakePadPageTest(DaemonPageTest):
    """A page on a daemon that runs a config (`config_text`, or the file
    Tests/Browser/configs/`config_file`) on the fake touchpad, the pad drawn and the
    stream connected before each test."""
    config_file = None
    config_text = None
    daemon_extra = []

    @classmethod
    def start_daemon(cls):
        text = cls.config_text
        if text is None:
            with open(os.path.join(CONFIGS, cls.config_file)) as f:
                text = f.read()
        daemon = Daemon(text, fake_pad=True, extra=cls.daemon_extra, logs=cls.logs)
        cls.ui_args = ('--config', daemon.config)
        return daemon

    def setUp(self):
        super().setUp()
        self.wait(lambda b: self.elements('svg.device'), 'the fake touchpad drawn')
        self.wait(lambda b: self.text('#connection') == 'Connected', 'the event stream connected')


class LocalModePageTest(PageTest):
    """The page on a `gestured ui` that finds no daemon: a private runtime directory and
    home, none of the desktop's variables, so the ui runs its own daemon in dry run
    (local mode). A subclass gives the config's text (`config_text`), written to
    `cls.config` in `cls.dir`."""
    server_name = 'ui-local'

    @classmethod
    def config_text(cls):
        raise NotImplementedError

    @classmethod
    def start_server(cls):
        cls.dir = tempfile.mkdtemp(prefix='gestured-browser-')
        for sub in ('run', 'home'):
            os.makedirs(os.path.join(cls.dir, sub), mode=0o700)
        cls.config = os.path.join(cls.dir, 'config.yaml')
        with open(cls.config, 'w') as f:
            f.write(cls.config_text())
        env = dict(os.environ, XDG_RUNTIME_DIR=os.path.join(cls.dir, 'run'), HOME=os.path.join(cls.dir, 'home'))
        for k in ('WAYLAND_DISPLAY', 'DISPLAY', 'SWAYSOCK', 'I3SOCK', 'HYPRLAND_INSTANCE_SIGNATURE', 'XDG_CONFIG_HOME'):
            env.pop(k, None)
        return UiServer('--config', cls.config, env=env, name=cls.server_name, logs=cls.logs)

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        shutil.rmtree(cls.dir, ignore_errors=True)
