import { svcHome } from '../paths.js';
import { parseArgs } from './args.js';
import { CliError } from './client.js';
import { projectAddCommand, projectListCommand, runCommand, runsCommand, startCommand } from './commands.js';
import { mcpTokenCommand } from './mcp-token.js';
import { bindWarning, startServer } from './serve.js';

const USAGE = `usage:
  svc serve [--port N] [--bind ADDR]     start the server (default 127.0.0.1, port 7420; --port 0 picks a free one)
  svc project add NAME PATH [PATH...]    register a project (git folders; the first is the primary one)
  svc project list
  svc start PROJECT GOAL [--workflow W] [--harness claude|codex|opencode] [--title T]
  svc runs                               list runs
  svc run RUN_ID                         show one run
  svc mcp token [--regenerate]           print (or replace) the MCP endpoint's token
`;

const out = (s: string) => process.stdout.write(s);

const serve = async (flags: Record<string, string | true>): Promise<number> => {
  // A flag given without its value (`--port` alone) is an error, not port 1 or the default bind.
  if (flags['port'] === true) throw new CliError('--port takes a number from 0 to 65535');
  if (flags['bind'] === true) throw new CliError('--bind takes an address, e.g. 127.0.0.1 or 0.0.0.0');
  const port = flags['port'] === undefined ? 7420 : /^\d{1,5}$/.test(flags['port']) ? Number(flags['port']) : NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError('--port takes a number from 0 to 65535');
  const bind = flags['bind'] ?? '127.0.0.1';
  const s = await startServer({ home: svcHome(), port, bind });
  const warn = bindWarning(bind);
  if (warn) process.stderr.write(`warning: ${warn}\n`);
  out(`svc serving at ${s.url}\n`);
  const stop = () => { void s.close().then(() => process.exit(0)); };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return new Promise<number>(() => undefined);
};

const dispatch = async (argv: readonly string[]): Promise<number> => {
  const [cmd, sub, ...rest] = argv;
  const home = svcHome();
  switch (cmd) {
    case 'serve': return serve(parseArgs(argv.slice(1)).flags);
    case 'runs': return runsCommand(home, out);
    case 'run': return runCommand(home, parseArgs(argv.slice(1)), out);
    case 'start': return startCommand(home, parseArgs(argv.slice(1)), out);
    case 'project':
      if (sub === 'add') return projectAddCommand(home, parseArgs(rest), out);
      if (sub === 'list') return projectListCommand(home, out);
      break;
    case 'mcp':
      if (sub === 'token') return mcpTokenCommand(rest, home);
      break;
    case undefined: case 'help': case '--help': case '-h':
      out(USAGE);
      return cmd === undefined ? 2 : 0;
  }
  process.stderr.write(`unknown command: ${argv.join(' ')}\n${USAGE}`);
  return 2;
};

export const main = async (argv: readonly string[]): Promise<number> => {
  try {
    return await dispatch(argv);
  } catch (err) {
    if (err instanceof CliError) {
      process.stderr.write(`svc: ${err.message}\n`);
      return 1;
    }
    process.stderr.write(`svc: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
};
