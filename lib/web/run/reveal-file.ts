// The diff opened from an activity card (`?tab=worktree&file=<path>`): that file's block is
// scrolled into view, marked, and focused (its block is focusable), so a keyboard lands on it.

export const revealFile = (box: HTMLElement): void => {
  const path = new URLSearchParams(location.search).get('file');
  if (!path) return;
  for (const wrapper of box.querySelectorAll<HTMLElement>('.d2h-file-wrapper')) {
    const name = wrapper.querySelector('.d2h-file-name')?.textContent?.trim();
    if (name !== path) continue;
    wrapper.classList.add('revealed');
    wrapper.scrollIntoView({ block: 'start' });
    wrapper.querySelector<HTMLElement>('.d2h-file-diff')?.focus({ preventScroll: true });
    return;
  }
};
