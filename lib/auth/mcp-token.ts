import { readFileSync, statSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { newToken } from '../ids.js';
import { writePrivateFile } from '../private-file.js';
import { secretsEqual } from './bearer.js';

// The tool endpoint's bearer token lives in <home>/mcp-token, owner-only. It is created on first
// start and kept across restarts; regenerating replaces it, and the running server honours the new
// one at once because checks re-read the file whenever it changed.

export const tokenPath = (home: string): string => join(home, 'mcp-token');

export const readToken = (home: string): string | null => {
  try {
    const token = readFileSync(tokenPath(home), 'utf8').trim();
    return token.length > 0 ? token : null;
  } catch {
    return null;
  }
};

export const regenerateToken = (home: string): string => {
  const token = newToken();
  writePrivateFile(tokenPath(home), `${token}\n`);
  return token;
};

/** the token, created when missing; an existing file's mode is tightened to 0600 */
export const ensureToken = (home: string): string => {
  const existing = readToken(home);
  if (existing === null) return regenerateToken(home);
  chmodSync(tokenPath(home), 0o600);
  return existing;
};

export type TokenCheck = (candidate: string | null) => boolean;

// Re-reads the file only when its mtime or size moved, so a check costs one stat.
export const tokenCheck = (home: string): TokenCheck => {
  let seen = '';
  let token: string | null = null;
  return (candidate) => {
    if (candidate === null) return false;
    const stamp = fileStamp(tokenPath(home));
    if (stamp !== seen) {
      seen = stamp;
      token = readToken(home);
    }
    return token !== null && secretsEqual(token, candidate);
  };
};

const fileStamp = (path: string): string => {
  try {
    const s = statSync(path);
    return `${s.mtimeMs}:${s.size}:${s.ino}`;
  } catch {
    return 'missing';
  }
};
