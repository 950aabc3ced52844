import { readinessOf } from '../../commands/start-readiness.js';
import type { Availability } from '../../domain/harness.js';
import { loadHarnesses } from '../root/open.js';
import { HARNESSES, type HarnessName } from '../../domain/workflow.js';
import { api } from './client.js';
import { liveRecord, readRecord } from './server-record.js';
import { bwrapBin, sandboxProbe } from '../sandbox/probe.js';
import type { MachineSandbox } from '../service/sandbox.js';

// `svc doctor`: can a run start here? The server (is one answering?) and each agent CLI
// (installed? which version? logged in?). With a server answering, the harnesses are checked by
// it: its environment is the one runs use, and its cached answers are refreshed on the way.
// Without one, the CLIs are checked from here. Exit 1 when no harness is ready.

type Out = (s: string) => void;
type Row = { readonly name: HarnessName; readonly availability: Availability | { readonly _tag: 'Unchecked' } };

const STATE: Readonly<Record<string, string>> = {
  Ready: 'ready', NotInstalled: 'not installed', NotLoggedIn: 'not logged in', QuotaExhausted: 'out of quota', Unchecked: 'not checked',
};

const serverLine = async (home: string): Promise<{ line: string; live: boolean }> => {
  const live = await liveRecord(home);
  if (live) {
    const health = (await api(home, 'GET', 'api/health')) as { version?: string };
    return { line: `running at ${live.url} (svc ${health.version ?? '?'})`, live: true };
  }
  const stale = readRecord(home);
  return { line: stale ? `not answering at ${stale.url} (start one with \`svc serve\`)` : 'not running (start one with `svc serve`)', live: false };
};

const checkHere = async (): Promise<Row[]> => {
  const adapters = await loadHarnesses();
  return Promise.all(HARNESSES.map(async (name) => ({
    name, availability: await adapters[name].check().catch((e: unknown): Availability => ({ _tag: 'NotInstalled', detail: String(e) })),
  })));
};

const rowLine = (r: Row): string => {
  const a = r.availability;
  const state = (STATE[a._tag] ?? a._tag).padEnd(15);
  if (a._tag === 'Ready') return `${r.name.padEnd(10)}${state}${a.version ?? ''}`;
  if (a._tag === 'Unchecked') return `${r.name.padEnd(10)}${state}`;
  const fix = readinessOf(r.name, a).fix;
  return `${r.name.padEnd(10)}${state}${a.detail}${fix ? `; ${fix}` : ''}`;
};

const sandboxHere = async (): Promise<MachineSandbox> => {
  const p = await sandboxProbe(bwrapBin());
  return p._tag === 'Ready' ? { available: true, bwrap: p.bwrap, version: p.version, reason: null } : { available: false, bwrap: p.bwrap, reason: p.reason };
};

// Runs are sandboxed where bubblewrap can start (docs/sandbox.md); where not, say why and what that means.
const sandboxLine = (s: MachineSandbox): string =>
  `${'sandbox'.padEnd(10)}${s.available
    ? `${'ready'.padEnd(15)}${s.version ?? s.bwrap}: runs are sandboxed`
    : `${'unavailable'.padEnd(15)}${s.reason}; runs of projects set to preferred run unsandboxed (marked), required ones do not start`}`;

export const doctorCommand = async (home: string, out: Out): Promise<number> => {
  const server = await serverLine(home);
  const checked = server.live ? ((await api(home, 'POST', 'api/harnesses/check')) as { harnesses: Row[]; sandbox?: MachineSandbox }) : { harnesses: await checkHere() };
  const rows = checked.harnesses;
  const ready = rows.filter((r) => r.availability._tag === 'Ready').length;
  out(`${'server'.padEnd(10)}${server.line}\n`);
  out(rows.map(rowLine).join('\n') + '\n');
  out(`${sandboxLine(checked.sandbox ?? (await sandboxHere()))}\n`);
  out(ready > 0
    ? `${ready} of ${rows.length} harnesses ready${server.live ? ' (as the server sees them)' : ''}.\n`
    : 'No harness is ready: install and log in to one of the CLIs above; runs need one.\n');
  return ready > 0 ? 0 : 1;
};
