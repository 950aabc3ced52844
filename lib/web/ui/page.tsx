import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import type { ApiError } from '../api.js';
import { pageTitle } from '../needs-you/page-title.js';

// The pieces every page uses: its heading (which also names the tab), a refusal shown as text, and
// a loading note that a screen reader hears.

export const usePageTitle = (title: string): void => {
  // the shell adds the needs-you count in front (lib/web/needs-you)
  useEffect(() => { pageTitle.value = title ? `${title} · svc` : 'svc'; }, [title]);
};

export const PageHeading = ({ title, children }: { readonly title: string; readonly children?: ComponentChildren }) => {
  usePageTitle(title);
  return (
    <div class="page-head">
      <h1 id="page-title">{title}</h1>
      {children}
    </div>
  );
};

export const ErrorNote = ({ error }: { readonly error: ApiError | Error | string | null | undefined }) =>
  error ? <p class="error" role="alert">{typeof error === 'string' ? error : error.message}</p> : null;

export const Loading = ({ what }: { readonly what: string }) => <p class="muted" role="status">Loading {what}…</p>;
