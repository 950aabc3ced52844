import { useEffect, useState } from 'preact/hooks';
import { api } from '../../api.js';

// Which runs have a preview answering now (GET /api/previews), for the "Open preview" link on their
// board cards. Read when the board's rows change and every 15 s (a preview's idle stop or its start
// from elsewhere writes no run event the board follows).

const EVERY_MS = 15_000;

export const useRunningPreviews = (rowsVersion: unknown): ReadonlyMap<string, string> => {
  const [up, setUp] = useState<ReadonlyMap<string, string>>(new Map());
  const read = () => api<{ previews: { runId: string; path: string }[] }>('previews')
    .then((r) => setUp(new Map(r.previews.map((p) => [p.runId, p.path]))), () => undefined);
  useEffect(() => { void read(); }, [rowsVersion]);
  useEffect(() => {
    const t = setInterval(() => void read(), EVERY_MS);
    return () => clearInterval(t);
  }, []);
  return up;
};
