"""`gestured ui` refuses what a hostile web page or another local user could send:
no token, a wrong Host (DNS rebinding), another origin. Raw HTTP requests, so each
header is exactly what the test says; each refusal has its accepted twin beside it,
so the test fails when the server refuses everything."""
import unittest

from harness import SWIPE_DOWN, SWIPES_CONFIG, UiServer

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


class SecurityTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = UiServer('--replay', SWIPE_DOWN, '--config', SWIPES_CONFIG, name='ui-security')
        cls.host = f'127.0.0.1:{cls.server.port}'
        cls.cookie = f'gestured_ui={cls.server.token}'

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

    def test_the_token_in_the_url_becomes_an_httponly_strict_cookie(self):
        status, headers, _ = self.get(f'/?token={self.server.token}')
        self.assertEqual(status, 303)
        self.assertEqual(headers.get('Location'), '/')
        cookie = headers.get('Set-Cookie', '')
        self.assertIn(self.cookie, cookie)
        for attribute in ('HttpOnly', 'SameSite=Strict', 'Path=/'):
            self.assertIn(attribute, cookie)

    def test_without_the_token_every_path_is_403(self):
        for path in ('/', '/app.js', '/app.css', '/api/session', '/api/events', '/api/recording'):
            self.assertEqual(self.get(path)[0], 403, path)
        self.assertEqual(self.get('/?token=' + '0' * 32)[0], 403, 'a wrong token')
        self.assertEqual(self.get('/api/session', cookie='gestured_ui=' + '0' * 32)[0], 403, 'a wrong cookie')
        self.assertEqual(self.get(f'/api/session?token={self.server.token}')[0], 403, 'the token in the URL of an API')
        self.assertEqual(self.get('/api/session', cookie=self.cookie)[0], 200, 'the right cookie')

    def test_a_wrong_host_is_403_even_with_the_token(self):
        for host in (f'evil.example:{self.server.port}', 'evil.example', f'127.0.0.1:{self.server.port + 1}', f'127.0.0.2:{self.server.port}'):
            self.assertEqual(self.get('/api/session', host=host, cookie=self.cookie)[0], 403, host)
        self.assertEqual(self.get('/api/session', host=f'localhost:{self.server.port}', cookie=self.cookie)[0], 200)

    def test_a_post_from_another_origin_or_none_is_403(self):
        for origin in ('http://evil.example', f'http://127.0.0.1:{self.server.port + 1}', 'null', None):
            self.assertEqual(self.post('/api/check', 'gestures: []\n', origin)[0], 403, origin)
            self.assertEqual(self.post('/api/save', '{"text":"gestures: []\\n","force":true}', origin)[0], 403, origin)
        self.assertEqual(self.post('/api/check', 'gestures: []\n', self.server.origin)[0], 200)

    def test_every_answer_carries_the_strict_headers_and_no_cors(self):
        for status, headers, _ in (self.get('/', cookie=self.cookie), self.get('/api/session'),
                                   self.post('/api/check', 'x: 1\n', 'http://evil.example')):
            self.assertEqual(headers.get('Content-Security-Policy'), CSP)
            self.assertEqual(headers.get('X-Content-Type-Options'), 'nosniff')
            self.assertEqual(headers.get('Referrer-Policy'), 'no-referrer')
            self.assertEqual(headers.get('Cache-Control'), 'no-store')
            self.assertFalse([k for k in headers if k.lower().startswith('access-control-')], 'no CORS header')


if __name__ == '__main__':
    unittest.main()
