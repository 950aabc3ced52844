import { hostname } from 'node:os';
import type { HarnessName } from '../../domain/workflow.js';
import { loadHarnesses } from '../root/open.js';
import { sandboxProbe } from '../sandbox/probe.js';
import { joinHub, parseToken } from '../workers/worker.js';
import { runSteps, type StepRunner } from '../workers/step-runner.js';
import { api, CliError } from './client.js';
import { UsageError, type Parsed } from './args.js';

// `svc worker …` (docs/workers.md): on the hub, make a join token, revoke a worker, list them;
// on another machine, join the hub with the token and stay until stopped.

type Out = (s: string) => void;

export const workerTokenCommand = async (home: string, p: Parsed, out: Out): Promise<number> => {
  const name = p.words.join(' ') || hostname();
  const r = (await api(home, 'POST', 'api/workers/tokens', { name })) as { worker: { workerId: string }; token: string; hub: string | null };
  out(`worker ${r.worker.workerId} (${name}); this token is shown once:\n  svc worker join ${r.hub ?? 'nats://HUB:4222'} ${r.token}\n`);
  return 0;
};

export const workerRevokeCommand = async (home: string, p: Parsed, out: Out): Promise<number> => {
  const id = p.words[0]!;
  await api(home, 'POST', `api/workers/${encodeURIComponent(id)}/revoke`);
  out(`worker ${id} revoked\n`);
  return 0;
};

export const workerListCommand = async (home: string, out: Out): Promise<number> => {
  const r = (await api(home, 'GET', 'api/workers')) as { workers: { workerId: string; name: string; state: string; slots: number | null; slotsInUse: number | null; harnesses: string[] }[] };
  out(r.workers.length ? r.workers.map((w) => `${w.workerId}  ${w.state.padEnd(12)}  ${w.slotsInUse ?? '-'}/${w.slots ?? '-'}  ${w.harnesses.join(',') || '-'}  ${w.name}`).join('\n') + '\n' : 'no workers\n');
  return 0;
};

const slotsOf = (raw: unknown): number => {
  if (raw === undefined) return 1;
  const n = typeof raw === 'string' && /^\d{1,3}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= 1 && n <= 256)) throw new UsageError('--slots takes a number from 1 to 256');
  return n;
};

/** the harnesses installed and logged in here: the ones this worker can take steps for */
const readyHarnesses = async (): Promise<HarnessName[]> => {
  const adapters = await loadHarnesses();
  const checked = await Promise.all(Object.values(adapters).map(async (a) => ((await a.check().catch(() => null))?._tag === 'Ready' ? [a.name] : [])));
  return checked.flat();
};

export const workerJoinCommand = async (p: Parsed, out: Out): Promise<number> => {
  const [url, raw] = p.words;
  const token = parseToken(raw ?? '');
  if (typeof token === 'string') throw new CliError(token);
  const slots = slotsOf(p.flags['slots']);
  const [harnesses, probe] = await Promise.all([readyHarnesses(), sandboxProbe()]);
  let runner: StepRunner | null = null;
  const joined = await joinHub(url!, token, { slots, harnesses, sandbox: probe._tag === 'Ready', host: hostname() }, () => runner?.busy() ?? 0);
  out(`joined ${url} as ${joined.workerId}: ${slots} slot(s), harnesses ${harnesses.join(', ') || 'none ready'}\n`);
  runner = runSteps(joined.nc, joined.workerId, slots, await loadHarnesses(), (line) => out(`${line}\n`));
  const stop = () => (runner?.stop(), void joined.close());
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await joined.closed;
  out('the connection to the hub ended\n');
  return 1;
};
