import { ErrorNote } from '../ui/page.js';

// What the Settings forms share: the harness names, reading a form's field, and one save's outcome.

export const HARNESSES = ['claude', 'codex', 'opencode'] as const;

export const Outcome = ({ error, done }: { readonly error: Error | null; readonly done: string }) => (
  <>
    <ErrorNote error={error} />
    <p class="note" role="status">{done}</p>
  </>
);

export const num = (form: EventTarget | null, name: string): number => Number(new FormData(form as HTMLFormElement).get(name));
export const str = (form: EventTarget | null, name: string): string => String(new FormData(form as HTMLFormElement).get(name) ?? '').trim();
