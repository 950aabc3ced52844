import { useEffect, useState } from 'preact/hooks';

// The files of a run's diff a person marked "Viewed", kept per run in this browser
// (localStorage `svc.viewed.<runId>`, a list of paths), as code hosts keep them per pull request.

const keyOf = (runId: string): string => `svc.viewed.${runId}`;

const load = (runId: string): ReadonlySet<string> => {
  try {
    const v = JSON.parse(localStorage.getItem(keyOf(runId)) ?? '[]') as unknown;
    return new Set(Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  } catch {
    return new Set(); // a mark this browser cannot read is not worth an error
  }
};

export const useViewed = (runId: string): [ReadonlySet<string>, (path: string, on: boolean) => void] => {
  const [viewed, setViewed] = useState<ReadonlySet<string>>(() => load(runId));
  useEffect(() => setViewed(load(runId)), [runId]);
  const mark = (path: string, on: boolean): void => {
    const next = new Set(load(runId));
    if (on) next.add(path); else next.delete(path);
    if (next.size) localStorage.setItem(keyOf(runId), JSON.stringify([...next])); else localStorage.removeItem(keyOf(runId));
    setViewed(next);
  };
  return [viewed, mark];
};
