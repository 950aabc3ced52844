// The lifeline: a tiny wrapper every agent CLI runs under, so no CLI outlives the server that owns
// it. The server spawns this file with `process.execPath` as the leader of a new process group,
// with an extra socket on fd 3 that only the server holds the other end of. The wrapper starts the
// CLI in its own group (stdin/stdout/stderr passed straight through, so claude's stream-json stdin
// works as before). When fd 3 reaches end-of-file the server is gone (a crash, SIGKILL, OOM): the
// wrapper ends the whole group, itself included. Plain JavaScript with no imports beyond Node's
// own, so it starts fast and runs the same from the sources and from dist/.
//
// usage: node lifeline.mjs <bin> [args...]
// Inside a sandbox (lib/sandbox) it also bridges: SVC_EGRESS_BRIDGE="<port>=<unix socket>" makes it
// listen on 127.0.0.1:<port> in the sandbox's own network namespace and carry each connection to
// svc's egress proxy on that socket; the CLI is started once the bridge listens, without the variable.
// SVC_INGRESS_BRIDGE="<unix socket>=<port>" is the other way (a run's preview, docs/preview.md): it
// listens on that socket, in a folder svc binds in, and carries each connection to 127.0.0.1:<port>
// inside, where the dev server listens; svc's proxy connects to the socket from outside.
// fd 3 messages to the server, one JSON line each: {"pid":N} once the CLI runs, or
// {"error":{"code","message"}} when it could not be started (the wrapper then exits 127).
import { spawn } from 'node:child_process';
import { connect, createServer, Socket } from 'node:net';

const GRACE_MS = 2000;
const [bin, ...args] = process.argv.slice(2);

let lifeline;
try {
  lifeline = new Socket({ fd: 3, readable: true, writable: true });
} catch {
  lifeline = undefined; // started by hand without fd 3: nothing to watch
}
const tell = (msg) => {
  try {
    lifeline?.write(JSON.stringify(msg) + '\n');
  } catch {
    // the server is gone; the end-of-file handler below deals with that
  }
};

// The group kill reaches the CLI directly; the wrapper outlives it to report its exit status.
for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(sig, () => undefined);

let lost = false;
// pid 0: our own group. Outside a sandbox we lead it; inside bubblewrap its init (pid 1 of the
// sandbox's namespace) leads it, and the CLI is in it with us all the same.
const killGroup = (sig) => {
  try {
    process.kill(0, sig);
  } catch {
    // the group is already empty
  }
};
const serverGone = () => {
  if (lost) return;
  lost = true;
  killGroup('SIGTERM');
  setTimeout(() => killGroup('SIGKILL'), GRACE_MS); // SIGKILL takes the wrapper too
};
// The server asks for a signal over fd 3 ({"signal":"SIGTERM"}) when a signal of its own cannot
// reach the CLI: inside a sandbox the CLI is in another PID namespace and session (lib/sandbox).
let asked = '';
const onAsk = (chunk) => {
  asked += chunk.toString('utf8');
  for (let nl = asked.indexOf('\n'); nl >= 0; nl = asked.indexOf('\n')) {
    const line = asked.slice(0, nl);
    asked = asked.slice(nl + 1);
    try {
      const sig = JSON.parse(line).signal;
      if (sig === 'SIGTERM' || sig === 'SIGINT') killGroup(sig);
    } catch {
      // not a request: ignore
    }
  }
};
if (lifeline) {
  lifeline.on('data', onAsk);
  lifeline.on('end', serverGone);
  lifeline.on('close', serverGone);
  lifeline.on('error', serverGone);
  lifeline.resume();
}

const startBridge = (spec, then) => {
  const at = spec.indexOf('=');
  const port = Number(spec.slice(0, at));
  const socket = spec.slice(at + 1);
  const server = createServer((c) => {
    const up = connect(socket);
    const end = () => (c.destroy(), up.destroy());
    c.on('error', end);
    up.on('error', end);
    c.pipe(up).pipe(c);
  });
  server.on('error', (err) => {
    process.stderr.write(`svc sandbox: the egress bridge could not listen: ${err.message}\n`);
    then();
  });
  server.listen(port, '127.0.0.1', then);
  server.unref();
};

const startIngress = (spec, then) => {
  const at = spec.lastIndexOf('=');
  const socket = spec.slice(0, at);
  const port = Number(spec.slice(at + 1));
  const server = createServer((c) => {
    const inner = connect(port, '127.0.0.1');
    const end = () => (c.destroy(), inner.destroy());
    c.on('error', end);
    inner.on('error', end);
    c.pipe(inner).pipe(c);
  });
  server.on('error', (err) => {
    process.stderr.write(`svc sandbox: the preview bridge could not listen: ${err.message}\n`);
    then();
  });
  server.listen(socket, then);
  server.unref();
};

const bridge = process.env.SVC_EGRESS_BRIDGE;
const ingress = process.env.SVC_INGRESS_BRIDGE;
delete process.env.SVC_EGRESS_BRIDGE;
delete process.env.SVC_INGRESS_BRIDGE;
const withIngress = () => (ingress ? startIngress(ingress, () => start()) : start());
if (bridge) startBridge(bridge, withIngress);
else withIngress();

function start() {
  const child = spawn(bin, args, { stdio: 'inherit' });
  child.on('spawn', () => tell({ pid: child.pid }));
  child.on('error', (err) => {
    tell({ error: { code: err.code ?? 'ERROR', message: err.message } });
    lifeline?.end();
    process.exitCode = 127;
    setTimeout(() => process.exit(127), 50);
  });
  child.on('exit', (code, signal) => {
    // Server gone: whatever the CLI left running (workers, tool processes) goes with it, now.
    if (lost) return killGroup('SIGKILL');
    lifeline?.destroy();
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
      return;
    }
    process.exit(code ?? 1);
  });
}
