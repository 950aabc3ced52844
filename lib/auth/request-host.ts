import { parseHost, type HostPort } from './host-names.js';

// Which host a request names, judged from the wire: every Host line (Node keeps only the first in
// req.headers, so two lines would let the first win unseen) and the request target, which in
// absolute form (`GET http://evil.example/api/...`) names a host of its own. A request is malformed
// when it has more than one Host line, a Host that is not `host [":" port]`, or an absolute-form
// target that does not agree with its Host; RFC 7230 5.4 answers those with 400.

export type RequestHost =
  | { readonly kind: 'named'; readonly host: HostPort }
  | { readonly kind: 'unnamed' }
  | { readonly kind: 'malformed'; readonly detail: string };

const malformed = (detail: string): RequestHost => ({ kind: 'malformed', detail });

/** a short quote of what the client sent: enough to recognise, never an echo of a large input */
export const quoteShort = (text: string, max = 100): string => JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);

const hostLines = (rawHeaders: readonly string[]): string[] => {
  const values: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) if (rawHeaders[i]!.toLowerCase() === 'host') values.push(rawHeaders[i + 1]!.trim());
  return values;
};

const DEFAULT_PORT: Record<string, number> = { http: 80, https: 443 };
const ABSOLUTE = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)/i;

type Target = { readonly host: HostPort; readonly defaultPort: number } | null;

const targetHost = (target: string): Target | string => {
  if (target.startsWith('/') || target === '*') return null;
  const m = ABSOLUTE.exec(target);
  const scheme = m?.[1]!.toLowerCase() ?? '';
  if (!m || !(scheme in DEFAULT_PORT)) return `request target is neither a path nor an http URL: ${quoteShort(target)}`;
  const host = parseHost(m[2]!);
  return host ? { host, defaultPort: DEFAULT_PORT[scheme]! } : `request target's host is not host[:port]: ${quoteShort(m[2]!)}`;
};

const agree = (a: HostPort, b: HostPort, defaultPort: number): boolean =>
  a.name === b.name && (a.port ?? defaultPort) === (b.port ?? defaultPort);

/** the host a request names, or why it is malformed */
export const requestHost = (rawHeaders: readonly string[], target: string): RequestHost => {
  const lines = hostLines(rawHeaders);
  if (lines.length > 1) return malformed(`more than one Host header (${lines.length})`);
  const line = lines[0] ?? '';
  const host = line === '' ? null : parseHost(line);
  if (line !== '' && !host) return malformed(`Host header is not host[:port]: ${quoteShort(line)}`);
  const fromTarget = targetHost(target);
  if (typeof fromTarget === 'string') return malformed(fromTarget);
  if (!fromTarget) return host ? { kind: 'named', host } : { kind: 'unnamed' };
  if (host && !agree(host, fromTarget.host, fromTarget.defaultPort)) return malformed(`the request target's host does not agree with Host: ${quoteShort(line)}`);
  return { kind: 'named', host: fromTarget.host };
};
