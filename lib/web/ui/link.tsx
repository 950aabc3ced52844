import type { AnchorHTMLAttributes, ComponentChildren } from 'preact';
import { isPlainClick, navigate } from '../router.js';

// An in-app link: a real <a href> (so it can be opened in a new tab, and reads as a link), which
// on a plain click moves the app instead of reloading the page.

export type LinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & { readonly href: string; readonly children?: ComponentChildren };

export const Link = ({ href, onClick, ...rest }: LinkProps) => (
  <a
    href={href}
    onClick={(e) => {
      if (typeof onClick === 'function') onClick(e);
      if (!isPlainClick(e)) return;
      e.preventDefault();
      navigate(href);
    }}
    {...rest}
  />
);
