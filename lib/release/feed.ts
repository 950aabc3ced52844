import { left, right, type Either } from 'fp-ts/lib/Either.js';
import { parseSemVer } from './semver.js';

// Reads the latest release from a release feed: npm registry package metadata (the document
// `GET https://registry.npmjs.org/<package>` answers), whose `dist-tags.latest` names the newest
// release. Everything that can go wrong is a reason, never a throw: the answer feeds a health check.

const TIMEOUT_MS = 15_000;
const MAX_BYTES = 32 * 1024 * 1024; // package documents with many versions are large; stop at something sane

const latestOf = (doc: unknown): Either<string, string> => {
  const tags = typeof doc === 'object' && doc !== null ? (doc as { 'dist-tags'?: unknown })['dist-tags'] : undefined;
  const latest = typeof tags === 'object' && tags !== null ? (tags as { latest?: unknown }).latest : undefined;
  if (typeof latest !== 'string') return left('the feed has no dist-tags.latest');
  return parseSemVer(latest) ? right(latest) : left(`the feed's latest release ${JSON.stringify(latest.slice(0, 40))} is not a semantic version`);
};

const readBody = async (res: Response): Promise<Either<string, string>> => {
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > MAX_BYTES) return left('the feed answer is too large');
  const text = await res.text();
  return text.length > MAX_BYTES ? left('the feed answer is too large') : right(text);
};

/** the latest release the feed names, or why it could not be read */
export const readLatestRelease = async (url: string, stop?: AbortSignal, timeoutMs = TIMEOUT_MS): Promise<Either<string, string>> => {
  try {
    // The abbreviated npm document (`corgi`) carries dist-tags and is much smaller.
    const res = await fetch(url, { headers: { accept: 'application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8' }, signal: stop ? AbortSignal.any([stop, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs), redirect: 'follow' });
    if (!res.ok) return left(`the feed answered HTTP ${res.status}`);
    const body = await readBody(res);
    if (body._tag === 'Left') return body;
    let doc: unknown;
    try {
      doc = JSON.parse(body.right);
    } catch {
      return left('the feed did not answer JSON');
    }
    return latestOf(doc);
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    if (stop?.aborted) return left('the check was stopped');
    if (e.name === 'TimeoutError') return left(`the feed did not answer within ${Math.round(timeoutMs / 1000)} s`);
    return left(`the feed could not be reached${e.cause?.code ? ` (${e.cause.code})` : ''}`);
  }
};
