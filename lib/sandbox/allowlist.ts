// Which destinations a sandboxed step may reach through the egress proxy. An entry is `host`
// (ports 80 and 443), `host:port`, `*.domain` (any subdomain, ports 80 and 443) or `*` (anything:
// only a project's list for `full` steps may say so). Pure: lib/sandbox/egress.ts asks it.

export type Allowlist = readonly string[];

const WEB_PORTS = new Set([80, 443]);

const matchesHost = (pattern: string, host: string): boolean =>
  pattern.startsWith('*.') ? host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1 : pattern === host;

const splitEntry = (entry: string): { host: string; port?: number } => {
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(entry.trim().toLowerCase());
  if (!m) return { host: '' };
  return m[2] ? { host: m[1]!, port: Number(m[2]) } : { host: m[1]! };
};

export const allows = (list: Allowlist, host: string, port: number): boolean =>
  list.some((entry) => {
    if (entry.trim() === '*') return true;
    const e = splitEntry(entry);
    if (!e.host || !matchesHost(e.host, host.toLowerCase())) return false;
    return e.port === undefined ? WEB_PORTS.has(port) : e.port === port;
  });

/** The entry a URL's origin needs: `host:port` (the port written out, default or not). */
export const entryOf = (url: string): string | undefined => {
  try {
    const u = new URL(url);
    const port = u.port || (u.protocol === 'https:' ? '443' : '80');
    return `${u.hostname}:${port}`;
  } catch {
    return undefined;
  }
};

