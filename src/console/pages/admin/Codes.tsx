/**
 * #/admin/codes: a batch of single-use codes generated (value, how many, a batch name, an expiry) and
 * shown this once with a Copy all button, gone from the page when the admin says they are copied; the
 * list (never a code: its value, status, who redeemed it and when), by batch and status, older pages;
 * a code or every unused code of a batch disabled after a confirmation.
 */
import { useState } from 'preact/hooks';
import { call, type Answer } from '../../api.ts';
import { ADMIN_WORDS, NAME_PATTERN } from '../../admin/adminWords.ts';
import { ChangeStatus, useChange } from '../../admin/change.tsx';
import { endOfDay, isFutureDay } from '../../admin/day.ts';
import { CODES_WORDS } from '../../admin/codesWords.ts';
import { ShownOnce } from '../../admin/ShownOnce.tsx';
import { cleanUsd, usdProblem } from '../../admin/usd.ts';
import { usePaged, useSettled } from '../../admin/usePaged.ts';
import { COMMON } from '../../i18n/common.ts';
import { useFormat, usd } from '../../i18n/format.ts';
import { useT } from '../../i18n/lang.ts';
import { ErrorAlert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { DataTable, type Column } from '../../ui/DataTable.tsx';
import { useConfirm } from '../../ui/Dialog.tsx';
import { SelectField, TextField } from '../../ui/fields.tsx';
import { Badge, Card, PageHeader } from '../../ui/Page.tsx';
import '../../styles/admin.css';

type Code = Answer<'listCodes'>['data'][number];
type Status = Code['status'];
const STATUSES: readonly Status[] = ['unused', 'used', 'expired', 'disabled'];
const TONE: Readonly<Record<Status, 'ok' | 'muted' | 'warn' | 'bad'>> = { unused: 'ok', used: 'muted', expired: 'warn', disabled: 'bad' };
const BATCH = new RegExp(`^${NAME_PATTERN}$`);

function GenerateForm({ onMade }: { readonly onMade: (answer: Answer<'createCodes'>) => void }) {
  const t = useT(CODES_WORDS);
  const a = useT(ADMIN_WORDS);
  const [value, setValue] = useState('');
  const [count, setCount] = useState('1');
  const [batch, setBatch] = useState('');
  const [expires, setExpires] = useState('');
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const problems = {
    value: usdProblem(value),
    count: /^\d+$/.test(count.trim()) && Number(count) >= 1 && Number(count) <= 1000 ? null : t('countBad'),
    batch: batch.trim() && !BATCH.test(batch.trim()) ? a('nameRule') : null,
    expires: expires && !isFutureDay(expires) ? t('expiresBad') : null,
  };
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    setTried(true);
    if (problems.value || problems.count || problems.batch || problems.expires) return;
    setBusy(true);
    setError(null);
    try {
      onMade(await call('createCodes', {
        body: { value_usd: cleanUsd(value), count: Number(count), ...(batch.trim() ? { batch: batch.trim() } : {}), ...(expires ? { expires_at: endOfDay(expires) } : {}) },
      }));
      setValue(''); setCount('1'); setBatch(''); setExpires(''); setTried(false);
    } catch (failure) {
      setError(failure as Error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title={t('generate')}>
      <form id="generate-form" onSubmit={submit} noValidate autoComplete="off">
        <ErrorAlert error={error} />
        <div class="form-grid">
          <TextField id="generate-value" label={t('value')} hint={a('usdHint')} value={value} onValue={setValue} inputMode="decimal" placeholder="5.00" maxLength={32}
            required spellcheck={false} error={tried && problems.value ? a(problems.value) : null} />
          <TextField id="generate-count" label={t('count')} hint={t('countHint')} type="number" inputMode="numeric" min={1} max={1000} value={count} onValue={setCount}
            required error={tried ? problems.count : null} />
          <TextField id="generate-batch" label={t('batch')} hint={t('batchHint')} value={batch} onValue={setBatch} maxLength={64} placeholder="spring-promo"
            spellcheck={false} autoCapitalize="off" error={tried ? problems.batch : null} />
          <TextField id="generate-expires" label={t('expires')} hint={t('expiresHint')} type="date" value={expires} onValue={setExpires} error={tried ? problems.expires : null} />
        </div>
        <Button type="submit" variant="primary" id="generate-submit" busy={busy}>{t('generate')}</Button>
      </form>
    </Card>
  );
}

export function AdminCodesPage() {
  const t = useT(CODES_WORDS);
  const a = useT(ADMIN_WORDS);
  const common = useT(COMMON);
  const f = useFormat();
  const [made, setMade] = useState<Answer<'createCodes'> | null>(null);
  const [batch, setBatch] = useState('');
  const [status, setStatus] = useState<Status | ''>('');
  const settledBatch = useSettled(batch.trim());
  const codes = usePaged<Code>(JSON.stringify([settledBatch, status]), async (before, signal) => {
    const page = await call('listCodes', { query: { batch: settledBatch, status: status || undefined, before }, signal });
    return { rows: page.data, next: page.next_before };
  });
  const change = useChange();
  const [confirm, confirmDialog] = useConfirm();

  const disable = async (target: { id: number } | { batch: string }): Promise<void> => {
    const ok = 'id' in target
      ? await confirm(t('disableAsk', { id: target.id }), t('disable'), { body: t('disableBody'), danger: true })
      : await confirm(t('disableBatchAsk', { batch: target.batch }), t('disable'), { body: t('disableBatchBody'), danger: true });
    if (!ok) return;
    await change.run('id' in target ? `disable:${target.id}` : 'disable-batch', async () => {
      const answer = await call('disableCodes', { body: target });
      await codes.reload(true);
      if ('id' in answer) return t('disabledOne', { id: answer.id });
      return t(answer.disabled === 1 ? 'disabledManyOne' : 'disabledMany', { count: answer.disabled, batch: answer.batch });
    });
  };

  const columns: Column<Code>[] = [
    { header: t('colId'), kind: 'num', cell: (c) => c.id },
    { header: t('colBatch'), kind: 'wrap', cell: (c) => c.batch ?? '—' },
    { header: t('colValue'), kind: 'num', cell: (c) => usd(c.value) },
    { header: t('colStatus'), cell: (c) => <Badge tone={TONE[c.status]}>{t(c.status)}</Badge> },
    { header: t('colBy'), kind: 'wrap', cell: (c) => (c.redeemed_by ? `${c.redeemed_by.account ?? '?'}${c.redeemed_by.user ? ` (${c.redeemed_by.user})` : ''}` : '—') },
    { header: t('colCreated'), cell: (c) => <>{f.time(c.created_at)}{c.created_by && <div class="muted">{t('byAdmin', { name: c.created_by })}</div>}</> },
    { header: t('colRedeemed'), cell: (c) => (c.redeemed_at ? f.time(c.redeemed_at) : '—') },
    { header: t('colExpires'), kind: 'nowrap', cell: (c) => (c.expires_at ? f.date(c.expires_at) : a('never')) },
    {
      header: common('actions'), cell: (c) => (c.status === 'unused' || c.status === 'expired'
        ? <Button small variant="danger" busy={change.busy === `disable:${c.id}`} aria-label={`${t('disable')} ${c.id}`} onClick={() => void disable({ id: c.id })}>{t('disable')}</Button>
        : null),
    },
  ];

  const all = made?.codes.map((c) => c.code).join('\n') ?? '';
  const what = made ? [
    made.codes.length === 1 ? t('newWhatOne', { value: usd(made.value) }) : t('newWhat', { count: made.codes.length, value: usd(made.value) }),
    made.batch ? t('newBatch', { batch: made.batch }) : '',
    made.expires_at ? t('newExpires', { date: f.date(made.expires_at) }) : '',
  ].filter(Boolean).join(', ') : '';

  return (
    <>
      <PageHeader title={t('title')} description={<>{t('intro')} {a('auditNote')}</>} />
      {made && (
        <ShownOnce id="new-codes" plural title={<>{t('newCodes')} <span class="muted" id="new-codes-what">{what}</span></>} onDone={() => setMade(null)}>
          <pre id="new-codes-list" class="codes-list">{all}</pre>
          <p><CopyButton text={all} label={t('copyAll')} ariaLabel={t('copyAllLabel')} /></p>
        </ShownOnce>
      )}
      <GenerateForm onMade={(answer) => { setMade(answer); setBatch(answer.batch ?? ''); setStatus(''); void codes.reload(true); }} />
      <ChangeStatus change={change} id="codes" />
      <Card title={t('filters')}>
        <div class="filters">
          <TextField id="codes-batch" label={t('filterBatch')} value={batch} onValue={setBatch} placeholder={t('filterBatchPlaceholder')} maxLength={64}
            spellcheck={false} autoCapitalize="off" autoComplete="off" />
          <SelectField id="codes-status" label={t('filterStatus')} value={status} onValue={(v) => setStatus(v as Status | '')}
            options={[['', t('anyStatus')], ...STATUSES.map((s) => [s, t(s)] as const)]} />
          <Button id="codes-refresh" onClick={() => void codes.reload(true)}>{common('refresh')}</Button>
          {settledBatch && BATCH.test(settledBatch) && (
            <Button variant="danger" id="codes-disable-batch" busy={change.busy === 'disable-batch'} onClick={() => void disable({ batch: settledBatch })}>{t('disableBatch')}</Button>
          )}
        </div>
        <ErrorAlert error={codes.error} onRetry={() => void codes.reload()} />
        {codes.loading && <p class="loading" role="status">{common('loading')}</p>}
        {codes.rows && (
          <DataTable stackOnPhone testId="codes-table" label={t('title')} rows={codes.rows} columns={columns} rowKey={(c) => c.id}
            rowAttrs={(c) => ({ 'data-code-id': String(c.id) })} empty={settledBatch || status ? t('empty') : t('noneYet')} />
        )}
        {codes.hasMore && <div class="pager"><Button id="codes-older" busy={codes.loadingMore} onClick={() => void codes.more()}>{a('older')}</Button></div>}
      </Card>
      {confirmDialog}
    </>
  );
}
