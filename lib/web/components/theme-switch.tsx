import { chooseTheme, THEME_CHOICES, themeChoice, type ThemeChoice } from '../theme.js';

// Settings › Appearance: System, Light or Dark, applied at once and remembered in this browser.

const LABEL: Readonly<Record<ThemeChoice, string>> = { system: 'System', light: 'Light', dark: 'Dark' };

export const ThemeSwitch = () => (
  <fieldset class="theme-switch">
    <legend>Theme</legend>
    {THEME_CHOICES.map((c) => (
      <label key={c} class="check">
        <input type="radio" name="theme" value={c} checked={themeChoice.value === c} onChange={() => chooseTheme(c)} />
        {LABEL[c]}
      </label>
    ))}
    <p class="muted about">System follows the light or dark setting of this computer. Kept in this browser only.</p>
  </fieldset>
);
