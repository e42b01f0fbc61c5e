/**
 * Light, dark, or the system's choice (the default). The style sheet does the rest: its colours are
 * `light-dark()` pairs, chosen by the `color-scheme` this sets on the root element.
 */
export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

const STORAGE_KEY = 'model-gateway.theme';

export function savedTheme(): Theme {
  const saved = localStorage.getItem(STORAGE_KEY);
  return (THEMES as readonly string[]).includes(saved ?? '') ? (saved as Theme) : 'system';
}

export function applyTheme(theme: Theme): void {
  if (theme === 'system') delete document.documentElement.dataset['theme'];
  else document.documentElement.dataset['theme'] = theme;
  localStorage.setItem(STORAGE_KEY, theme);
}
