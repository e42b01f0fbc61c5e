/**
 * Light, dark, or the system's choice (the default). The style sheet does the rest: its colours are
 * `light-dark()` pairs, chosen by the `color-scheme` this sets on the root element.
 */
import { useEffect, useState } from 'preact/hooks';

export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

const STORAGE_KEY = 'model-gateway.theme';

/** Fired on window when the theme changes, so every picker of it shows the same choice. */
export const THEME_EVENT = 'model-gateway-theme';

export function savedTheme(): Theme {
  const saved = localStorage.getItem(STORAGE_KEY);
  return (THEMES as readonly string[]).includes(saved ?? '') ? (saved as Theme) : 'system';
}

export function applyTheme(theme: Theme): void {
  if (theme === 'system') delete document.documentElement.dataset['theme'];
  else document.documentElement.dataset['theme'] = theme;
  localStorage.setItem(STORAGE_KEY, theme);
  dispatchEvent(new CustomEvent(THEME_EVENT, { detail: theme }));
}

/** The theme and a way to change it, kept the same in every picker on the page. */
export function useTheme(): [Theme, (theme: Theme) => void] {
  const [theme, setTheme] = useState<Theme>(savedTheme);
  useEffect(() => {
    const update = (): void => setTheme(savedTheme());
    addEventListener(THEME_EVENT, update);
    return () => removeEventListener(THEME_EVENT, update);
  }, []);
  return [theme, applyTheme];
}
