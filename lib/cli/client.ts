import { liveRecord } from './server-record.js';

// Client commands talk to the running server over its HTTP API, never to the store behind its back.

export class CliError extends Error {}

/** `path` is relative to the base address, e.g. `api/runs` */
export const api = async (home: string, method: string, path: string, body?: unknown): Promise<unknown> => {
  const r = await liveRecord(home);
  if (!r) throw new CliError('no server is running (start one with `svc serve`)');
  const res = await fetch(`${r.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', 'svc-setting-source': 'svc cli', ...(r.secret ? { authorization: `Bearer ${r.secret}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const data = (await res.json().catch(() => ({}))) as { detail?: string };
  if (!res.ok) throw new CliError(data.detail ?? `${method} ${path} answered ${res.status}`);
  return data;
};
