import { useState } from 'preact/hooks';
import type { ApiError } from '../api.js';

// One change a form sends: busy while it is on its way, then what was done or the refusal.
export const useSave = (after?: () => void) => {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [done, setDone] = useState('');
  const run = async (call: () => Promise<unknown>, doneText: string): Promise<boolean> => {
    setBusy(true);
    setError(null);
    setDone('');
    try {
      await call();
      setDone(doneText);
      after?.();
      return true;
    } catch (err) {
      setError(err as ApiError);
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, done, run };
};
