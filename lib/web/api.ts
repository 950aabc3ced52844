// The app's one way to call /api: JSON in and out, a refusal's `detail` as the error message, and
// the window's secret as a Bearer header when `svc app` handed one over (sessionStorage, so it
// never reaches a URL, a history entry or another tab).

export const SECRET_KEY = 'svc.secret';

export class ApiError extends Error {
  constructor(readonly status: number, readonly detail: string, readonly body: unknown) {
    super(detail);
  }
}

export const authHeaders = (): Record<string, string> => {
  let secret: string | null = null;
  try { secret = sessionStorage.getItem(SECRET_KEY); } catch { /* storage blocked: no secret */ }
  return secret ? { authorization: `Bearer ${secret}` } : {};
};

export interface CallOptions {
  readonly method?: string;
  readonly body?: unknown;
  readonly signal?: AbortSignal;
  /** extra request headers (e.g. `svc-setting-source`, naming who sent a settings change) */
  readonly headers?: Readonly<Record<string, string>>;
}

const detailOf = (body: unknown): string | undefined => {
  const d = (body as { detail?: unknown } | null)?.detail;
  return typeof d === 'string' ? d : undefined;
};

// A read that failed on the way (the browser dropped it when the machine's network changed, as it
// does on a Wi-Fi switch or when a VPN comes up) is made again after these pauses; a write is not,
// since it may have landed: the person sees why and can send it again.
const READ_RETRIES_MS = [250, 1000, 3000];

const sent = async (url: string, method: string, o: CallOptions): Promise<Response> => {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fetch(url, {
        method,
        headers: { accept: 'application/json', ...o.headers, ...authHeaders(), ...(o.body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(o.body === undefined ? {} : { body: JSON.stringify(o.body) }),
        ...(o.signal ? { signal: o.signal } : {}),
      });
    } catch (err) {
      if ((err as Error).name === 'AbortError') throw err;
      const pause = method === 'GET' ? READ_RETRIES_MS[attempt] : undefined;
      if (pause === undefined) throw new ApiError(0, 'the server cannot be reached', null);
      await new Promise((r) => setTimeout(r, pause));
    }
  }
};

/** `path` is under /api (`runs/r1` or `/api/runs/r1`). Resolves to the body and the response headers. */
export const apiResponse = async <T>(path: string, o: CallOptions = {}): Promise<{ readonly body: T; readonly headers: Headers }> => {
  const method = o.method ?? (o.body === undefined ? 'GET' : 'POST');
  const url = path.startsWith('/') ? path : `/api/${path}`;
  const res = await sent(url, method, o);
  const text = await res.text();
  let body: unknown = null;
  try { body = text ? JSON.parse(text) : null; } catch { body = text; }
  if (!res.ok) throw new ApiError(res.status, detailOf(body) ?? `${method} ${url}: HTTP ${res.status}`, body);
  return { body: body as T, headers: res.headers };
};

export const api = async <T>(path: string, o: CallOptions = {}): Promise<T> => (await apiResponse<T>(path, o)).body;
