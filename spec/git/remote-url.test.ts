import test from 'ava';
import { withoutCredentials } from '../../lib/git/remote-url.js';

// A remote URL's credentials never reach an answer: the one redaction every quoted URL goes through.

const TABLE: readonly [string, string, string][] = [
  ['user and password', 'http://user:secret@host/o/r.git', 'http://***@host/o/r.git'],
  ['a token as the user', 'https://ghp_abc123@github.com/o/r.git', 'https://***@github.com/o/r.git'],
  ['a password with an @ in it', 'https://me:p@ss@host:8443/o/r', 'https://***@host:8443/o/r'],
  ['inside a git message', "fatal: unable to access 'https://u:pw@host/o/r.git/': 403", "fatal: unable to access 'https://***@host/o/r.git/': 403"],
  ['two URLs in one text', 'from http://a:b@x/1 to ssh://c:d@y/2', 'from http://***@x/1 to ssh://***@y/2'],
  ['no credentials: unchanged', 'https://github.com/o/r.git', 'https://github.com/o/r.git'],
  ['an @ in the path is not a user', 'https://host/o/r@v2', 'https://host/o/r@v2'],
  ['scp-like syntax has no password: unchanged', 'git@github.com:o/r.git', 'git@github.com:o/r.git'],
  ['a mail address is no URL: unchanged', 'sent by me@example.com', 'sent by me@example.com'],
];

for (const [name, text, expected] of TABLE) {
  test(`redacts: ${name}`, (t) => {
    t.is(withoutCredentials(text), expected);
    t.false(/secret|pw@|abc123|:b@|:d@|p@ss/.test(withoutCredentials(text)));
  });
}
