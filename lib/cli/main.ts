import { svcHome } from '../paths.js';
import { parseCommand, UsageError, usageOf, type CommandSpec, type Parsed } from './args.js';
import { appCommand } from './app.js';
import { projectAddCommand, projectListCommand, runCommand, runsCommand, startCommand } from './commands.js';
import { doctorCommand } from './doctor.js';
import { mcpTokenCommand } from './mcp-token.js';
import { bindWarning, startServer } from './serve.js';
import { workerJoinCommand, workerListCommand, workerRevokeCommand, workerTokenCommand } from './worker.js';

/** where a command writes; the process's own streams unless a test gives others */
export interface Io {
  readonly out: (s: string) => void;
  readonly err: (s: string) => void;
}

const processIo: Io = { out: (s) => void process.stdout.write(s), err: (s) => void process.stderr.write(s) };

// A flag given without its value (`--port` alone) is refused by the parser; a value that is not a
// port is refused here, both as usage errors.
const portOf = (flags: Parsed['flags']): number => {
  const raw = flags['port'];
  const port = raw === undefined ? 7420 : typeof raw === 'string' && /^\d{1,5}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port takes a number from 0 to 65535');
  return port;
};

const STOP_MS = 30_000;

const serve = async ({ flags }: Parsed, { out, err }: Io): Promise<number> => {
  const port = portOf(flags);
  const bind = typeof flags['bind'] === 'string' ? flags['bind'] : '127.0.0.1';
  if (bind === '') throw new UsageError('--bind takes an address, e.g. 127.0.0.1 or 0.0.0.0');
  const s = await startServer({ home: svcHome(), port, bind });
  const warn = bindWarning(bind);
  if (warn) err(`warning: ${warn}\n`);
  out(`svc serving at ${s.baseUrl}\n`);
  // a part that does not stop (a connection that never drains) must not keep the process: it ends anyway
  const stop = () => {
    setTimeout(() => { err(`svc: not stopped after ${STOP_MS / 1000} s; exiting\n`); process.exit(1); }, STOP_MS).unref();
    void s.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return new Promise<number>(() => undefined);
};

// The window owns this server: it goes when the window goes, so the process ends with it.
const app = async ({ flags }: Parsed, { out }: Io): Promise<number> => {
  const code = await appCommand({ home: svcHome(), port: portOf(flags), env: process.env, out });
  process.exit(code);
};

interface Command extends CommandSpec {
  run(p: Parsed, io: Io): Promise<number> | number;
}

const COMMANDS: readonly Command[] = [
  { words: ['serve'], synopsis: 'serve [--port N] [--bind ADDR]', summary: 'start the server (default 127.0.0.1, port 7420; --port 0 picks a free one)',
    options: { port: { type: 'string' }, bind: { type: 'string' } }, run: serve },
  { words: ['app'], synopsis: 'app [--port N]', summary: 'start a server owned by a window and open the app in it; closing the window stops the server',
    options: { port: { type: 'string' } }, run: app },
  { words: ['project', 'add'], synopsis: 'project add NAME PATH [PATH...]', summary: 'register a project (git folders; the first is the primary one)',
    positionals: { min: 2 }, run: (p, io) => projectAddCommand(svcHome(), p, io.out) },
  { words: ['project', 'list'], synopsis: 'project list', summary: 'list the projects', run: (_, io) => projectListCommand(svcHome(), io.out) },
  { words: ['start'], synopsis: 'start PROJECT GOAL... [--workflow W] [--harness claude|codex|opencode] [--model M] [--title T]',
    summary: 'start a run (put a goal word that starts with - after --)',
    options: { workflow: { type: 'string' }, harness: { type: 'string' }, model: { type: 'string' }, title: { type: 'string' } },
    positionals: { min: 2 }, run: (p, io) => startCommand(svcHome(), p, io.out) },
  { words: ['doctor'], synopsis: 'doctor', summary: 'check that runs can start: the server, and each agent CLI (installed, version, logged in); exit 1 when none is ready',
    run: (_, io) => doctorCommand(svcHome(), io.out) },
  { words: ['runs'], synopsis: 'runs', summary: 'list runs', run: (_, io) => runsCommand(svcHome(), io.out) },
  { words: ['run'], synopsis: 'run RUN_ID', summary: 'show one run', positionals: { min: 1, max: 1 }, run: (p, io) => runCommand(svcHome(), p, io.out) },
  { words: ['mcp', 'token'], synopsis: 'mcp token [--regenerate]', summary: "print (or replace) the MCP endpoint's token",
    options: { regenerate: { type: 'boolean' } }, run: (p, io) => mcpTokenCommand(p.flags['regenerate'] ? ['--regenerate'] : [], svcHome(), io.out, io.err) },
  { words: ['worker', 'token'], synopsis: 'worker token [NAME]', summary: 'make a join token for another machine (shown once; the first one switches workers on)',
    run: (p, io) => workerTokenCommand(svcHome(), p, io.out) },
  { words: ['worker', 'revoke'], synopsis: 'worker revoke WORKER_ID', summary: "revoke a worker: its connection closes and its messages are refused",
    positionals: { min: 1, max: 1 }, run: (p, io) => workerRevokeCommand(svcHome(), p, io.out) },
  { words: ['worker', 'list'], synopsis: 'worker list', summary: 'list the workers: online, lost, slots, harnesses', run: (_, io) => workerListCommand(svcHome(), io.out) },
  { words: ['worker', 'join'], synopsis: 'worker join HUB_URL TOKEN [--slots N]', summary: 'on another machine: join the hub (outbound only) and run its steps until stopped',
    options: { slots: { type: 'string' } }, positionals: { min: 2, max: 2 }, run: (p, io) => workerJoinCommand(p, io.out) },
];

const line = (c: CommandSpec) => `  svc ${c.synopsis}\n      ${c.summary}\n`;
export const USAGE = `usage:\n${COMMANDS.map(line).join('')}  svc COMMAND --help\n      one command's usage\n`;

const HELP = new Set(['help', '--help', '-h']);

const findCommand = (argv: readonly string[]): Command | undefined =>
  COMMANDS.find((c) => c.words.every((w, i) => argv[i] === w));

const dispatch = async (argv: readonly string[], io: Io): Promise<number> => {
  const { out, err } = io;
  if (argv.length === 0) {
    err(USAGE);
    return 2;
  }
  // `svc help`, `svc --help`, `svc help start`
  if (HELP.has(argv[0]!)) {
    const topic = argv.length > 1 ? COMMANDS.filter((c) => c.words.every((w, i) => argv[i + 1] === undefined || argv[i + 1] === w)) : [];
    out(topic.length ? topic.map(usageOf).join('') : USAGE);
    return 0;
  }
  const command = findCommand(argv);
  if (!command) {
    // `svc project --help`: the usage of every command in that group
    const group = COMMANDS.filter((c) => c.words.length > 1 && c.words[0] === argv[0]);
    if (group.length && argv.length === 2 && HELP.has(argv[1]!)) {
      out(group.map(usageOf).join(''));
      return 0;
    }
    err(`svc: unknown command: ${argv.join(' ')}\n${group.length ? group.map(usageOf).join('') : USAGE}`);
    return 2;
  }
  try {
    const parsed = parseCommand(command, argv.slice(command.words.length));
    if (parsed === 'help') {
      out(usageOf(command));
      return 0;
    }
    return await command.run(parsed, io);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    err(`svc: ${e.message}\n${usageOf(command)}`);
    return 2;
  }
};

export const main = async (argv: readonly string[], io: Io = processIo): Promise<number> => {
  try {
    return await dispatch(argv, io);
  } catch (e) {
    io.err(`svc: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
};
