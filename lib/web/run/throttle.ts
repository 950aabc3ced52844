import { useEffect, useRef } from 'preact/hooks';

// Reads that follow the run (the worktree, the pull request) are started again when the run moves,
// but no more often than once per `minMs`: a talkative agent must not turn into a stream of git
// reads or code-host calls. The last change always gets its read, at most `minMs` later.
export const useThrottledLoad = (load: (live: () => boolean) => void, keys: readonly unknown[], minMs: number): void => {
  const last = useRef(0);
  useEffect(() => {
    let live = true;
    const wait = Math.max(0, minMs - (Date.now() - last.current));
    const t = setTimeout(() => { last.current = Date.now(); load(() => live); }, wait);
    return () => { live = false; clearTimeout(t); };
  }, keys);
};
