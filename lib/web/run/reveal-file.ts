// The diff opened from an activity card (`?tab=worktree&file=<path>`): that file's block is
// scrolled into view, marked, and focused (its block is focusable), so a keyboard lands on it.
// What is drawn around it goes on moving for a moment (the threads placed in the diff, the file
// tree, the tab's other reads), which pushed the file back below the fold (issue 32): until the
// person scrolls, types or clicks, or for two seconds, the file is put back at the top whenever
// the page's size changes.

const SETTLE_MS = 2000;

const hold = (wrapper: HTMLElement): void => {
  const put = () => wrapper.scrollIntoView({ block: 'start' });
  const sizes = new ResizeObserver(() => { if (wrapper.isConnected) put(); });
  const stop = () => {
    sizes.disconnect();
    for (const e of ['wheel', 'touchstart', 'keydown', 'mousedown'] as const) removeEventListener(e, stop, true);
  };
  for (const e of ['wheel', 'touchstart', 'keydown', 'mousedown'] as const) addEventListener(e, stop, { capture: true, passive: true });
  sizes.observe(document.body);
  setTimeout(stop, SETTLE_MS);
};

export const revealFile = (box: HTMLElement): void => {
  const path = new URLSearchParams(location.search).get('file');
  if (!path) return;
  for (const wrapper of box.querySelectorAll<HTMLElement>('.d2h-file-wrapper')) {
    const name = wrapper.querySelector('.d2h-file-name')?.textContent?.trim();
    if (name !== path) continue;
    wrapper.classList.add('revealed');
    wrapper.scrollIntoView({ block: 'start' });
    wrapper.querySelector<HTMLElement>('.d2h-file-diff')?.focus({ preventScroll: true });
    hold(wrapper);
    return;
  }
};
