#!/usr/bin/env node
// The npm registry this project is built against holds only some platforms' builds of a few
// packages (msgpackr-extract, opencode-ai): the others answer 404, so `npm install` cannot write
// them into package-lock.json, and `npm ci` then refuses the lock as out of sync. This adds the
// missing optional platform entries with their os/cpu/libc, so `npm ci` accepts the lock and skips
// them as packages for another platform. Idempotent; run it after `npm install` changes the lock.
import { readFileSync, writeFileSync } from 'node:fs';

const path = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8'));
const pkgs = lock.packages;

const platformOf = (name) => {
  const os = /darwin/.test(name) ? 'darwin' : /win32|windows/.test(name) ? 'win32' : /linux/.test(name) ? 'linux' : null;
  const cpu = /arm64|aarch64/.test(name) ? 'arm64' : /x64/.test(name) ? 'x64' : /-arm\b|-arm$|armv7/.test(name) ? 'arm' : /ia32/.test(name) ? 'ia32' : null;
  if (!os || !cpu) return null;
  return { os: [os], cpu: [cpu], ...(/musl/.test(name) ? { libc: ['musl'] } : {}) };
};

let added = 0;
for (const [key, entry] of Object.entries(pkgs)) {
  for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${key}/node_modules/${name}`;
    if (pkgs[`node_modules/${name}`] || pkgs[nested]) continue;
    const platform = platformOf(name);
    if (!platform || !/^\d+\.\d+\.\d+/.test(spec)) continue;
    pkgs[`node_modules/${name}`] = { version: spec, optional: true, ...platform };
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(pkgs).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)));
writeFileSync(path, JSON.stringify(lock, null, 2) + '\n');
console.log(`complete-lock: ${added} platform entr${added === 1 ? 'y' : 'ies'} added`);
