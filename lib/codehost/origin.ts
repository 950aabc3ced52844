import { git } from '../git/git.js';

// Which repository on the code host a folder belongs to, read from its origin's URL.

export interface RepositoryName {
  readonly owner: string;
  readonly name: string;
}

// GitHub's own rules for owner and repository names, loose enough for Enterprise instances:
// no slashes, no whitespace, not empty. Anything else is not a repository we can address.
const SEGMENT = /^[A-Za-z0-9_.-]+$/;

const fromPath = (path: string): RepositoryName | undefined => {
  const parts = path.replace(/^\/+/, '').replace(/\/+$/, '').replace(/\.git$/, '').split('/');
  if (parts.length !== 2) return undefined;
  const [owner, name] = parts as [string, string];
  if (!SEGMENT.test(owner) || !SEGMENT.test(name) || name === '.' || name === '..') return undefined;
  return { owner, name };
};

const sameHost = (host: string, webHost: string): boolean => host.toLowerCase() === webHost.toLowerCase();

// scp-like syntax `user@host:owner/name(.git)`: git treats it as ssh when there is no `://`
// and the colon comes before any slash.
const SCP_LIKE = /^(?:[^@/:\s]+@)?([^@/:\s]+):(?!\/)(.+)$/;

const fromScpLike = (url: string, webHost: string): RepositoryName | undefined => {
  const m = SCP_LIKE.exec(url);
  if (!m) return undefined;
  return sameHost(m[1]!, webHost) ? fromPath(m[2]!) : undefined;
};

const fromUrl = (url: string, webHost: string): RepositoryName | undefined => {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (!['https:', 'http:', 'ssh:', 'git:'].includes(parsed.protocol)) return undefined;
  // hostname drops the port: ssh://git@host:2222/o/n is still on `host`
  return sameHost(parsed.hostname, webHost) ? fromPath(decodeURIComponent(parsed.pathname)) : undefined;
};

/**
 * The owner and name of a remote URL when it points at `webHost` (github.com, or an Enterprise
 * host from settings): https://host/o/n(.git), ssh://git@host(:port)/o/n(.git),
 * git@host:o/n(.git). Anything else (other hosts, local paths, garbage) is undefined.
 */
export const parseRepository = (remoteUrl: string, webHost: string): RepositoryName | undefined => {
  const url = remoteUrl.trim();
  if (url === '' || webHost.trim() === '') return undefined;
  return url.includes('://') ? fromUrl(url, webHost.trim()) : fromScpLike(url, webHost.trim());
};

/** The folder's `remote.origin.url` as configured (not rewritten by insteadOf), or undefined. */
export const originUrl = async (folderPath: string): Promise<string | undefined> => {
  const r = await git(folderPath, ['config', '--get', 'remote.origin.url']);
  const url = r.stdout.trim();
  return r.code === 0 && url !== '' ? url : undefined;
};

export const repositoryText = (r: RepositoryName): string => `${r.owner}/${r.name}`;
