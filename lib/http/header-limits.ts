import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

// Requests Node refuses before the app sees them (headers over 16 KB, a request line it cannot
// parse, a header timeout) get the same kind of answer as every other refusal: a status and a JSON
// `detail`. Node's own answer is an empty body, written just before it destroys the socket; a
// client still sending its oversized headers then meets a reset instead of the answer. So the answer
// is written, the socket half-closed, and what the client still sends is read and dropped until it
// closes (or a grace period ends).

/** more header lines than this is a 431, whatever their size; Node would silently drop those past 2,000 */
export const MAX_HEADER_LINES = 200;
const DRAIN_GRACE_MS = 5_000;

export interface ClientError extends Error { readonly code?: string }

const answerFor = (code: string | undefined): [number, string] => {
  if (code === 'HPE_HEADER_OVERFLOW') return [431, 'request headers too large: at most 16 KB of headers in all'];
  if (code === 'HPE_HEADERS_TIMEOUT' || code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'request headers took too long to arrive'];
  return [400, `malformed HTTP request${code ? ` (${code})` : ''}`];
};

const wire = (status: number, detail: string): string => {
  const body = JSON.stringify({ detail });
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n`
    + `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
};

const answered = new WeakSet<Duplex>();

const answerOnSocket = (err: ClientError, socket: Duplex): void => {
  if (answered.has(socket)) return; // the parser reports again for each chunk that still arrives
  answered.add(socket);
  // A response already under way on this connection would be corrupted by a second one: just close.
  if (err.code === 'ECONNRESET' || !socket.writable || (socket as Duplex & { _httpMessage?: unknown })._httpMessage) return void socket.destroy();
  const [status, detail] = answerFor(err.code);
  socket.end(wire(status, detail));
  socket.on('error', () => socket.destroy());
  socket.on('end', () => socket.destroy());
  socket.resume();
  setTimeout(() => socket.destroy(), DRAIN_GRACE_MS).unref();
};

const headerLines = (req: IncomingMessage): number => req.rawHeaders.length / 2;

const tooMany = (req: IncomingMessage, res: ServerResponse): void => {
  const body = JSON.stringify({ detail: `too many request header lines: ${headerLines(req)}, at most ${MAX_HEADER_LINES}` });
  res.writeHead(431, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), Connection: 'close' });
  res.end(body);
};

/** the app's listener behind the header-line limit */
export const limitHeaderLines = (listener: RequestListener): RequestListener => (req, res) =>
  headerLines(req) > MAX_HEADER_LINES ? tooMany(req, res) : listener(req, res);

/** JSON answers for what Node refuses itself; every header line kept, so the app judges them all */
export const answerClientErrors = (server: Server): void => {
  server.maxHeadersCount = 0;
  server.on('clientError', answerOnSocket);
};
