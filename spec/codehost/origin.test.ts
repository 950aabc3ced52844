import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitOk } from '../../lib/git/git.js';
import { originUrl, parseRepository } from '../../lib/codehost/origin.js';
import { isolateHome } from './helpers.js';

isolateHome();

const acme = { owner: 'acme', name: 'widgets' };
const TABLE: [string, string, { owner: string; name: string } | undefined][] = [
  ['https://github.com/acme/widgets.git', 'github.com', acme],
  ['https://github.com/acme/widgets', 'github.com', acme],
  ['https://github.com/acme/widgets/', 'github.com', acme],
  ['https://x-access-token:abc@github.com/acme/widgets.git', 'github.com', acme],
  ['http://github.com/acme/widgets.git', 'github.com', acme],
  ['git@github.com:acme/widgets.git', 'github.com', acme],
  ['git@github.com:acme/widgets', 'github.com', acme],
  ['github.com:acme/widgets.git', 'github.com', acme],
  ['ssh://git@github.com/acme/widgets.git', 'github.com', acme],
  ['ssh://git@github.com:22/acme/widgets', 'github.com', acme],
  ['  https://GitHub.com/acme/widgets.git\n', 'github.com', acme],
  ['https://github.com/acme/my.repo-2.git', 'github.com', { owner: 'acme', name: 'my.repo-2' }],
  // Enterprise host from settings
  ['https://ghe.corp.example/acme/widgets.git', 'ghe.corp.example', acme],
  ['git@ghe.corp.example:acme/widgets.git', 'ghe.corp.example', acme],
  // other hosts, when the setting names another
  ['https://ghe.corp.example/acme/widgets.git', 'github.com', undefined],
  ['https://gitlab.com/acme/widgets.git', 'github.com', undefined],
  ['git@gitlab.com:acme/widgets.git', 'github.com', undefined],
  ['https://github.com.evil.example/acme/widgets', 'github.com', undefined],
  // not a repository
  ['https://github.com/acme', 'github.com', undefined],
  ['https://github.com/acme/widgets/pull/7', 'github.com', undefined],
  ['https://github.com/acme/../widgets', 'github.com', undefined],
  ['/srv/git/widgets.git', 'github.com', undefined],
  ['file:///srv/git/acme/widgets.git', 'github.com', undefined],
  ['../widgets', 'github.com', undefined],
  ['', 'github.com', undefined],
  ['not a url at all', 'github.com', undefined],
  ['https://github.com/acme/widgets.git', '', undefined],
];

for (const [url, host, expected] of TABLE) {
  test(`parseRepository(${JSON.stringify(url)}, ${JSON.stringify(host)})`, (t) => {
    t.deepEqual(parseRepository(url, host), expected);
  });
}

test('originUrl reads remote.origin.url as configured, undefined without origin or outside git', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-origin-'));
  t.is(await originUrl(dir), undefined);
  await gitOk(dir, ['init', '-q']);
  t.is(await originUrl(dir), undefined);
  await gitOk(dir, ['remote', 'add', 'origin', 'git@github.com:acme/widgets.git']);
  t.is(await originUrl(dir), 'git@github.com:acme/widgets.git');
  t.is(await originUrl(join(dir, 'missing')), undefined);
});
