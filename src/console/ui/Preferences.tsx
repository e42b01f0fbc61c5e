/** The language and theme pickers: remembered in this browser, applied at once. */
import { LANGS, useLang, useT, type Lang } from '../i18n/lang.ts';
import { LAYOUT_WORDS } from '../layoutWords.ts';
import { THEMES, useTheme, type Theme } from '../theme.ts';

export function Preferences() {
  const { lang, setLang } = useLang();
  const t = useT(LAYOUT_WORDS);
  const [theme, setTheme] = useTheme();
  return (
    <div class="prefs">
      <label class="sr-only" for="pref-lang">{t('language')}</label>
      <select id="pref-lang" value={lang} onChange={(e) => setLang(e.currentTarget.value as Lang)}>
        {Object.entries(LANGS).map(([value, name]) => <option key={value} value={value}>{name}</option>)}
      </select>
      <label class="sr-only" for="pref-theme">{t('theme')}</label>
      <select id="pref-theme" value={theme} onChange={(e) => setTheme(e.currentTarget.value as Theme)}>
        {THEMES.map((value) => <option key={value} value={value}>{t(value)}</option>)}
      </select>
    </div>
  );
}
