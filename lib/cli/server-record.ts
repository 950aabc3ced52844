import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writePrivateFile } from '../private-file.js';

// ~/.svc/server.json: where the running server answers. Written on start, removed on a clean stop;
// a record whose URL does not answer is stale and is ignored.

export interface ServerRecord {
  /** {base_url}: ends with `/`, so `api/...` and `mcp` are appended directly (spec, Base address) */
  readonly url: string;
  readonly secret?: string;
  readonly pid?: number;
}

/** `http://127.0.0.1:7420` -> `http://127.0.0.1:7420/`; a URL ending with `/` stays as it is */
export const asBaseUrl = (url: string): string => (url.endsWith('/') ? url : `${url}/`);

export const recordPath = (home: string): string => join(home, 'server.json');

export const writeRecord = (home: string, r: ServerRecord): void => writePrivateFile(recordPath(home), JSON.stringify(r, null, 2) + '\n');

export const removeRecord = (home: string, pid: number): void => {
  const r = readRecord(home);
  if (r && r.pid === pid) rmSync(recordPath(home), { force: true });
};

export const readRecord = (home: string): ServerRecord | null => {
  if (!existsSync(recordPath(home))) return null;
  try {
    const r = JSON.parse(readFileSync(recordPath(home), 'utf8')) as Partial<ServerRecord>;
    // a record from a version that wrote the bare origin still works for clients
    return typeof r.url === 'string' ? { ...(r as ServerRecord), url: asBaseUrl(r.url) } : null;
  } catch {
    return null;
  }
};

/** The record of a server that answers now, or null (none, or stale). */
export const liveRecord = async (home: string): Promise<ServerRecord | null> => {
  const r = readRecord(home);
  if (!r) return null;
  try {
    const res = await fetch(`${r.url}api/health`, { signal: AbortSignal.timeout(2000), headers: r.secret ? { authorization: `Bearer ${r.secret}` } : {} });
    return res.ok ? r : null;
  } catch {
    return null;
  }
};
