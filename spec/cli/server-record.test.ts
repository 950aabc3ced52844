import '../helpers/env.js';
import test from 'ava';
import { readFileSync, writeFileSync } from 'node:fs';
import { api } from '../../lib/cli/client.js';
import { liveRecord, recordPath } from '../../lib/cli/server-record.js';
import { startServer } from '../../lib/cli/serve.js';
import { freshHome } from '../helpers/env.js';

// server.json's `url` is {base_url}: the spec appends `api/...` to it directly, so it ends with `/`.

test('the recorded url ends with "/" and api/... appended to it answers', async (t) => {
  const home = freshHome();
  const s = await startServer({ home, port: 0, bind: '127.0.0.1' });
  t.teardown(() => s.close());
  const { url } = JSON.parse(readFileSync(recordPath(home), 'utf8')) as { url: string };
  t.is(url, `http://127.0.0.1:${new URL(s.url).port}/`);
  t.is(s.baseUrl, url);
  t.is((await fetch(`${url}api/health`)).status, 200);
  t.deepEqual(await api(home, 'GET', 'api/runs'), []);
});

test('a record an older version wrote without the "/" still serves the client commands', async (t) => {
  const home = freshHome();
  const s = await startServer({ home, port: 0, bind: '127.0.0.1' });
  t.teardown(() => s.close());
  writeFileSync(recordPath(home), JSON.stringify({ url: s.url, pid: process.pid }), { mode: 0o600 });
  t.is((await liveRecord(home))?.url, `${s.url}/`);
  t.deepEqual(await api(home, 'GET', 'api/projects'), []);
});
