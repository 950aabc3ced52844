import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

// The run page's head, kept in view on a long page (activity.css): the whole head on a wide screen,
// its heading alone on a phone. Its height varies (the facts wrap to two or three lines on a
// phone), so it is measured and given to the page as --run-head-h: a file or thread scrolled to
// (Show file in the diff, the tree, ]/[ and n/p) stops below it instead of under it.

const stickyHeight = (head: HTMLElement): number =>
  Math.max(head.getBoundingClientRect().height, head.querySelector('.page-head')?.getBoundingClientRect().height ?? 0);

export const RunHead = ({ children }: { readonly children: ComponentChildren }) => {
  const head = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = head.current;
    const page = el?.closest<HTMLElement>('.run-page');
    if (!el || !page) return;
    const measure = () => page.style.setProperty('--run-head-h', `${Math.ceil(stickyHeight(el))}px`);
    const sizes = new ResizeObserver(measure);
    sizes.observe(el);
    const heading = el.querySelector('.page-head');
    if (heading) sizes.observe(heading);
    measure();
    return () => sizes.disconnect();
  }, []);
  return <div class="run-head" ref={head}>{children}</div>;
};
