"""`gestured ui` refuses what a hostile web page or another local user could send:
no session, a used login address, a wrong Host (DNS rebinding), another origin; and
it keeps answering the page under floods of idle and trickling connections, with its
memory bounded. Raw HTTP requests, so each header is exactly what the test says; each
refusal has its accepted twin beside it, so the test fails when the server refuses
everything."""
import re
import socket
import time
import unittest

from harness import SWIPE_DOWN, SWIPES_CONFIG, WAIT_S, UiServer

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


class SecurityTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = UiServer('--replay', SWIPE_DOWN, '--config', SWIPES_CONFIG, name='ui-security')
        cls.host = f'127.0.0.1:{cls.server.port}'
        cls.login_status, cls.login_headers, cls.cookie = cls.server.log_in()

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def get(self, path, host=None, cookie=None):
        headers = {'Host': host or self.host}
        if cookie:
            headers['Cookie'] = cookie
        return self.server.request('GET', path, headers=headers)

    def post(self, path, body, origin, cookie=None):
        headers = {'Host': self.host, 'Cookie': cookie or self.cookie, 'Content-Type': 'text/plain'}
        if origin:
            headers['Origin'] = origin
        return self.server.request('POST', path, body, headers)

    def connect(self):
        return socket.create_connection(('127.0.0.1', self.server.port), timeout=WAIT_S)

    def rss_mb(self, field='VmRSS'):
        with open(f'/proc/{self.server.process.pid}/status') as f:
            return int(re.search(field + r':\s+(\d+)', f.read()).group(1)) / 1024

    def test_the_printed_url_logs_in_once_for_a_session_cookie_that_is_not_its_token(self):
        self.assertEqual(self.login_status, 303)
        self.assertEqual(self.login_headers.get('Location'), '/')
        cookie = self.login_headers.get('Set-Cookie', '')
        name, _, session = self.cookie.partition('=')
        self.assertEqual(name, f'gestured_ui_{self.server.port}', 'named after the port: a second ui logs nobody out')
        self.assertNotEqual(session, self.server.token, 'the cookie is not the token')
        for attribute in ('HttpOnly', 'SameSite=Strict', 'Path=/'):
            self.assertIn(attribute, cookie)
        status, headers, _ = self.get(f'/?token={self.server.token}')
        self.assertEqual(status, 403, 'whoever reads the address later logs nobody in')
        self.assertNotIn('Set-Cookie', headers)
        self.assertEqual(self.get('/api/session', cookie=f'{name}={self.server.token}')[0], 403, 'the token is no session')

    def test_without_a_session_every_path_is_403(self):
        for path in ('/', '/app.js', '/app.css', '/api/session', '/api/events', '/api/recording'):
            self.assertEqual(self.get(path)[0], 403, path)
        self.assertEqual(self.get('/?token=' + '0' * 32)[0], 403, 'a wrong token')
        self.assertEqual(self.get('/api/session', cookie=f'gestured_ui_{self.server.port}=' + '0' * 32)[0], 403, 'a wrong cookie')
        self.assertEqual(self.get('/api/session', cookie='gestured_ui=' + self.cookie.partition('=')[2])[0], 403, 'another port\'s name')
        self.assertEqual(self.get('/api/session', cookie=self.cookie)[0], 200, 'the right cookie')

    def test_a_wrong_host_is_403_even_with_the_session(self):
        for host in (f'evil.example:{self.server.port}', 'evil.example', f'127.0.0.1:{self.server.port + 1}', f'127.0.0.2:{self.server.port}'):
            self.assertEqual(self.get('/api/session', host=host, cookie=self.cookie)[0], 403, host)
        self.assertEqual(self.get('/api/session', host=f'localhost:{self.server.port}', cookie=self.cookie)[0], 200)

    def test_a_post_from_another_origin_or_none_is_403(self):
        for origin in ('http://evil.example', f'http://127.0.0.1:{self.server.port + 1}', 'null', None):
            self.assertEqual(self.post('/api/check', 'gestures: []\n', origin)[0], 403, origin)
            self.assertEqual(self.post('/api/save', '{"text":"gestures: []\\n","force":true}', origin)[0], 403, origin)
            self.assertEqual(self.post('/api/trigger', 'swipe-down-4', origin)[0], 403, origin)
        self.assertEqual(self.post('/api/check', 'gestures: []\n', self.server.origin)[0], 200)

    def test_every_answer_carries_the_strict_headers_and_no_cors(self):
        for status, headers, _ in (self.get('/', cookie=self.cookie), self.get('/api/session'),
                                   self.post('/api/check', 'x: 1\n', 'http://evil.example')):
            self.assertEqual(headers.get('Content-Security-Policy'), CSP)
            self.assertEqual(headers.get('X-Content-Type-Options'), 'nosniff')
            self.assertEqual(headers.get('Referrer-Policy'), 'no-referrer')
            self.assertEqual(headers.get('Cache-Control'), 'no-store')
            self.assertFalse([k for k in headers if k.lower().startswith('access-control-')], 'no CORS header')

    def test_idle_and_trickling_floods_do_not_lock_the_page_out(self):
        """Another local user, with no session: 1,000 idle connections and 66 that send
        a byte now and then. The page's requests still answer at once."""
        flood = []
        try:
            for i in range(1066):
                c = self.connect()
                if i % 16 == 0:
                    c.sendall(f'GET / HTTP/1.1\r\nHost: {self.host}\r\nX-Slow: '.encode())
                flood.append(c)
            for c in flood[::16]:
                try:
                    c.send(b'x')
                except OSError:
                    pass  # already closed to make room
            t0 = time.monotonic()
            self.assertEqual(self.get('/api/session', cookie=self.cookie)[0], 200)
            self.assertEqual(self.post('/api/check', 'gestures: []\n', self.server.origin)[0], 200)
            self.assertLess(time.monotonic() - t0, 5, 'at once, not after a timeout')
        finally:
            for c in flood:
                c.close()

    def test_sixteen_reloads_leave_no_stale_event_stream(self):
        """A reload closes the page's event stream while it is idle: its slot is free at
        once, not at the next heartbeat (15 s), so the 17th page gets its stream."""
        request = f'GET /api/events HTTP/1.1\r\nHost: {self.host}\r\nCookie: {self.cookie}\r\n\r\n'.encode()
        for _ in range(17):
            c = self.connect()
            c.sendall(request)
            head = b''
            while b'\r\n\r\n' not in head:
                chunk = c.recv(4096)
                self.assertTrue(chunk, 'the stream answered')
                head += chunk
            self.assertTrue(head.startswith(b'HTTP/1.1 200'), head[:200])
            c.close()

    def post_head(self, path, length):
        c = self.connect()
        c.sendall((f'POST {path} HTTP/1.1\r\nHost: {self.host}\r\nOrigin: {self.server.origin}\r\n'
                   f'Cookie: {self.cookie}\r\nContent-Length: {length}\r\n\r\n').encode())
        return c

    def test_bodies_and_configs_are_bounded(self):
        """A 30 MiB config to check and eight 32 MiB recordings are refused by their
        length, before they are sent; eight 4 MiB recordings held open at once: four
        are taken in (16 MiB), the rest refused (503)."""
        start = self.rss_mb()
        for path, length in [('/api/check', 30 << 20)] + [('/api/recording', 32 << 20)] * 8:
            c = self.post_head(path, length)
            self.assertTrue(c.recv(4096).startswith(b'HTTP/1.1 413'), path)
            c.close()
        held, refused = [], 0
        try:
            for _ in range(8):
                c = self.post_head('/api/recording', 4 << 20)
                try:
                    c.sendall(b'E: 0.000001 0000 0000 0000\n' * ((4 << 20) // 27 - 1))
                    held.append(c)
                except OSError:
                    self.assertTrue(c.recv(4096).startswith(b'HTTP/1.1 503'))
                    refused += 1
                    c.close()
            self.assertEqual((len(held), refused), (4, 4))
            self.assertLess(self.rss_mb() - start, 40, 'four 4 MiB bodies held, not eight 32 MiB ones')
        finally:
            for c in held:
                c.close()


if __name__ == '__main__':
    unittest.main()
