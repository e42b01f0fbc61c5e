/**
 * What the Redemption codes and Invitations pages share: single-use codes made in batches. The form's
 * common fields (how many, a batch name, an expiry) with their checks, and the list: filtered by batch and
 * status, paged, each unused or expired code (or every unused code of a batch) disabled after a
 * confirmation. Each page brings its own words (the keys below), route calls, columns and ids.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ADMIN_WORDS, NAME_PATTERN } from './adminWords.ts';
import { ChangeStatus, useChange } from './change.tsx';
import { expiryOf, isFutureDay } from '../day.ts';
import { usePaged, useSettled } from './usePaged.ts';
import { COMMON } from '../i18n/common.ts';
import { useFormat } from '../i18n/format.ts';
import { useT } from '../i18n/lang.ts';
import { ErrorAlert } from '../ui/Alert.tsx';
import { Button } from '../ui/Button.tsx';
import { DataTable, type Column } from '../ui/DataTable.tsx';
import { useConfirm } from '../ui/Dialog.tsx';
import { SelectField, TextField } from '../ui/fields.tsx';
import { useSend } from '../ui/send.ts';
import { Badge, Card } from '../ui/Page.tsx';

import { CODE_STATUSES, type CodeStatusName as CodeStatus } from '../../contract/values.ts';
const TONE: Readonly<Record<CodeStatus, 'ok' | 'muted' | 'warn' | 'bad'>> = { unused: 'ok', used: 'muted', expired: 'warn', disabled: 'bad' };
const BATCH = NAME_PATTERN;

type FormKey = 'countBad' | 'expiresBad' | 'count' | 'countHint' | 'batch' | 'batchHint' | 'expires' | 'expiresHint' | 'generate';
type ListKey =
  | CodeStatus | 'disable' | 'disableAsk' | 'disableBody' | 'disableBatchAsk' | 'disableBatchBody' | 'disabledOne' | 'disabledManyOne' | 'disabledMany'
  | 'disableBatch' | 'filters' | 'filterBatch' | 'filterBatchPlaceholder' | 'filterStatus' | 'anyStatus' | 'empty' | 'noneYet' | 'title'
  | 'colId' | 'colBatch' | 'colStatus' | 'colCreated' | 'colExpires';
type Words<K extends string> = (key: K, vars?: Readonly<Record<string, string | number>>) => string;

/** The batch of a new set of codes: how many, its name and expiry, checked; `body()` is the request's part. */
export function useBatchFields(t: Words<FormKey>, prefix: string, placeholder: string) {
  const a = useT(ADMIN_WORDS);
  const [count, setCount] = useState('1');
  const [batch, setBatch] = useState('');
  const [expires, setExpires] = useState('');
  const problems = {
    count: /^\d+$/.test(count.trim()) && Number(count) >= 1 && Number(count) <= 1000 ? null : t('countBad'),
    batch: batch.trim() && !BATCH.test(batch.trim()) ? a('nameRule') : null,
    expires: expires && !isFutureDay(expires) ? t('expiresBad') : null,
  };
  return {
    ok: !problems.count && !problems.batch && !problems.expires,
    body: () => ({ count: Number(count), ...(batch.trim() ? { batch: batch.trim() } : {}), ...expiryOf(expires) }),
    reset: () => { setCount('1'); setBatch(''); setExpires(''); },
    fields: (tried: boolean) => (
      <>
        <TextField id={`${prefix}-count`} label={t('count')} hint={t('countHint')} type="number" inputMode="numeric" min={1} max={1000} value={count} onValue={setCount}
          required error={tried ? problems.count : null} />
        <TextField id={`${prefix}-batch`} label={t('batch')} hint={t('batchHint')} value={batch} onValue={setBatch} maxLength={64} placeholder={placeholder}
          spellcheck={false} autoCapitalize="off" error={tried ? problems.batch : null} />
        <TextField id={`${prefix}-expires`} label={t('expires')} hint={t('expiresHint')} type="date" value={expires} onValue={setExpires} error={tried ? problems.expires : null} />
      </>
    ),
  };
}

/** The form around the fields: `send` makes the batch (its other fields checked by `ok`), then everything is cleared. */
export function GenerateCard({ t, prefix, ok, send, reset, children }: {
  readonly t: Words<FormKey>; readonly prefix: string; readonly ok: boolean; readonly send: () => Promise<void>; readonly reset: () => void;
  readonly children: (tried: boolean) => ComponentChildren;
}) {
  const [tried, setTried] = useState(false);
  const request = useSend();
  const { busy, error } = request;
  const submit = (e: Event): void => {
    e.preventDefault();
    setTried(true);
    if (!ok) return;
    void request.send(async () => {
      await send();
      reset();
      setTried(false);
    });
  };
  return (
    <Card title={t('generate')}>
      <form id={`${prefix}-form`} onSubmit={submit} noValidate autoComplete="off">
        <ErrorAlert error={error} />
        <div class="form-grid">{children(tried)}</div>
        <Button type="submit" variant="primary" id={`${prefix}-submit`} busy={busy}>{t('generate')}</Button>
      </form>
    </Card>
  );
}

interface CodeRow {
  readonly id: number;
  readonly batch: string | null;
  readonly status: CodeStatus;
  readonly created_at: string;
  readonly expires_at: string | null;
}

type Disabled = { readonly id: number } | { readonly disabled: number; readonly batch: string | null };

/** The columns every list has, for a page to put its own between. */
export interface BaseColumns<Row> {
  readonly id: Column<Row>;
  readonly batch: Column<Row>;
  readonly status: Column<Row>;
  readonly created: (by: (row: Row) => ComponentChildren) => Column<Row>;
  readonly expires: Column<Row>;
  readonly actions: Column<Row>;
}

export interface BatchListProps<Row extends CodeRow> {
  readonly t: Words<ListKey>;
  /** The ids' prefix (codes-batch, codes-table...) and the ChangeStatus's id. */
  readonly prefix: string;
  readonly rowAttr: string;
  readonly list: (query: { batch: string; status: CodeStatus | undefined; before: number | undefined }, signal: AbortSignal) => Promise<{ data: readonly Row[]; next_before: number | null }>;
  readonly disable: (target: { id: number } | { batch: string }) => Promise<Disabled>;
  readonly columns: (base: BaseColumns<Row>) => Column<Row>[];
  /** A batch just made: shown (its name in the filter, any status), the list read again. */
  readonly made: { readonly batch: string | null } | null;
}

export function BatchList<Row extends CodeRow>({ t, prefix, rowAttr, list, disable: disableOf, columns, made }: BatchListProps<Row>) {
  const a = useT(ADMIN_WORDS);
  const common = useT(COMMON);
  const f = useFormat();
  const [batch, setBatch] = useState('');
  const [status, setStatus] = useState<CodeStatus | ''>('');
  const settledBatch = useSettled(batch.trim());
  const rows = usePaged<Row>(JSON.stringify([settledBatch, status]), async (before, signal) => {
    const page = await list({ batch: settledBatch, status: status || undefined, before }, signal);
    return { rows: page.data, next: page.next_before };
  });
  const change = useChange();
  const [confirm, confirmDialog] = useConfirm();
  useEffect(() => {
    if (!made) return;
    setBatch(made.batch ?? '');
    setStatus('');
    void rows.reload(true);
  }, [made]);

  const disable = async (target: { id: number } | { batch: string }): Promise<void> => {
    const ok = 'id' in target
      ? await confirm(t('disableAsk', { id: target.id }), t('disable'), { body: t('disableBody'), danger: true })
      : await confirm(t('disableBatchAsk', { batch: target.batch }), t('disable'), { body: t('disableBatchBody'), danger: true });
    if (!ok) return;
    await change.run('id' in target ? `disable:${target.id}` : 'disable-batch', async () => {
      const answer = await disableOf(target);
      await rows.reload(true);
      if ('id' in answer) return t('disabledOne', { id: answer.id });
      return t(answer.disabled === 1 ? 'disabledManyOne' : 'disabledMany', { count: answer.disabled, batch: answer.batch ?? '' });
    });
  };

  const base: BaseColumns<Row> = {
    id: { header: t('colId'), kind: 'num', cell: (c) => c.id },
    batch: { header: t('colBatch'), kind: 'wrap', cell: (c) => c.batch ?? '—' },
    status: { header: t('colStatus'), cell: (c) => <Badge tone={TONE[c.status]}>{t(c.status)}</Badge> },
    created: (by) => ({ header: t('colCreated'), cell: (c) => <>{f.time(c.created_at)}{by(c)}</> }),
    expires: { header: t('colExpires'), kind: 'nowrap', cell: (c) => (c.expires_at ? f.date(c.expires_at) : a('never')) },
    actions: {
      header: common('actions'), cell: (c) => (c.status === 'unused' || c.status === 'expired'
        ? <Button small variant="danger" busy={change.busy === `disable:${c.id}`} aria-label={`${t('disable')} ${c.id}`} onClick={() => void disable({ id: c.id })}>{t('disable')}</Button>
        : null),
    },
  };

  return (
    <>
      <ChangeStatus change={change} id={prefix} />
      <Card title={t('filters')}>
        <div class="filters">
          <TextField id={`${prefix}-batch`} label={t('filterBatch')} value={batch} onValue={setBatch} placeholder={t('filterBatchPlaceholder')} maxLength={64}
            spellcheck={false} autoCapitalize="off" autoComplete="off" />
          <SelectField id={`${prefix}-status`} label={t('filterStatus')} value={status} onValue={(v) => setStatus(v as CodeStatus | '')}
            options={[['', t('anyStatus')], ...CODE_STATUSES.map((s) => [s, t(s)] as const)]} />
          <Button id={`${prefix}-refresh`} onClick={() => void rows.reload(true)}>{common('refresh')}</Button>
          {settledBatch && BATCH.test(settledBatch) && (
            <Button variant="danger" id={`${prefix}-disable-batch`} busy={change.busy === 'disable-batch'} onClick={() => void disable({ batch: settledBatch })}>{t('disableBatch')}</Button>
          )}
        </div>
        <ErrorAlert error={rows.error} onRetry={() => void rows.reload()} />
        {rows.loading && <p class="loading" role="status">{common('loading')}</p>}
        {rows.rows && (
          <DataTable stackOnPhone testId={`${prefix}-table`} label={t('title')} rows={rows.rows} columns={columns(base)} rowKey={(c) => c.id}
            rowAttrs={(c) => ({ [rowAttr]: String(c.id) })} empty={settledBatch || status ? t('empty') : t('noneYet')} />
        )}
        {rows.hasMore && <div class="pager"><Button id={`${prefix}-older`} busy={rows.loadingMore} onClick={() => void rows.more()}>{a('older')}</Button></div>}
      </Card>
      {confirmDialog}
    </>
  );
}
