// The release check behind health's `available`: a real loopback feed, a real LMDB store, and a
// clock the test moves. No test reaches the internet.
import test from 'ava';
import { join } from 'node:path';
import { tempDir } from '../helpers/env.js';
import { openStore } from '../../journal/store.js';
import { effectiveFeed, registryFeedUrl, type FeedChoice } from '../../lib/release/available.js';
import { DAY_MS, RETRY_MS, ReleaseCheck } from '../../lib/release/check.js';
import { readLatestRelease } from '../../lib/release/feed.js';
import { compareSemVer, parseSemVer } from '../../lib/release/semver.js';
import { startFeedServer } from '../fixtures/release-feed/server.js';

const order = (a: string, b: string) => compareSemVer(parseSemVer(a)!, parseSemVer(b)!);

test('versions compare in semver order, not as text', (t) => {
  const ascending = ['0.9.0', '0.10.0', '1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-alpha.beta', '1.0.0-beta', '1.0.0-beta.2', '1.0.0-beta.11', '1.0.0-rc.1', '1.0.0', '1.2.0', '1.10.0', '10.0.0'];
  for (let i = 1; i < ascending.length; i++) t.true(order(ascending[i - 1]!, ascending[i]!) < 0, `${ascending[i - 1]} < ${ascending[i]}`);
  t.is(order('1.0.0+build.5', '1.0.0'), 0, 'build metadata does not count');
  t.is(order('v2.0.0', '2.0.0'), 0);
  for (const bad of ['1.0', '01.0.0', '1.0.0-', 'latest', '']) t.is(parseSemVer(bad), undefined, bad);
});

const pub = { name: 'svc', unpublished: false };

test('the feed setting: off, a chosen URL, or the package registry unless SVC_RELEASE_FEED replaces the default', (t) => {
  t.deepEqual(effectiveFeed({ enabled: false, url: 'http://x/' }, pub, {}), { _tag: 'Off', why: 'the release check is turned off in Settings (ReleaseFeed)' });
  t.deepEqual(effectiveFeed({ enabled: true, url: 'http://127.0.0.1:1/p' }, pub, { SVC_RELEASE_FEED: 'off' }), { _tag: 'Url', url: 'http://127.0.0.1:1/p' });
  t.deepEqual(effectiveFeed({ enabled: true, url: null }, pub, {}), { _tag: 'Url', url: 'https://registry.npmjs.org/svc' });
  t.is((effectiveFeed({ enabled: true, url: null }, pub, { SVC_RELEASE_FEED: 'off' }) as { _tag: string })._tag, 'Off');
  t.deepEqual(effectiveFeed({ enabled: true, url: null }, pub, { SVC_RELEASE_FEED: 'http://127.0.0.1:9/x' }), { _tag: 'Url', url: 'http://127.0.0.1:9/x' });
  const mine = { name: 'svc', unpublished: true };
  t.deepEqual(effectiveFeed({ enabled: true, url: null }, mine, {}), { _tag: 'Off', why: 'this copy of svc is not published to a registry; set a ReleaseFeed url to check one' }, 'a private package never reads the registry document of its name');
  t.deepEqual(effectiveFeed({ enabled: true, url: 'http://127.0.0.1:1/p' }, mine, {}), { _tag: 'Url', url: 'http://127.0.0.1:1/p' }, 'a chosen feed still works');
  t.is(registryFeedUrl('@acme/svc'), 'https://registry.npmjs.org/@acme%2Fsvc');
  t.is(process.env['SVC_RELEASE_FEED'], 'off', 'the test suite turns the default feed off');
});

const setup = async (t: { teardown(f: () => unknown): void }, running = '1.2.0') => {
  const store = openStore(join(tempDir('svc-release-'), 'db'));
  const feed = await startFeedServer({ kind: 'latest', version: '1.10.0' });
  let now = Date.parse('2026-11-22T10:00:00Z');
  let choice: FeedChoice = { _tag: 'Url', url: feed.url };
  const make = () => new ReleaseCheck({ running, feed: () => choice, now: () => new Date(now), cache: store.db('release-check') });
  const checks: ReleaseCheck[] = [];
  t.teardown(async () => { checks.forEach((c) => c.close()); await feed.close(); await store.close(); });
  return {
    feed, make: () => { const c = make(); checks.push(c); return c; },
    advance: (ms: number) => { now += ms; },
    choose: (c: FeedChoice) => { choice = c; },
  };
};

test('first Unknown, then the answer, kept for a day, checked again after it, and across a restart', async (t) => {
  const s = await setup(t);
  const check = s.make();
  t.deepEqual(check.available(), { _tag: 'Unknown', running: '1.2.0', reason: 'not checked yet' });
  await check.refresh();
  t.deepEqual(check.available(), { _tag: 'NewerRelease', running: '1.2.0', latest: '1.10.0' }, '1.10.0 is newer than 1.2.0 (text order would say otherwise)');
  t.is(s.feed.requests.length, 1);
  s.advance(DAY_MS - 60_000);
  check.available();
  await check.refresh();
  t.is(s.feed.requests.length, 2, 'refresh() asks again on demand');
  s.advance(DAY_MS - 1);
  t.is(check.available()._tag, 'NewerRelease');
  t.is(s.feed.requests.length, 2, 'within a day health reads never ask the feed');
  s.feed.answer({ kind: 'latest', version: '1.2.0' });
  s.advance(2);
  t.is(check.available()._tag, 'NewerRelease', 'a stale answer is still shown while the new check runs');
  await check.refresh();
  t.deepEqual(check.available(), { _tag: 'UpToDate', running: '1.2.0' });
  t.is(s.feed.requests.length, 3);
  const restarted = s.make();
  t.deepEqual(restarted.available(), { _tag: 'UpToDate', running: '1.2.0' }, 'the last check is kept in the store');
  await restarted.refresh();
  t.is(s.feed.requests.length, 4, 'only an explicit refresh asks again');
});

test('an older or equal latest is UpToDate; a pre-release of the running version is not newer', async (t) => {
  for (const [running, latest, tag] of [['1.2.0', '1.1.9', 'UpToDate'], ['1.2.0', '1.2.0', 'UpToDate'], ['1.2.0-rc.1', '1.2.0', 'NewerRelease'], ['1.2.0', '1.2.0-rc.2', 'UpToDate'], ['0.1.0', '0.2.0', 'NewerRelease']] as const) {
    const s = await setup(t, running);
    s.feed.answer({ kind: 'latest', version: latest });
    const check = s.make();
    await check.refresh();
    t.is(check.available()._tag, tag, `${running} running, ${latest} latest`);
  }
});

test('a failed check is Unknown with the reason and tried again after an hour, not sooner', async (t) => {
  const s = await setup(t);
  s.feed.answer({ kind: 'status', status: 503 });
  const check = s.make();
  await check.refresh();
  const a = check.available();
  t.is(a._tag, 'Unknown');
  t.regex((a as { reason: string }).reason, /HTTP 503 \(127\.0\.0\.1:\d+\)/);
  s.advance(RETRY_MS - 1);
  check.available();
  t.is(s.feed.requests.length, 1);
  s.feed.answer({ kind: 'latest', version: '2.0.0' });
  s.advance(2);
  check.available();
  await check.refresh();
  t.deepEqual(check.available(), { _tag: 'NewerRelease', running: '1.2.0', latest: '2.0.0' });
});

test('switching the feed off or to another URL takes effect on the next read', async (t) => {
  const s = await setup(t);
  const check = s.make();
  await check.refresh();
  t.is(check.available()._tag, 'NewerRelease');
  s.choose({ _tag: 'Off', why: 'off for the test' });
  t.deepEqual(check.available(), { _tag: 'Unknown', running: '1.2.0', reason: 'off for the test' });
  const other = await startFeedServer({ kind: 'latest', version: '1.0.0' });
  t.teardown(() => other.close());
  s.choose({ _tag: 'Url', url: other.url });
  t.deepEqual(check.available(), { _tag: 'Unknown', running: '1.2.0', reason: 'not checked yet' }, "the other feed's answer is not known yet");
  await check.refresh();
  t.deepEqual(check.available(), { _tag: 'UpToDate', running: '1.2.0' });
  t.is(other.requests.length, 1);
});

test('every way a feed can fail is a reason, never a throw', async (t) => {
  const feed = await startFeedServer({ kind: 'hang' });
  t.teardown(() => feed.close());
  const cases: [Parameters<typeof feed.answer>[0], RegExp][] = [
    [{ kind: 'status', status: 404 }, /HTTP 404/],
    [{ kind: 'status', status: 500 }, /HTTP 500/],
    [{ kind: 'raw', body: '<html>not json' }, /did not answer JSON/],
    [{ kind: 'raw', body: '{"name":"svc"}' }, /no dist-tags\.latest/],
    [{ kind: 'raw', body: '{"dist-tags":{"latest":"soon"}}' }, /not a semantic version/],
    [{ kind: 'raw', body: '[1,2]' }, /no dist-tags\.latest/],
  ];
  for (const [answer, reason] of cases) {
    feed.answer(answer);
    const r = await readLatestRelease(feed.url);
    t.is(r._tag, 'Left', JSON.stringify(answer));
    t.regex((r as { left: string }).left, reason);
  }
  feed.answer({ kind: 'hang' });
  const slow = await readLatestRelease(feed.url, undefined, 300);
  t.regex((slow as { left: string }).left, /did not answer within/);
  const closed = await startFeedServer({ kind: 'hang' });
  const url = closed.url;
  await closed.close();
  t.regex((await readLatestRelease(url) as { left: string }).left, /could not be reached/);
});
