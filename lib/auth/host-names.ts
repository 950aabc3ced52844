import { isIPv6 } from 'node:net';

// Host-name parsing shared by the host rule and the cross-site rule. One strict grammar,
// `host [":" port]` (RFC 7230 5.4 / RFC 3986 3.2.2): a DNS name or IPv4 address, or an IPv6 address in
// brackets, then optionally a colon and 1-5 digits. Nothing else: no user info (`localhost:80@evil`),
// no lists (`localhost, evil`), nothing after the brackets (`[::1]evil`), no spaces. A lenient parser
// that reads a prefix is how a foreign name passes as a loopback one.

export const LOOPBACK_NAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

export interface HostPort {
  /** lower-cased; an IPv6 address keeps its brackets */
  readonly name: string;
  readonly port: number | null;
}

const REG_NAME = /^[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.?$/;
const PORT = /^\d{1,5}$/;

const parsePort = (text: string | undefined): number | null | undefined => {
  if (text === undefined) return null;
  if (!PORT.test(text)) return undefined;
  const port = Number(text);
  return port <= 65535 ? port : undefined;
};

const split = (h: string): [string, string | undefined] | null => {
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    if (end < 0 || !isIPv6(h.slice(1, end))) return null;
    const rest = h.slice(end + 1);
    if (rest !== '' && !rest.startsWith(':')) return null;
    return [h.slice(0, end + 1), rest === '' ? undefined : rest.slice(1)];
  }
  const colon = h.indexOf(':');
  const name = colon === -1 ? h : h.slice(0, colon);
  return REG_NAME.test(name) ? [name, colon === -1 ? undefined : h.slice(colon + 1)] : null;
};

/** "LocalHost:8080" -> {localhost, 8080}; null for anything that is not exactly `host [":" port]` */
export const parseHost = (text: string): HostPort | null => {
  const parts = split(text.toLowerCase());
  if (!parts) return null;
  const port = parsePort(parts[1]);
  return port === undefined ? null : { name: parts[0], port };
};

/** "LocalHost:8080" -> "localhost", "[::1]:80" -> "[::1]"; null for an empty or malformed header */
export const hostName = (host: string | undefined): string | null => (host ? parseHost(host.trim())?.name ?? null : null);

/** the bind address as it appears in a URL host: IPv6 gets brackets */
export const bindHostName = (bind: string): string => {
  const b = bind.trim().toLowerCase();
  return b.includes(':') && !b.startsWith('[') ? `[${b}]` : b;
};

// 127.0.0.0/8, ::1 and localhost are loopback; anything else (0.0.0.0 included) is a network bind.
export const isLoopbackBind = (bind: string): boolean => {
  const b = bindHostName(bind);
  return b === 'localhost' || b === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(b);
};
