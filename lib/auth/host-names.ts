// Host-name parsing shared by the host rule and the cross-site rule. A Host header or URL host
// may carry a port and IPv6 brackets; the rules compare bare, lower-cased names.

export const LOOPBACK_NAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** "LocalHost:8080" -> "localhost", "[::1]:80" -> "[::1]"; null for an empty or malformed header */
export const hostName = (host: string | undefined): string | null => {
  if (!host) return null;
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    return end > 0 ? h.slice(0, end + 1) : null;
  }
  const colon = h.indexOf(':');
  const name = colon === -1 ? h : h.slice(0, colon);
  return name.length > 0 ? name : null;
};

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
