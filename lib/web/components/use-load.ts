import { useCallback, useEffect, useState } from 'preact/hooks';
import type { ApiError } from '../api.js';

// One read a page shows: the answer, the refusal, and a way to read it again after a change.
// A read that a newer one overtook is dropped, so a quick switch (another project) never shows
// the older answer last.

export interface Loaded<T> {
  readonly data: T | undefined;
  readonly error: ApiError | null;
  readonly reload: () => Promise<void>;
  readonly set: (data: T) => void;
}

export const useLoad = <T>(read: (() => Promise<T>) | null, deps: readonly unknown[]): Loaded<T> => {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<ApiError | null>(null);
  const [seq] = useState(() => ({ n: 0 }));
  const reload = useCallback(async () => {
    if (!read) return;
    const mine = ++seq.n;
    try {
      const d = await read();
      if (mine === seq.n) { setData(d); setError(null); }
    } catch (err) {
      if (mine === seq.n) setError(err as ApiError);
    }
  }, deps);
  useEffect(() => {
    setData(undefined);
    void reload();
    return () => { seq.n++; };
  }, [reload]);
  return { data, error, reload, set: setData };
};
