import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RelayedAnswer } from './tools-relay.js';

// The worker's side of the run-tools relay: the agent's run-tools endpoint on this machine's
// loopback, with a token of its own; each call goes to the hub whole (tools-relay.ts).

const MAX_BODY = 900 * 1024;

const bodyOf = (req: IncomingMessage): Promise<string | null> => new Promise((resolve) => {
  const parts: Buffer[] = [];
  let size = 0;
  req.on('data', (d: Buffer) => { size += d.length; if (size <= MAX_BODY) parts.push(d); });
  req.on('end', () => resolve(size <= MAX_BODY ? Buffer.concat(parts).toString('utf8') : null));
  req.on('error', () => resolve(null));
});

export const serveToolsRelay = async (runId: string, relay: (body: string) => Promise<RelayedAnswer>) => {
  const token = randomBytes(24).toString('base64url');
  const path = `/run-tools/${runId}/mcp`;
  const server = createServer((req, res) => {
    const answer = (status: number, type: string, body: string) => { res.writeHead(status, { 'content-type': type }); res.end(body); };
    if (req.url !== path) return answer(404, 'application/json', '{"detail":"not found"}');
    if (req.headers.authorization !== `Bearer ${token}`) return answer(401, 'application/json', '{"detail":"this run\'s tool token is required"}');
    if (req.method !== 'POST') return answer(405, 'application/json', '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Method not allowed."},"id":null}');
    void bodyOf(req).then(async (body) => {
      if (body === null) return answer(413, 'application/json', '{"detail":"too large"}');
      const r = await relay(body).catch((e: unknown) => ({ status: 502, type: 'application/json', body: JSON.stringify({ detail: `the hub did not answer: ${String(e)}` }) }));
      answer(r.status, r.type, r.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    tools: { url: `http://127.0.0.1:${port}${path}`, token },
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
};
