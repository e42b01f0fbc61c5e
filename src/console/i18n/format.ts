/**
 * Numbers, money and times as the person's language writes them. Money arrives exact (the API's
 * `usd` string); it is shown from that string, never through a float.
 */
import { useLang, type Lang } from './lang.ts';

export interface MoneyLike {
  readonly micro_usd: number;
  readonly usd: string;
}

/** "$12.5", "$0.000146": the exact decimal, trailing zeros dropped, at least two places for whole cents. */
export function usd(money: MoneyLike): string {
  const [whole = '0', fraction = ''] = money.usd.split('.');
  const digits = fraction.replace(/0+$/, '').padEnd(2, '0');
  return `$${Number(whole).toLocaleString('en-US')}.${digits}`;
}

export interface Formats {
  readonly usd: (money: MoneyLike) => string;
  readonly number: (n: number) => string;
  /** A date-time in the person's language and time zone. */
  readonly time: (iso: string | null) => string;
  readonly date: (iso: string | null) => string;
  readonly ms: (ms: number | null) => string;
}

export function formats(lang: Lang): Formats {
  const numbers = new Intl.NumberFormat(lang);
  const times = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'medium' });
  const dates = new Intl.DateTimeFormat(lang, { dateStyle: 'medium' });
  return {
    usd,
    number: (n) => numbers.format(n),
    time: (iso) => (iso ? times.format(new Date(iso)) : '—'),
    date: (iso) => (iso ? dates.format(new Date(iso)) : '—'),
    // Seconds to two places, without zeros that say nothing: "1.29 s", "120 s" (a channel's timeout).
    ms: (ms) => (ms === null ? '—' : ms < 1000 ? `${Math.round(ms)} ms` : `${Number((ms / 1000).toFixed(2))} s`),
  };
}

export const useFormat = (): Formats => formats(useLang().lang);
