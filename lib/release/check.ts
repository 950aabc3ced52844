import * as t from 'io-ts';
import { isRight } from 'fp-ts/lib/Either.js';
import type { Database, Key } from 'lmdb';
import type { Available, FeedChoice } from './available.js';
import { readLatestRelease } from './feed.js';
import { compareSemVer, parseSemVer } from './semver.js';

// The release check behind /api/health's `available`. A health read never waits for the network:
// it answers from the last check and, when that is missing, older than its lifetime, or for
// another feed than the settings now choose, starts one check in the background. The last check
// is kept in the store, so a restart within the day does not ask the feed again.

export const DAY_MS = 24 * 60 * 60 * 1000;
/** a failed check is tried again sooner than a good answer expires */
export const RETRY_MS = 60 * 60 * 1000;

const Checked = t.intersection([
  t.type({ url: t.string, checkedAt: t.string }),
  t.partial({ latest: t.string, reason: t.string }),
]);
type Checked = t.TypeOf<typeof Checked>;

export interface ReleaseCheckDeps {
  readonly running: string;
  readonly feed: () => FeedChoice;
  readonly now: () => Date;
  /** where the last check is kept (one key) */
  readonly cache: Database<unknown, Key>;
}

const KEY = 'last';

// Only the host goes into a reason: a feed URL may carry credentials.
const hostOf = (url: string): string => { try { return new URL(url).host; } catch { return 'the feed'; } };

export const availableFrom = (running: string, c: Checked): Available => {
  if (c.latest === undefined) return { _tag: 'Unknown', running, reason: c.reason ?? 'the feed could not be read' };
  const [have, latest] = [parseSemVer(running), parseSemVer(c.latest)];
  if (!have) return { _tag: 'Unknown', running, reason: `the running version ${running} is not a semantic version` };
  return latest && compareSemVer(latest, have) > 0 ? { _tag: 'NewerRelease', running, latest: c.latest } : { _tag: 'UpToDate', running };
};

export class ReleaseCheck {
  private inFlight: { readonly url: string; readonly done: Promise<void>; readonly abort: AbortController } | null = null;
  private readonly stop = new AbortController();

  /** the last check, read from the store once and then kept here: health reads stay cheap */
  private lastChecked: Checked | undefined;

  constructor(private readonly deps: ReleaseCheckDeps) {
    const d = Checked.decode(deps.cache.get(KEY));
    this.lastChecked = isRight(d) ? d.right : undefined;
  }

  private fresh(c: Checked, url: string): boolean {
    const age = this.deps.now().getTime() - Date.parse(c.checkedAt);
    return c.url === url && age >= 0 && age < (c.latest === undefined ? RETRY_MS : DAY_MS);
  }

  /** what health shows now; starts a background check when the last one is stale */
  available(): Available {
    const { running } = this.deps;
    const feed = this.deps.feed();
    if (feed._tag === 'Off') return { _tag: 'Unknown', running, reason: feed.why };
    const last = this.lastChecked;
    if (!last || !this.fresh(last, feed.url)) void this.refresh();
    if (last && last.url === feed.url) return availableFrom(running, last);
    return { _tag: 'Unknown', running, reason: 'not checked yet' };
  }

  /** at server start: check in the background unless the stored answer is still fresh */
  start(): void {
    this.available();
  }

  /** starts a check unless one of this feed is running; resolves when it is done (tests and start-up use it) */
  refresh(): Promise<void> {
    const feed = this.deps.feed();
    if (feed._tag === 'Off' || this.stop.signal.aborted) return Promise.resolve();
    if (this.inFlight?.url === feed.url) return this.inFlight.done;
    this.inFlight?.abort.abort(); // the settings moved to another feed: its answer no longer matters
    const abort = new AbortController();
    const entry = { url: feed.url, abort, done: this.check(feed.url, abort.signal).finally(() => { if (this.inFlight === entry) this.inFlight = null; }) };
    this.inFlight = entry;
    return entry.done;
  }

  private async check(url: string, abort: AbortSignal): Promise<void> {
    const r = await readLatestRelease(url, AbortSignal.any([this.stop.signal, abort]));
    if (this.stop.signal.aborted || abort.aborted) return;
    const checkedAt = this.deps.now().toISOString();
    const c: Checked = isRight(r) ? { url, checkedAt, latest: r.right } : { url, checkedAt, reason: `${r.left} (${hostOf(url)})` };
    this.lastChecked = c;
    await this.deps.cache.put(KEY, c);
  }

  /** stops a check in flight (the store is about to close) */
  close(): void {
    this.stop.abort();
  }
}
