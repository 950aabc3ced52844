import type { ReviewFile } from './review.js';

// The diff's files beside it (above it on a phone), by folder as the paths name them: each with
// its added and removed line counts, how many comments it has (sent and drafted), and whether the
// person marked it viewed. A click takes the diff to that file.

// a speech bubble drawn inline (an emoji needs a font the machine may lack)
const Bubble = () => (
  <svg class="bubble" viewBox="0 0 16 16" width="12" height="12" aria-hidden="true"><path fill="currentColor" d="M2 2h12a1 1 0 0 1 1 1v8a1 1 0 0 1-1 1H7l-3 3v-3H2a1 1 0 0 1-1-1V3a1 1 0 0 1 1-1z" /></svg>
);

export interface TreeFile extends ReviewFile { readonly comments: number; readonly viewed: boolean }

const dirOf = (path: string): string => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
const nameOf = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

export const FileTree = ({ files, onOpen }: { readonly files: readonly TreeFile[]; readonly onOpen: (path: string) => void }) => {
  const dirs = [...new Set(files.map((f) => dirOf(f.path)))].sort();
  return (
    <nav class="file-tree" aria-label="Changed files">
      <p class="file-tree-title">{files.length} file{files.length === 1 ? '' : 's'} changed</p>
      {dirs.map((d) => (
        <div key={d} class="file-tree-dir">
          {d ? <p class="dir-name" title={d}>{d}/</p> : null}
          <ul class="plain">
            {files.filter((f) => dirOf(f.path) === d).map((f) => (
              <li key={f.path} class={f.viewed ? 'viewed' : ''} data-path={f.path}>
                <button type="button" class="linkish file-link" title={f.path} onClick={() => onOpen(f.path)}>
                  <span class="file-name">{nameOf(f.path)}</span>
                </button>
                <span class="file-counts">
                  {f.added !== undefined ? <span class="added">+{f.added}<span class="sr-only"> added</span></span> : null}
                  {f.deleted !== undefined ? <span class="deleted">−{f.deleted}<span class="sr-only"> removed</span></span> : null}
                  {f.comments ? <span class="comments" data-comments={f.comments}><Bubble />{f.comments}<span class="sr-only"> comment{f.comments === 1 ? '' : 's'}</span></span> : null}
                  {f.viewed ? <span class="viewed-mark"><span aria-hidden="true">✓</span><span class="sr-only">viewed</span></span> : null}
                </span>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
};

/** Scrolls the diff to a file's block and puts the keyboard on it. */
export const openFile = (root: HTMLElement | null, path: string): void => {
  for (const wrapper of root?.querySelectorAll<HTMLElement>('.d2h-file-wrapper') ?? []) {
    if (wrapper.dataset['path'] !== path) continue;
    wrapper.scrollIntoView({ block: 'start' });
    wrapper.querySelector<HTMLElement>('.d2h-file-diff')?.focus({ preventScroll: true });
    return;
  }
};
