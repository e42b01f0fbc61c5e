/**
 * #/admin/invitations: invitation codes for self sign-up. A batch generated (how many, a batch name, an
 * expiry) is shown this once with Copy all and the sign-up address, gone when the admin says it is
 * copied; the list (never a code: its status, who signed up with it and when), by batch and status,
 * older pages; a code or every unused code of a batch disabled after a confirmation. The page says
 * whether sign-up takes invitations now, with the way to Settings.
 */
import { useState } from 'preact/hooks';
import { call, type Answer } from '../../api.ts';
import { ADMIN_WORDS, NAME_PATTERN } from '../../admin/adminWords.ts';
import { ChangeStatus, useChange } from '../../admin/change.tsx';
import { endOfDay, isFutureDay } from '../../admin/day.ts';
import { INVITATIONS_WORDS } from '../../admin/invitationsWords.ts';
import { ShownOnce } from '../../admin/ShownOnce.tsx';
import { usePaged, useSettled } from '../../admin/usePaged.ts';
import { COMMON } from '../../i18n/common.ts';
import { useFormat } from '../../i18n/format.ts';
import { useT } from '../../i18n/lang.ts';
import { href } from '../../router.ts';
import { useApi } from '../../useApi.ts';
import { Alert, ErrorAlert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { DataTable, type Column } from '../../ui/DataTable.tsx';
import { useConfirm } from '../../ui/Dialog.tsx';
import { SelectField, TextField } from '../../ui/fields.tsx';
import { Badge, Card, PageHeader } from '../../ui/Page.tsx';
import '../../styles/admin.css';

type Invitation = Answer<'listInvitations'>['data'][number];
type Status = Invitation['status'];
const STATUSES: readonly Status[] = ['unused', 'used', 'expired', 'disabled'];
const TONE: Readonly<Record<Status, 'ok' | 'muted' | 'warn' | 'bad'>> = { unused: 'ok', used: 'muted', expired: 'warn', disabled: 'bad' };
const BATCH = new RegExp(`^${NAME_PATTERN}$`);

function GenerateForm({ onMade }: { readonly onMade: (answer: Answer<'createInvitations'>) => void }) {
  const t = useT(INVITATIONS_WORDS);
  const a = useT(ADMIN_WORDS);
  const [count, setCount] = useState('1');
  const [batch, setBatch] = useState('');
  const [expires, setExpires] = useState('');
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const problems = {
    count: /^\d+$/.test(count.trim()) && Number(count) >= 1 && Number(count) <= 1000 ? null : t('countBad'),
    batch: batch.trim() && !BATCH.test(batch.trim()) ? a('nameRule') : null,
    expires: expires && !isFutureDay(expires) ? t('expiresBad') : null,
  };
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    setTried(true);
    if (problems.count || problems.batch || problems.expires) return;
    setBusy(true);
    setError(null);
    try {
      onMade(await call('createInvitations', { body: { count: Number(count), ...(batch.trim() ? { batch: batch.trim() } : {}), ...(expires ? { expires_at: endOfDay(expires) } : {}) } }));
      setCount('1'); setBatch(''); setExpires(''); setTried(false);
    } catch (failure) {
      setError(failure as Error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title={t('generate')}>
      <form id="invite-form" onSubmit={submit} noValidate autoComplete="off">
        <ErrorAlert error={error} />
        <div class="form-grid">
          <TextField id="invite-count" label={t('count')} hint={t('countHint')} type="number" inputMode="numeric" min={1} max={1000} value={count} onValue={setCount}
            required error={tried ? problems.count : null} />
          <TextField id="invite-batch" label={t('batch')} hint={t('batchHint')} value={batch} onValue={setBatch} maxLength={64} placeholder="team-2026"
            spellcheck={false} autoCapitalize="off" error={tried ? problems.batch : null} />
          <TextField id="invite-expires" label={t('expires')} hint={t('expiresHint')} type="date" value={expires} onValue={setExpires} error={tried ? problems.expires : null} />
        </div>
        <Button type="submit" variant="primary" id="invite-submit" busy={busy}>{t('generate')}</Button>
      </form>
    </Card>
  );
}

export function AdminInvitationsPage() {
  const t = useT(INVITATIONS_WORDS);
  const a = useT(ADMIN_WORDS);
  const common = useT(COMMON);
  const f = useFormat();
  const settings = useApi('getSettings');
  const [made, setMade] = useState<Answer<'createInvitations'> | null>(null);
  const [batch, setBatch] = useState('');
  const [status, setStatus] = useState<Status | ''>('');
  const settledBatch = useSettled(batch.trim());
  const invitations = usePaged<Invitation>(JSON.stringify([settledBatch, status]), async (before, signal) => {
    const page = await call('listInvitations', { query: { batch: settledBatch, status: status || undefined, before }, signal });
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
      const answer = await call('disableInvitations', { body: target });
      await invitations.reload(true);
      if ('id' in answer) return t('disabledOne', { id: answer.id });
      return t(answer.disabled === 1 ? 'disabledManyOne' : 'disabledMany', { count: answer.disabled, batch: answer.batch });
    });
  };

  const columns: Column<Invitation>[] = [
    { header: t('colId'), kind: 'num', cell: (c) => c.id },
    { header: t('colBatch'), kind: 'wrap', cell: (c) => c.batch ?? '—' },
    { header: t('colStatus'), cell: (c) => <Badge tone={TONE[c.status]}>{t(c.status)}</Badge> },
    { header: t('colUsedBy'), kind: 'wrap', cell: (c) => c.used_by ?? '—' },
    { header: t('colCreated'), cell: (c) => <>{f.time(c.created_at)}<div class="muted">{c.created_by ? t('byAdmin', { name: c.created_by }) : t('byCli')}</div></> },
    { header: t('colUsed'), cell: (c) => (c.used_at ? f.time(c.used_at) : '—') },
    { header: t('colExpires'), kind: 'nowrap', cell: (c) => (c.expires_at ? f.date(c.expires_at) : a('never')) },
    {
      header: common('actions'), cell: (c) => (c.status === 'unused' || c.status === 'expired'
        ? <Button small variant="danger" busy={change.busy === `disable:${c.id}`} aria-label={`${t('disable')} ${c.id}`} onClick={() => void disable({ id: c.id })}>{t('disable')}</Button>
        : null),
    },
  ];

  const all = made?.codes.map((c) => c.code).join('\n') ?? '';
  const what = made ? [
    made.codes.length === 1 ? t('newWhatOne') : t('newWhat', { count: made.codes.length }),
    made.batch ? t('newBatch', { batch: made.batch }) : '',
    made.expires_at ? t('newExpires', { date: f.date(made.expires_at) }) : '',
  ].filter(Boolean).join(', ') : '';
  const mode = settings.data?.sign_up;

  return (
    <>
      <PageHeader title={t('title')} description={<>{t('intro')} {a('auditNote')}</>} />
      {mode && (
        <Alert kind={mode === 'invitation' ? 'info' : 'warning'}>
          <p id="invitations-mode">{t('signUpIs', { mode: t(mode) })} <a href={href('/admin/settings')}>{t('settingsLink')}</a></p>
        </Alert>
      )}
      {made && (
        <ShownOnce id="new-invitations" plural title={<>{t('newCodes')} <span class="muted" id="new-invitations-what">{what}</span></>} onDone={() => setMade(null)}>
          <pre id="new-invitations-list" class="codes-list">{all}</pre>
          <p class="muted">{t('linkHint', { url: `${location.origin}/#/signup` })}</p>
          <p><CopyButton text={all} label={t('copyAll')} ariaLabel={t('copyAllLabel')} /></p>
        </ShownOnce>
      )}
      <GenerateForm onMade={(answer) => { setMade(answer); setBatch(answer.batch ?? ''); setStatus(''); void invitations.reload(true); }} />
      <ChangeStatus change={change} id="invitations" />
      <Card title={t('filters')}>
        <div class="filters">
          <TextField id="invitations-batch" label={t('filterBatch')} value={batch} onValue={setBatch} placeholder={t('filterBatchPlaceholder')} maxLength={64}
            spellcheck={false} autoCapitalize="off" autoComplete="off" />
          <SelectField id="invitations-status" label={t('filterStatus')} value={status} onValue={(v) => setStatus(v as Status | '')}
            options={[['', t('anyStatus')], ...STATUSES.map((s) => [s, t(s)] as const)]} />
          <Button id="invitations-refresh" onClick={() => void invitations.reload(true)}>{common('refresh')}</Button>
          {settledBatch && BATCH.test(settledBatch) && (
            <Button variant="danger" id="invitations-disable-batch" busy={change.busy === 'disable-batch'} onClick={() => void disable({ batch: settledBatch })}>{t('disableBatch')}</Button>
          )}
        </div>
        <ErrorAlert error={invitations.error} onRetry={() => void invitations.reload()} />
        {invitations.loading && <p class="loading" role="status">{common('loading')}</p>}
        {invitations.rows && (
          <DataTable stackOnPhone testId="invitations-table" label={t('title')} rows={invitations.rows} columns={columns} rowKey={(c) => c.id}
            rowAttrs={(c) => ({ 'data-invitation-id': String(c.id) })} empty={settledBatch || status ? t('empty') : t('noneYet')} />
        )}
        {invitations.hasMore && <div class="pager"><Button id="invitations-older" busy={invitations.loadingMore} onClick={() => void invitations.more()}>{a('older')}</Button></div>}
      </Card>
      {confirmDialog}
    </>
  );
}
