import { useEffect } from 'preact/hooks';
import { guardLeaving } from '../router.js';

// While a form holds unsaved edits, leaving asks first: an in-app move (a link, Back) with the
// browser's own confirm, a reload or a closed tab with beforeunload. Saving clears `dirty` first,
// so the move a save makes is not asked about.

export const LEAVE_QUESTION = 'Leave this page? Your unsaved edits will be lost.';

export const askToDiscard = (): boolean => confirm(LEAVE_QUESTION);

const onBeforeUnload = (e: BeforeUnloadEvent): void => {
  e.preventDefault();
  e.returnValue = '';
};

export const useUnsavedGuard = (dirty: boolean): void => {
  useEffect(() => {
    if (!dirty) return;
    guardLeaving(askToDiscard);
    addEventListener('beforeunload', onBeforeUnload);
    return () => {
      guardLeaving(null);
      removeEventListener('beforeunload', onBeforeUnload);
    };
  }, [dirty]);
};
