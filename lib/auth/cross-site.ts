import { LOOPBACK_NAMES, hostName, bindHostName } from './host-names.js';

// A browser tells us where a request comes from (Sec-Fetch-Site, Origin). Reads are harmless;
// a state-changing request from another site is the classic CSRF and is refused. Non-browser
// clients (curl, agents) send neither header and pass.

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface SiteHeaders {
  readonly host: string;
  readonly origin: string;
  readonly fetchSite: string;
}

const originHost = (origin: string): string | null => {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? hostName(url.host) : null;
  } catch {
    return null; // "null" (sandboxed frames, file://) and garbage are foreign
  }
};

// Allowed origins: loopback names (any port), the bound host, and the request's own host
// (a same-origin request is not cross-site; on loopback the host rule already vetted it).
const originAllowed = (bind: string, origin: string, host: string): boolean => {
  const name = originHost(origin);
  if (name === null) return false;
  return LOOPBACK_NAMES.includes(name) || name === bindHostName(bind) || name === hostName(host);
};

/** the reason to refuse, or null when the request may go on */
export const crossSiteRefusal = (bind: string, method: string, h: SiteHeaders): string | null => {
  if (SAFE_METHODS.has(method.toUpperCase())) return null;
  if (h.fetchSite.toLowerCase() === 'cross-site') return 'cross-site request refused';
  if (h.origin && !originAllowed(bind, h.origin, h.host)) return `cross-site request refused (origin ${h.origin})`;
  return null;
};
