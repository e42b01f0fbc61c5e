/**
 * The console's two languages. Each part of the console keeps its own words beside it
 * (`defineMessages`), English and Simplified Chinese with the same keys (the type checker refuses a
 * missing translation); `useT` picks the language the person chose, or their browser's.
 */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

export const LANGS = { en: 'English', 'zh-CN': '简体中文' } as const;
export type Lang = keyof typeof LANGS;

const STORAGE_KEY = 'model-gateway.lang';

export function initialLang(): Lang {
  const saved = localStorage.getItem(STORAGE_KEY);
  if (saved === 'en' || saved === 'zh-CN') return saved;
  return navigator.languages.some((l) => l.toLowerCase().startsWith('zh')) ? 'zh-CN' : 'en';
}

export function saveLang(lang: Lang): void {
  localStorage.setItem(STORAGE_KEY, lang);
  document.documentElement.lang = lang;
}

export interface LangState {
  readonly lang: Lang;
  readonly setLang: (lang: Lang) => void;
}

export const LangContext = createContext<LangState>({ lang: 'en', setLang: () => undefined });

export const useLang = (): LangState => useContext(LangContext);

type Words = Record<string, string>;
export interface MessageBook<T extends Words> {
  readonly en: T;
  readonly 'zh-CN': { readonly [K in keyof T]: string };
}

/** One part's words in both languages: `{name}` in a message is filled from `vars`. */
export function defineMessages<const T extends Words>(book: MessageBook<T>): MessageBook<T> {
  return book;
}

export type Translator<T extends Words> = (key: keyof T & string, vars?: Readonly<Record<string, string | number>>) => string;

export function translate<T extends Words>(book: MessageBook<T>, lang: Lang): Translator<T> {
  return (key, vars) => {
    const text = book[lang][key] ?? book.en[key];
    return vars ? text.replace(/\{(\w+)\}/g, (all, name: string) => (name in vars ? String(vars[name]) : all)) : text;
  };
}

/** The words of `book` in the current language. */
export function useT<T extends Words>(book: MessageBook<T>): Translator<T> {
  return translate(book, useLang().lang);
}
