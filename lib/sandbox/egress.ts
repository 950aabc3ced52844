// The egress proxy: the only way out of a sandbox, which has no network of its own. An HTTP proxy
// on a unix socket (bound into the sandbox, bridged to a loopback port inside by the lifeline):
// CONNECT tunnels and absolute-form HTTP requests to allowed hosts pass; the run's own tool server
// passes for its own path only (svc's HTTP server is on the same origin, and must stay out of
// reach); everything else gets 403 and is told to `onRefused`, once per destination.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allows, type Allowlist } from './allowlist.js';

export interface EgressRules {
  readonly allow: Allowlist;
  /** the run's tool server: only URLs starting with this pass on its origin ('' or absent: none, a command step) */
  readonly runTools?: string;
  /** the run's preview through svc (docs/preview.md): URLs starting with this pass on its origin too */
  readonly preview?: string;
}

export interface Egress {
  readonly socket: string;
  close(): Promise<void>;
}

export type Refused = (destination: string, why: string) => void;

const originOf = (url: string | undefined): string | null => {
  try {
    return url ? new URL(url).origin : null;
  } catch {
    return null;
  }
};

const refuse = (res: ServerResponse, why: string): void => {
  res.writeHead(403, { 'content-type': 'text/plain', connection: 'close' });
  res.end(`svc sandbox: ${why}\n`);
};

// Hop-by-hop headers are the proxy's, not the destination's.
const forwardHeaders = (h: IncomingMessage['headers']): IncomingMessage['headers'] => {
  const { 'proxy-connection': _a, 'proxy-authorization': _b, ...rest } = h;
  return rest;
};

const forward = (req: IncomingMessage, res: ServerResponse, url: URL): void => {
  const up = request({ host: url.hostname, port: url.port || 80, method: req.method, path: url.pathname + url.search, headers: forwardHeaders(req.headers) }, (r) => {
    res.writeHead(r.statusCode ?? 502, r.headers);
    r.pipe(res);
  });
  up.on('error', (e) => (res.headersSent ? res.destroy() : (res.writeHead(502), res.end(`svc sandbox: ${e.message}\n`))));
  req.pipe(up);
};

const whyNot = (rules: EgressRules, url: URL): string | null => {
  if (url.protocol !== 'http:') return `only http:// goes as a plain request (${url.protocol} needs CONNECT)`;
  const own = [rules.runTools, rules.preview].filter((u): u is string => !!u);
  if (own.some((u) => url.origin === originOf(u))) return own.some((u) => url.href.startsWith(u)) ? null : `svc's own server is reachable for this run's tool server ${rules.preview ? 'and preview ' : ''}only`;
  return allows(rules.allow, url.hostname, Number(url.port || 80)) ? null : 'not on the allowlist';
};

const tunnel = (rules: EgressRules, target: string, client: Socket, head: Buffer, refused: Refused): void => {
  // a client that hung up while we answer (EPIPE, ECONNRESET) ends its own connection, nothing else
  client.on('error', () => client.destroy());
  const m = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(target);
  const host = m?.[1] ?? '';
  const port = Number(m?.[2] ?? 0);
  const toTools = m && (`http://${target}` === originOf(rules.runTools) || `http://${target}` === originOf(rules.preview));
  if (!m || toTools || !allows(rules.allow, host.replace(/^\[|\]$/g, ''), port)) {
    refused(`CONNECT ${target}`, toTools ? 'svc\'s own server is reachable for this run\'s tool server only' : 'not on the allowlist');
    return void client.end('HTTP/1.1 403 Forbidden\r\nconnection: close\r\n\r\n');
  }
  const up = connect(port, host.replace(/^\[|\]$/g, ''), () => {
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length) up.write(head);
    up.pipe(client).pipe(up);
  });
  const end = (): void => (up.destroy(), void client.destroy());
  up.on('error', () => (client.writable ? client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n') : end()));
  client.on('error', end);
  client.on('close', () => up.destroy());
};

export const openEgress = (rules: EgressRules, onRefused: Refused): Egress => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-egress-'));
  chmodSync(dir, 0o700);
  const socket = join(dir, 'egress.sock');
  const told = new Set<string>();
  const refused: Refused = (destination, why) => {
    if (told.has(destination)) return;
    told.add(destination);
    onRefused(destination, why);
  };
  const server = createServer((req, res) => {
    req.on('error', () => undefined);
    res.on('error', () => undefined);
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      return refuse(res, 'requests go through the proxy as absolute URLs');
    }
    const why = whyNot(rules, url);
    if (!why) return forward(req, res, url);
    refused(`${req.method} ${url.origin}${url.pathname}`, why);
    refuse(res, why);
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => tunnel(rules, req.url ?? '', client, head, refused));
  server.on('clientError', (_e, s: Socket) => s.destroy());
  // A pipe binds inside listen(): the socket accepts connections before this returns.
  server.listen(socket);
  // a turn's proxy never holds svc up by itself: svc's own server decides when the process ends
  server.unref();
  const sockets = new Set<Socket>();
  let closing: Promise<void> | undefined;
  server.on('connection', (s: Socket) => (sockets.add(s), s.once('close', () => sockets.delete(s))));
  return {
    socket,
    close: () => (closing ??= new Promise((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => (rmSync(dir, { recursive: true, force: true }), resolve()));
    })),
  };
};
