import { request } from 'node:http';
import { connect } from 'node:net';

// Plain node:http requests, because fetch will not let a test set Host or Sec-Fetch-Site freely.

export interface RawAnswer { readonly status: number; readonly body: string; readonly headers: Record<string, string | string[] | undefined> }

export const rawRequest = (
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<RawAnswer> =>
  new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      let data = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (data += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });

export const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

export const rpc = (method: string, params: unknown = {}, id = 1): string => JSON.stringify({ jsonrpc: '2.0', id, method, params });

export const INIT = rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } });

/** The status of a request written byte for byte, e.g. one with no Host line, which node:http always adds. */
export const wireStatus = (port: number, text: string): Promise<number> =>
  new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(text));
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (c: string) => (data += c));
    socket.on('error', reject);
    socket.on('close', () => resolve(Number(/^HTTP\/1\.\d (\d{3})/.exec(data)?.[1] ?? 0)));
  });
