import { signal } from '@preact/signals';

// The colour theme: System (follow prefers-color-scheme), Light or Dark, chosen in Settings and
// remembered in this browser (localStorage). The choice is `data-theme` on <html>; app.css picks
// every colour with light-dark(), so nothing re-renders. index.html's first script applies a stored
// choice before the first paint, so a light page never flashes dark.

export type ThemeChoice = 'system' | 'light' | 'dark';
export const THEME_CHOICES: readonly ThemeChoice[] = ['system', 'light', 'dark'];
const KEY = 'svc.theme';

const stored = (): ThemeChoice => {
  try {
    const v = localStorage.getItem(KEY);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system'; // storage refused (a locked-down profile): follow the system
  }
};

export const themeChoice = signal<ThemeChoice>(stored());

const apply = (c: ThemeChoice): void => {
  if (c === 'system') delete document.documentElement.dataset['theme'];
  else document.documentElement.dataset['theme'] = c;
};

export const chooseTheme = (c: ThemeChoice): void => {
  try {
    if (c === 'system') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, c);
  } catch { /* not remembered, still applied */ }
  themeChoice.value = c;
  apply(c);
};

/** the theme in effect now, for the few things drawn with fixed colours (the diff's scheme) */
export const shownTheme = (): 'light' | 'dark' =>
  themeChoice.value !== 'system' ? themeChoice.value : matchMedia('(prefers-color-scheme: light)').matches ? 'light' : 'dark';

apply(themeChoice.value);
