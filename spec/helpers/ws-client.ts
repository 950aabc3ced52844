import { connect } from 'node:net';
import { randomBytes } from 'node:crypto';

// A minimal WebSocket client for the preview specs (Node 20 has none built in and the tests take
// no new package): the handshake, one masked text frame out, the first text frame back.

export const wsEcho = (url: string, text: string, headers: Record<string, string> = {}): Promise<{ status: string; reply: string | null }> =>
  new Promise((resolve, reject) => {
    const u = new URL(url);
    const s = connect({ host: u.hostname, port: Number(u.port) });
    const extra = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
    s.on('connect', () => s.write(`GET ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n${extra}\r\n`));
    let buf = Buffer.alloc(0);
    let status: string | null = null;
    s.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      if (status === null) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        status = buf.subarray(0, buf.indexOf('\r\n')).toString();
        buf = buf.subarray(end + 4);
        if (!status.includes(' 101 ')) { s.destroy(); resolve({ status, reply: null }); return; }
        const payload = Buffer.from(text);
        const mask = randomBytes(4);
        s.write(Buffer.concat([Buffer.from([0x81, 0x80 | payload.length]), mask, Buffer.from(payload.map((b, i) => b ^ mask[i % 4]!))]));
      }
      if (buf.length >= 2 && buf.length >= 2 + (buf[1]! & 0x7f)) {
        const reply = buf.subarray(2, 2 + (buf[1]! & 0x7f)).toString();
        s.destroy();
        resolve({ status, reply });
      }
    });
    s.on('error', reject);
    s.setTimeout(20_000, () => { s.destroy(); reject(new Error('websocket timed out')); });
  });
