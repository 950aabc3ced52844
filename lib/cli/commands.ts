import { resolve } from 'node:path';
import { isLeft } from 'fp-ts/lib/Either.js';
import { refusalText } from '../../commands/refusal.js';
import type { HttpRun } from '../../projections/run-shapes.js';
import { closeService, openService } from '../root/open.js';
import { api, CliError } from './client.js';
import { liveRecord } from './server-record.js';
import type { Parsed } from './args.js';

// The client commands: runs, run, start, project add/list.

type Out = (s: string) => void;

const runLine = (r: HttpRun): string => `${r.runId}  ${r.standing.padEnd(9)}  ${r.project}  ${r.title}`;

export const runsCommand = async (home: string, out: Out): Promise<number> => {
  const runs = (await api(home, 'GET', 'api/runs')) as HttpRun[];
  out(runs.length ? runs.map(runLine).join('\n') + '\n' : 'no runs\n');
  return 0;
};

export const runCommand = async (home: string, p: Parsed, out: Out): Promise<number> => {
  const id = p.words[0];
  if (!id) throw new CliError('usage: svc run RUN_ID');
  out(JSON.stringify(await api(home, 'GET', `api/runs/${encodeURIComponent(id)}/detail`), null, 2) + '\n');
  return 0;
};

export const startCommand = async (home: string, p: Parsed, out: Out): Promise<number> => {
  const [project, ...goal] = p.words;
  if (!project || goal.length === 0) throw new CliError('usage: svc start PROJECT GOAL [--workflow NAME] [--harness NAME] [--title TEXT]');
  const body: Record<string, unknown> = { project, goal: goal.join(' ') };
  for (const k of ['workflow', 'harness', 'model', 'title'] as const) if (typeof p.flags[k] === 'string') body[k] = p.flags[k];
  const r = (await api(home, 'POST', 'api/runs', body)) as { runId: string; url: string };
  out(`${r.runId}  ${r.url}\n`);
  return 0;
};

// With a server running, the project goes through its API (the server's state must see it);
// without one, it is recorded straight into the store, and the server reads it when it starts.
export const projectAddCommand = async (home: string, p: Parsed, out: Out): Promise<number> => {
  const [name, ...paths] = p.words;
  if (!name || paths.length === 0) throw new CliError('usage: svc project add NAME PATH [PATH...]  (the first path is the primary folder)');
  const folders = paths.map((path) => ({ path: resolve(path) }));
  if (await liveRecord(home)) {
    const made = (await api(home, 'POST', 'api/projects', { name, folders })) as { id: string };
    out(`${made.id}\n`);
    return 0;
  }
  const service = await openService({ home, engine: false });
  try {
    const r = await service.addProject(name, folders);
    if (isLeft(r)) throw new CliError(refusalText(r.left));
    out(`${r.right.id}\n`);
    return 0;
  } finally {
    await closeService(service);
  }
};

export const projectListCommand = async (home: string, out: Out): Promise<number> => {
  const live = await liveRecord(home);
  const list = live ? ((await api(home, 'GET', 'api/projects')) as { id: string; name: string; folders: { path: string }[] }[]) : await (async () => {
    const s = await openService({ home, engine: false });
    try { return [...s.listProjects()]; } finally { await closeService(s); }
  })();
  out(list.length ? list.map((x) => `${x.id}  ${x.name}  ${x.folders.map((f) => f.path).join(', ')}`).join('\n') + '\n' : 'no projects\n');
  return 0;
};
