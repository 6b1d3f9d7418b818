"""A small Marionette client: Firefox driven the way the browser tests drive Chromium
through Selenium, with only the Python standard library.

Debian 12 has no geckodriver, but Firefox speaks Marionette itself
(`firefox-esr --marionette`): a TCP socket on 127.0.0.1 carrying length-prefixed JSON,
`N:[0, id, "WebDriver:Navigate", {...}]` answered by `N:[1, id, error, result]`. The
WebDriver commands behind it are the W3C ones Selenium sends, so this module offers
the same names for the part of Selenium's API the tests use (`get`, `find_element`,
`execute_script`, an element's `text`, `click`, `send_keys`, `get_attribute`, …) and
`WebDriverWait`. Keys and locator strategies are the W3C values Selenium uses too, so
the tests can name them without importing Selenium.

The port is Marionette's own choice (`marionette.port` 0 in the profile), which Firefox
writes to the profile's MarionetteActivePort: two runs on one machine never collide,
and 127.0.0.1 is dialled by number, so no /etc/hosts is needed.
"""
import base64
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time

ELEMENT_KEY = 'element-6066-11e4-a52e-4f735466cecf'
# How long Firefox may take to start and open its Marionette port, on two busy cores.
START_S = 60


class By:
    ID = 'id'
    CSS_SELECTOR = 'css selector'


class Keys:
    """The W3C key codes (the same strings as Selenium's Keys)."""
    TAB = '\ue004'
    ENTER = '\ue007'
    ESCAPE = '\ue00c'
    END = '\ue010'
    HOME = '\ue011'
    ARROW_RIGHT = '\ue014'
    ARROW_DOWN = '\ue015'
    DELETE = '\ue017'
    CONTROL = '\ue009'


class WebDriverException(Exception):
    pass


class NoSuchElementException(WebDriverException):
    pass


class StaleElementReferenceException(WebDriverException):
    pass


class TimeoutException(WebDriverException):
    pass


ERRORS = {'no such element': NoSuchElementException, 'stale element reference': StaleElementReferenceException,
          'timeout': TimeoutException}


class WebDriverWait:
    """Selenium's WebDriverWait: `until(fact, message)` polls `fact(driver)` until it is
    true, treating a missing element as not yet, for at most `timeout` seconds."""

    def __init__(self, driver, timeout, poll=0.05, ignored=(NoSuchElementException,)):
        self.driver, self.timeout, self.poll, self.ignored = driver, timeout, poll, tuple(ignored)

    def until(self, fact, message=''):
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                value = fact(self.driver)
                if value:
                    return value
            except self.ignored:
                pass
            if time.monotonic() > deadline:
                raise TimeoutException(message)
            time.sleep(self.poll)


class Connection:
    """One Marionette socket: a command out, its answer back, in order."""

    def __init__(self, port, timeout):
        self.socket = socket.create_connection(('127.0.0.1', port), timeout=timeout)
        self.buffer = b''
        self.next_id = 0
        self.hello = self._read()  # {"applicationType": "gecko", "marionetteProtocol": 3}

    def _read(self):
        while b':' not in self.buffer:
            self._fill()
        size, _, rest = self.buffer.partition(b':')
        size = int(size)
        while len(rest) < size:
            self.buffer = rest
            self._fill()
            rest = self.buffer
        self.buffer = rest[size:]
        return json.loads(rest[:size])

    def _fill(self):
        chunk = self.socket.recv(65536)
        if not chunk:
            raise WebDriverException('Marionette closed the connection')
        self.buffer += chunk

    def send(self, name, params=None):
        self.next_id += 1
        data = json.dumps([0, self.next_id, name, params or {}]).encode()
        self.socket.sendall(b'%d:%s' % (len(data), data))
        while True:
            kind, reply_id, error, result = self._read()
            if kind == 1 and reply_id == self.next_id:
                break
        if error:
            raise ERRORS.get(error.get('error'), WebDriverException)(f"{name}: {error.get('error')}: {error.get('message')}")
        return result

    def close(self):
        self.socket.close()


class WebElement:
    def __init__(self, driver, id):
        self.driver, self.id = driver, id

    def _send(self, command, **params):
        return self.driver._send(command, {'id': self.id, **params})

    @property
    def text(self):
        return self._send('WebDriver:GetElementText')['value']

    def click(self):
        self._send('WebDriver:ElementClick')

    def send_keys(self, *keys):
        """As Selenium does: the keys are one string, a modifier held until its end."""
        self._send('WebDriver:ElementSendKeys', text=''.join(keys))

    def get_attribute(self, name):
        """Selenium's get_attribute: the property when it is a plain value (so `class`
        and `textContent` answer), else the attribute; a string or None."""
        return self.driver.execute_script("""
            const [element, name] = arguments;
            let value;
            try { value = element[name === 'class' ? 'className' : name]; } catch (e) {}
            if (value === undefined || value === null || typeof value === 'object') value = element.getAttribute(name);
            return value === null || value === undefined ? null : String(value);""", self, name)

    def get_dom_attribute(self, name):
        return self._send('WebDriver:GetElementAttribute', name=name)['value']

    def get_property(self, name):
        return self._send('WebDriver:GetElementProperty', name=name)['value']

    def is_displayed(self):
        return self._send('WebDriver:IsElementDisplayed')['value']

    def find_element(self, by, value):
        return self.driver._find('WebDriver:FindElement', by, value, self)

    def find_elements(self, by, value):
        return self.driver._find('WebDriver:FindElements', by, value, self)


class SwitchTo:
    def __init__(self, driver):
        self.driver = driver

    @property
    def active_element(self):
        return self.driver._unwrap(self.driver._send('WebDriver:GetActiveElement')['value'])


class Firefox:
    """A headless Firefox with a fresh profile in a temporary directory, driven over
    Marionette; `quit()` ends it and removes the profile."""

    no_such_element = NoSuchElementException

    def __init__(self, binary=None, width=1400, height=1000, log_path=os.devnull, prefs=None):
        self.profile = tempfile.mkdtemp(prefix='gestured-firefox-')
        with open(os.path.join(self.profile, 'user.js'), 'w') as f:
            for name, value in {'marionette.port': 0, **(prefs or {})}.items():
                f.write(f'user_pref({json.dumps(name)}, {json.dumps(value)});\n')
        # HOME in the profile: Firefox's caches stay out of the user's; system access:
        # console_errors reads the browser's console service in its own context.
        env = dict(os.environ, MOZ_CRASHREPORTER_DISABLE='1', HOME=self.profile)
        self.log = open(log_path, 'w')
        self.process = subprocess.Popen(
            [binary or shutil.which('firefox-esr') or shutil.which('firefox') or '/usr/bin/firefox-esr',
             '--headless', '--marionette', '-remote-allow-system-access', '--no-remote', '--profile', self.profile,
             f'--width={width}', f'--height={height}', 'about:blank'],
            stdout=self.log, stderr=subprocess.STDOUT, env=env)
        try:
            self.connection = Connection(self._port(), timeout=START_S)
            self.capabilities = self._send('WebDriver:NewSession', {'strictFileInteractability': True})['capabilities']
        except BaseException:
            self.process.kill()
            self._stop()
            raise
        self.switch_to = SwitchTo(self)

    def _port(self):
        """The port Marionette chose, once it listens (MarionetteActivePort)."""
        path = os.path.join(self.profile, 'MarionetteActivePort')
        deadline = time.monotonic() + START_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise WebDriverException(f'Firefox exited with status {self.process.returncode} before Marionette listened')
            try:
                with open(path) as f:
                    text = f.read().strip()
                if text:
                    return int(text)
            except (FileNotFoundError, ValueError):
                pass
            time.sleep(0.05)
        raise WebDriverException(f'Marionette did not listen within {START_S} s')

    def _send(self, name, params=None):
        return self.connection.send(name, self._wrap(params))

    def _wrap(self, value):
        if isinstance(value, WebElement):
            return {ELEMENT_KEY: value.id}
        if isinstance(value, dict):
            return {k: self._wrap(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [self._wrap(v) for v in value]
        return value

    def _unwrap(self, value):
        if isinstance(value, dict):
            if ELEMENT_KEY in value:
                return WebElement(self, value[ELEMENT_KEY])
            return {k: self._unwrap(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self._unwrap(v) for v in value]
        return value

    def _find(self, command, by, value, within=None):
        params = {'using': by, 'value': value}
        if within is not None:
            params['element'] = within.id
        found = self._send(command, params)
        # FindElement answers {"value": element}, FindElements the list itself.
        return self._unwrap(found['value'] if isinstance(found, dict) else found)

    def get(self, url):
        self._send('WebDriver:Navigate', {'url': url})

    @property
    def current_url(self):
        return self._send('WebDriver:GetCurrentURL')['value']

    def find_element(self, by, value):
        return self._find('WebDriver:FindElement', by, value)

    def find_elements(self, by, value):
        return self._find('WebDriver:FindElements', by, value)

    def execute_script(self, script, *args):
        return self._unwrap(self._send('WebDriver:ExecuteScript', {'script': script, 'args': list(args)})['value'])

    def press(self, *keys):
        """Each key pressed and released, sent to whatever has the focus (Selenium's
        ActionChains(driver).send_keys(*keys).perform())."""
        actions = []
        for key in keys:
            actions += [{'type': 'keyDown', 'value': key}, {'type': 'keyUp', 'value': key}]
        self._send('WebDriver:PerformActions', {'actions': [{'type': 'key', 'id': 'keyboard', 'actions': actions}]})
        self._send('WebDriver:ReleaseActions')

    def set_window_size(self, width, height):
        self._send('WebDriver:SetWindowRect', {'width': width, 'height': height})

    def get_screenshot_as_png(self):
        """The viewport, as Selenium's (Marionette's default is the whole document)."""
        return base64.b64decode(self._send('WebDriver:TakeScreenshot', {'full': False})['value'])

    def save_screenshot(self, path):
        with open(path, 'wb') as f:
            f.write(self.get_screenshot_as_png())
        return True

    def execute_chrome_script(self, script, *args):
        """A script in the browser's own (privileged) context rather than the page's."""
        self._send('Marionette:SetContext', {'value': 'chrome'})
        try:
            return self.execute_script(script, *args)
        finally:
            self._send('Marionette:SetContext', {'value': 'content'})

    def console_errors(self):
        """What Firefox's console service logged for web content since the last call:
        errors (an uncaught exception in a page is one, category `content javascript`)
        and every refusal of a Content-Security-Policy (categories CSP…). Content
        processes forward their messages to the parent's service, which this reads in
        the browser's own context; Firefox's own errors (`chrome javascript`) are not
        the page's."""
        return self.execute_chrome_script("""
            const { warningFlag, infoFlag } = Ci.nsIScriptError;
            const errors = [];
            for (const message of Services.console.getMessageArray() || []) {
              if (!(message instanceof Ci.nsIScriptError) || (message.flags & (warningFlag | infoFlag))) continue;
              if (message.category.startsWith('CSP') || message.category === 'content javascript' ||
                  /^https?:/.test(message.sourceName)) {
                errors.push(`${message.errorMessage} (${message.sourceName}:${message.lineNumber})`);
              }
            }
            Services.console.reset();
            return errors;""")

    def quit(self):
        try:
            self._send('Marionette:Quit', {'flags': ['eForceQuit']})
        except (OSError, WebDriverException):
            pass
        self._stop()

    def _stop(self):
        if getattr(self, 'connection', None):
            self.connection.close()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()
        shutil.rmtree(self.profile, ignore_errors=True)
