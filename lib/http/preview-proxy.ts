import type Koa from 'koa';
import { request, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Service } from '../root/service.js';
import { hostRefusal } from '../auth/host-rules.js';
import { crossSiteRefusal } from '../auth/cross-site.js';
import { quoted } from '../../domain/quoted.js';
import type { PreviewTarget } from '../preview/ports.js';

// /preview/<runId>/… is the run's preview, proxied to its dev server on 127.0.0.1 with node's own
// http module (docs/preview.md). The host rule already ran (lib/auth); on top of it a preview
// refuses every cross-site request, reads too, so another site can neither frame nor fetch it.
// WebSocket upgrades (hot reload) go through previewUpgrade with the same rules.

const PATH = /^\/preview\/([^/?#]+)(\/[^#]*|\?[^#]*)?$/;
const HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'proxy-authorization', 'authorization']);

export const matchPreview = (url: string): { runId: string; rest: string } | null => {
  const m = PATH.exec(url);
  if (!m) return null;
  let runId: string;
  try { runId = decodeURIComponent(m[1]!); } catch { return null; }
  return { runId, rest: m[2] ?? '' };
};

const forward = (h: IncomingHttpHeaders, port: number, prefix: string, host: string | undefined): Record<string, string | string[]> => {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined && !HOP.has(k)) out[k] = v;
  out['host'] = `127.0.0.1:${port}`;
  if (host) out['x-forwarded-host'] = host;
  out['x-forwarded-proto'] = 'http';
  out['x-forwarded-prefix'] = prefix;
  return out;
};

const crossSite = (bind: string, method: string, h: IncomingHttpHeaders): string | null => {
  if (String(h['sec-fetch-site'] ?? '').toLowerCase() === 'cross-site') return 'cross-site request to a preview refused';
  return crossSiteRefusal(bind, method, { host: String(h.host ?? ''), origin: String(h.origin ?? ''), fetchSite: String(h['sec-fetch-site'] ?? '') });
};

/** the dev server's loopback port, or the unix socket of its sandbox's bridge (docs/preview.md) */
const via = (at: PreviewTarget): { socketPath: string } | { host: string; port: number } =>
  at.socket ? { socketPath: at.socket } : { host: '127.0.0.1', port: at.port };

const answer = (ctx: Koa.Context, status: number, detail: string): void => { ctx.status = status; ctx.body = { detail }; };

export const previewProxy = (service: Service, bind: string): Koa.Middleware => async (ctx, next) => {
  const m = matchPreview(ctx.req.url ?? '');
  if (!m) return next();
  const refused = crossSite(bind, ctx.method, ctx.req.headers);
  if (refused) return answer(ctx, 403, refused);
  if (!m.rest.startsWith('/')) { ctx.status = 308; ctx.redirect(`/preview/${encodeURIComponent(m.runId)}/${m.rest}`); return; }
  const at = service.previews.target(m.runId);
  if (at === undefined) return answer(ctx, 404, `no preview is running for run ${quoted(m.runId)}; start it with POST /api/runs/{id}/preview`);
  ctx.respond = false;
  const { req, res } = ctx;
  const prefix = `/preview/${encodeURIComponent(m.runId)}`;
  const up = request({ ...via(at), method: req.method, path: m.rest, headers: forward(req.headers, at.port, prefix, req.headers.host) }, (r: IncomingMessage) => {
    res.writeHead(r.statusCode ?? 502, r.statusMessage, stripHop(r.rawHeaders));
    r.pipe(res);
  });
  up.on('error', (e) => {
    if (!res.headersSent) { res.writeHead(502, { 'content-type': 'application/json' }); res.end(JSON.stringify({ detail: `the preview did not answer: ${e.message}` })); } else res.destroy();
  });
  req.pipe(up);
  res.on('close', () => up.destroy());
};

const stripHop = (raw: readonly string[]): string[] => {
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) if (!HOP.has(raw[i]!.toLowerCase())) out.push(raw[i]!, raw[i + 1]!);
  return out;
};

const refuseSocket = (socket: Duplex, status: number, detail: string): void => {
  const body = JSON.stringify({ detail });
  socket.end(`HTTP/1.1 ${status} ${status === 404 ? 'Not Found' : status === 400 ? 'Bad Request' : 'Forbidden'}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
};

/** the server's 'upgrade' listener: a preview's WebSocket, under the same rules as its requests */
export const previewUpgrade = (service: Service, bind: string) => (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
  socket.on('error', () => undefined);
  const host = hostRefusal(bind, req.rawHeaders, req.url ?? '');
  if (host) return refuseSocket(socket, host.status, host.detail);
  const m = matchPreview(req.url ?? '');
  if (!m || !m.rest.startsWith('/')) return refuseSocket(socket, 404, 'no WebSocket here');
  // an upgrade changes state like a POST: a foreign Origin is refused
  const refused = crossSite(bind, 'POST', req.headers);
  if (refused) return refuseSocket(socket, 403, refused);
  const at = service.previews.target(m.runId);
  if (at === undefined) return refuseSocket(socket, 404, `no preview is running for run ${quoted(m.runId)}`);
  const up: Socket = connect(at.socket ? { path: at.socket } : { host: '127.0.0.1', port: at.port }, () => {
    const headers = forward(req.headers, at.port, `/preview/${encodeURIComponent(m.runId)}`, req.headers.host);
    headers['connection'] = 'Upgrade';
    headers['upgrade'] = String(req.headers.upgrade ?? 'websocket');
    const lines = Object.entries(headers).flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((x) => `${k}: ${x}`));
    up.write(`${req.method ?? 'GET'} ${m.rest} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`);
    if (head.length) up.write(head);
    up.pipe(socket);
    socket.pipe(up);
  });
  up.on('error', () => socket.destroy());
  socket.on('close', () => up.destroy());
};
