/**
 * The rows of the request logs as a table: time, (account,) key, model, the status with the error
 * code and its reason in words, tokens (estimated ones marked), cost, latency, time to first byte,
 * stream. A row opens its details (click or Enter). Rows live mode added are marked new.
 */
import type { ComponentChildren } from 'preact';
import type { Answer } from '../api.ts';
import { reasonOf } from '../i18n/errorWords.ts';
import { useFormat } from '../i18n/format.ts';
import { useLang, useT } from '../i18n/lang.ts';
import { Badge } from '../ui/Page.tsx';
import { LOG_WORDS } from './logWords.ts';

export type AccountLogRow = Answer<'listAccountLogs'>['data'][number];
/** A row as the logs pages show it; the admins' rows also name the account. */
export type LogRow = AccountLogRow & { readonly account?: string | null };

export const failed = (row: { readonly status: number }): boolean => row.status >= 400;

export function statusTone(row: { readonly status: number; readonly error_code: string | null }): 'ok' | 'warn' | 'bad' {
  return failed(row) ? 'bad' : row.error_code ? 'warn' : 'ok';
}

export function StatusCell({ row }: { readonly row: LogRow }) {
  const { lang } = useLang();
  return (
    <div class="log-status">
      <span class="log-status-line">
        <Badge tone={statusTone(row)}>{row.status}</Badge>
        {row.error_code && <code class="log-code">{row.error_code}</code>}
      </span>
      {(row.error_code || failed(row)) && <span class="log-reason">{reasonOf(row.error_code, row.status, lang)}</span>}
    </div>
  );
}

export function Tokens({ row }: { readonly row: LogRow }) {
  const t = useT(LOG_WORDS);
  const f = useFormat();
  return (
    <span>
      {f.number(row.prompt_tokens)} / {f.number(row.completion_tokens)}
      {row.usage_estimated && <> <abbr class="estimated" title={t('estimatedTitle')}>{t('estimated')}</abbr></>}
    </span>
  );
}

/** A row's time as short as it can be: the time alone today, the date and time before. */
function useShortTime(): (iso: string) => string {
  const { lang } = useLang();
  const today = new Date().toDateString();
  const time = new Intl.DateTimeFormat(lang, { timeStyle: 'medium' });
  const dated = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' });
  return (iso) => {
    const d = new Date(iso);
    return d.toDateString() === today ? time.format(d) : dated.format(d);
  };
}

interface LogColumn {
  readonly name: string;
  readonly header: string;
  readonly cell: (row: LogRow) => ComponentChildren;
  readonly kind?: 'num' | 'wrap' | 'nowrap';
  /** The cell a phone shows as the card's head. */
  readonly head?: boolean;
}

/**
 * Its own table rather than ui/DataTable: each cell carries its column's name (data-label), so that on
 * a phone a row becomes a card of labelled lines instead of a table scrolled sideways.
 */
export function LogTable({ rows, fresh, showAccount, onOpen }: {
  readonly rows: readonly LogRow[];
  readonly fresh: ReadonlySet<number>;
  readonly showAccount: boolean;
  readonly onOpen: (row: LogRow) => void;
}) {
  const t = useT(LOG_WORDS);
  const f = useFormat();
  const short = useShortTime();
  const columns: LogColumn[] = [
    {
      name: 'time', header: t('time'), kind: 'nowrap', head: true,
      cell: (row) => (
        <span class="log-time" data-request-id={row.request_id} data-log-id={row.id} data-fresh={fresh.has(row.id) ? '1' : undefined}>
          <time dateTime={row.time} title={f.time(row.time)}>{short(row.time)}</time>
          {fresh.has(row.id) && <span class="badge ok new-mark">{t('newRow')}</span>}
        </span>
      ),
    },
    ...(showAccount ? [{ name: 'account', header: t('account'), kind: 'wrap' as const, cell: (row: LogRow) => row.account ?? t('none') }] : []),
    { name: 'key', header: t('key'), kind: 'wrap', cell: (row) => row.key_name ?? (row.key_id === null ? t('none') : t('deletedKey')) },
    { name: 'model', header: t('model'), kind: 'wrap', cell: (row) => (row.model ? <code class="log-model">{row.model}</code> : t('none')) },
    { name: 'status', header: t('status'), kind: 'wrap', cell: (row) => <StatusCell row={row} /> },
    { name: 'tokens', header: t('tokens'), kind: 'num', cell: (row) => <Tokens row={row} /> },
    { name: 'cost', header: t('cost'), kind: 'num', cell: (row) => f.usd(row.cost) },
    { name: 'latency', header: t('latency'), kind: 'num', cell: (row) => f.ms(row.latency_ms) },
    { name: 'firstByte', header: t('firstByte'), kind: 'num', cell: (row) => f.ms(row.first_byte_ms) },
    { name: 'stream', header: t('stream'), cell: (row) => (row.stream ? t('yes') : t('no')) },
  ];
  return (
    <div class="table-frame log-frame" role="region" aria-label={t('tableLabel')} tabIndex={-1}>
      <table class="clickable log-table" data-testid="logs-table">
        <thead>
          <tr>{columns.map((c) => <th key={c.name} class={[`col-${c.name}`, c.kind].filter(Boolean).join(' ')} scope="col">{c.header}</th>)}</tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} tabIndex={0} class={failed(row) ? 'failed' : undefined} onClick={() => onOpen(row)}
              onKeyDown={(e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); onOpen(row); } }}>
              {columns.map((c) => <td key={c.name} class={[`col-${c.name}`, c.kind, c.head ? 'card-head-cell' : ''].filter(Boolean).join(' ')} data-label={c.header}>{c.cell(row)}</td>)}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
