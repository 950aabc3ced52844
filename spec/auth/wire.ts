import { connect } from 'node:net';

// A request written byte for byte on a raw socket (node:http and fetch always write one Host line of
// their own, and neither writes an absolute-form target), read until the server closes its side.

export interface WireAnswer {
  readonly status: number;
  readonly headers: string;
  readonly body: string;
  /** a socket error the client met (ECONNRESET, EPIPE), or null */
  readonly error: string | null;
}

const parse = (data: string, error: string | null): WireAnswer => {
  const split = data.indexOf('\r\n\r\n');
  const head = split < 0 ? data : data.slice(0, split);
  return { status: Number(/^HTTP\/1\.\d (\d{3})/.exec(head)?.[1] ?? 0), headers: head, body: split < 0 ? '' : data.slice(split + 4), error };
};

/** writes `text` without closing the write side (as a client still waiting for its answer does) */
export const wire = (port: number, text: string): Promise<WireAnswer> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text, () => undefined));
    let data = '';
    let done = false;
    const finish = (error: string | null) => { if (done) return; done = true; socket.destroy(); resolve(parse(data, error)); };
    socket.setEncoding('utf8');
    socket.on('data', (c: string) => (data += c));
    socket.on('error', (e: NodeJS.ErrnoException) => finish(e.code ?? e.message));
    socket.on('end', () => finish(null));
    socket.on('close', () => finish(null));
  });

/** a request line, header lines and an optional body, CRLF-joined, closing the connection after */
export const requestText = (line: string, headers: readonly string[], body = ''): string =>
  [line, ...headers, 'Connection: close', ...(body ? [`Content-Length: ${Buffer.byteLength(body)}`] : []), '', body].join('\r\n');
