import { useState } from 'preact/hooks';
import type { ApiError } from '../api.js';
import { useFocusBack } from '../ui/focus-back.js';

// One change a form sends: busy while it is on its way, then what was done or the refusal. Its
// button, disabled meanwhile, gets the keyboard's focus back when it is done (ui/focus-back.ts).
export const useSave = (after?: () => void) => {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [done, setDone] = useState('');
  const focus = useFocusBack(busy);
  /** `doneText` may be made from what the call answered (e.g. the name of what was created) */
  const run = async <T>(call: () => Promise<T>, doneText: string | ((result: T) => string)): Promise<boolean> => {
    focus.hold();
    setBusy(true);
    setError(null);
    setDone('');
    try {
      const result = await call();
      setDone(typeof doneText === 'function' ? doneText(result) : doneText);
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
