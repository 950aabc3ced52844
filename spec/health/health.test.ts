// /api/health's `available` on a real server, with the feed on loopback: each variant, a feed
// that never answers (health still answers at once), switching the check off, and bad settings.
import test from 'ava';
import { eventually } from '../helpers/env.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { startFeedServer } from '../fixtures/release-feed/server.js';

const put = (s: TestServer, change: unknown) => s.send('PUT', '/api/settings', JSON.stringify(change));
const health = async (s: TestServer) => (await s.get('/api/health')).body;

const server = async (t: { teardown(f: () => unknown): void }) => {
  const s = await testServer();
  t.teardown(() => s.close());
  return s;
};

test('in tests the default feed is off, so health says Unknown and why', async (t) => {
  const s = await server(t);
  const h = await health(s);
  t.is(h.available._tag, 'Unknown');
  t.is(h.available.running, h.version);
  t.regex(h.available.reason, /SVC_RELEASE_FEED=off/);
  t.deepEqual((await s.get('/api/settings')).body.releaseFeed, { enabled: true, url: null });
});

test('NewerRelease, then UpToDate after the feed setting moves to a feed whose latest is older', async (t) => {
  const s = await server(t);
  const newer = await startFeedServer({ kind: 'latest', version: '999.0.0' });
  const older = await startFeedServer({ kind: 'latest', version: '0.0.1' });
  t.teardown(async () => { await newer.close(); await older.close(); });
  t.is((await put(s, { _tag: 'ReleaseFeed', enabled: true, url: newer.url })).status, 200);
  const h = await eventually(() => health(s), (b) => b.available._tag === 'NewerRelease');
  t.deepEqual(h.available, { _tag: 'NewerRelease', running: h.version, latest: '999.0.0' });
  t.is(newer.requests.length, 1);
  await health(s);
  t.is(newer.requests.length, 1, 'cached: health reads do not ask the feed again');
  await put(s, { _tag: 'ReleaseFeed', enabled: true, url: older.url });
  const h2 = await eventually(() => health(s), (b) => b.available._tag === 'UpToDate');
  t.deepEqual(h2.available, { _tag: 'UpToDate', running: h.version });
  const changes = (await s.get('/api/settings/changes')).body.changes;
  t.deepEqual(changes[0].change, { _tag: 'ReleaseFeed', enabled: true, url: older.url });
});

test('a feed that never answers does not hold up health; a broken one gives Unknown with the reason', async (t) => {
  const s = await server(t);
  const hanging = await startFeedServer({ kind: 'hang' });
  const broken = await startFeedServer({ kind: 'status', status: 502 });
  t.teardown(async () => { await hanging.close(); await broken.close(); });
  await put(s, { _tag: 'ReleaseFeed', enabled: true, url: hanging.url });
  const h = await health(s);
  t.deepEqual(h.available, { _tag: 'Unknown', running: h.version, reason: 'not checked yet' });
  await eventually(() => hanging.requests.length, (n) => n >= 1);
  const again = await s.get('/api/health');
  t.is(again.status, 200, 'answered while the feed request is still open');
  t.is(again.body.available.reason, 'not checked yet');
  await put(s, { _tag: 'ReleaseFeed', enabled: true, url: broken.url });
  health(s);
  const h2 = await eventually(() => health(s), (b) => b.available.reason !== 'not checked yet');
  t.is(h2.available._tag, 'Unknown');
  t.regex(h2.available.reason, /HTTP 502/);
});

test('the check turned off in Settings', async (t) => {
  const s = await server(t);
  const feed = await startFeedServer({ kind: 'latest', version: '999.0.0' });
  t.teardown(() => feed.close());
  await put(s, { _tag: 'ReleaseFeed', enabled: false, url: feed.url });
  const h = await health(s);
  t.deepEqual(h.available, { _tag: 'Unknown', running: h.version, reason: 'the release check is turned off in Settings (ReleaseFeed)' });
  t.is(feed.requests.length, 0);
});

test('bad ReleaseFeed settings are refused with a detail and change nothing', async (t) => {
  const s = await server(t);
  const bad: [unknown, RegExp][] = [
    [{ _tag: 'ReleaseFeed', enabled: true, url: 'ftp://example.test/x' }, /url/],
    [{ _tag: 'ReleaseFeed', enabled: true, url: 'not a url' }, /url/],
    [{ _tag: 'ReleaseFeed', enabled: true, url: 42 }, /url/],
    [{ _tag: 'ReleaseFeed', url: null }, /enabled/],
    [{ _tag: 'ReleaseFeed', enabled: 'yes', url: null }, /enabled/],
    [{ _tag: 'ReleaseFeed', enabled: true }, /url/],
  ];
  for (const [body, detail] of bad) {
    const r = await put(s, body);
    t.is(r.status, 400, JSON.stringify(body));
    t.regex(r.body.detail, detail, JSON.stringify(body));
  }
  t.deepEqual((await s.get('/api/settings')).body.releaseFeed, { enabled: true, url: null });
});

test('the check runs at start without a health read, and a restart within the day answers from the store', async (t) => {
  const feed = await startFeedServer({ kind: 'latest', version: '999.0.0' });
  t.teardown(() => feed.close());
  const first = await testServer();
  await put(first, { _tag: 'ReleaseFeed', enabled: true, url: feed.url });
  await first.close();
  t.is(feed.requests.length, 0, 'no health read yet, and the setting alone does not check');

  const second = await testServer({ home: first.home, repo: first.repo });
  await eventually(() => feed.requests.length, (n) => n === 1);
  const h = await eventually(() => health(second), (b) => b.available._tag !== 'Unknown');
  t.like(h.available, { _tag: 'NewerRelease', latest: '999.0.0' });
  t.is(feed.requests.length, 1);
  await second.close();

  const third = await testServer({ home: first.home, repo: first.repo });
  t.teardown(() => third.close());
  t.like((await health(third)).available, { _tag: 'NewerRelease', latest: '999.0.0' }, 'known at once after a restart');
  t.is(feed.requests.length, 1, 'the stored answer is fresh: the feed is not asked again');
});
