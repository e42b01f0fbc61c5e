/**
 * #/admin/audit: the audit log of admin actions, newest first, by actor and action, older pages on
 * demand. Who acted (and through which admin access token), what, on which target, with the details
 * the gateway recorded (never a secret). Every value is text: a name made of HTML shows as that text.
 */
import { useState } from 'preact/hooks';
import { call, type Answer } from '../../api.ts';
import { ADMIN_WORDS } from '../../admin/adminWords.ts';
import { AUDIT_ACTION_WORDS, AUDIT_WORDS, detailsText } from '../../admin/auditWords.ts';
import { usePaged, useSettled } from '../../admin/usePaged.ts';
import type { AuditAction } from '../../../contract/admin.ts';
import { NO_BATCH } from '../../../contract/values.ts';
import { COMMON } from '../../i18n/common.ts';
import { useFormat } from '../../i18n/format.ts';
import { useLang, useT } from '../../i18n/lang.ts';
import { ErrorAlert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { DataTable, type Column } from '../../ui/DataTable.tsx';
import { SelectField, TextField } from '../../ui/fields.tsx';
import { Card, PageHeader } from '../../ui/Page.tsx';
import '../../styles/admin.css';


type Row = Answer<'listAudit'>['data'][number];

export function AdminAuditPage() {
  const t = useT(AUDIT_WORDS);
  const a = useT(ADMIN_WORDS);
  const common = useT(COMMON);
  const f = useFormat();
  const { lang } = useLang();
  const actions = AUDIT_ACTION_WORDS[lang];
  const [actor, setActor] = useState('');
  const [action, setAction] = useState<AuditAction | ''>('');
  const settledActor = useSettled(actor.trim(), 300);
  const rows = usePaged<Row>(JSON.stringify([settledActor, action]), async (before, signal) => {
    const page = await call('listAudit', { query: { actor: settledActor, action: action || undefined, before }, signal });
    return { rows: page.data, next: page.next_before };
  });

  const columns: Column<Row>[] = [
    { header: t('colTime'), kind: 'nowrap', cell: (r) => <time dateTime={r.time} title={r.time}>{f.time(r.time)}</time> },
    { header: t('colActor'), kind: 'wrap', cell: (r) => <><strong>{r.actor}</strong>{r.via_token && <div class="muted via-token">{t('viaToken', { name: r.via_token })}</div>}</> },
    { header: t('colAction'), kind: 'nowrap', cell: (r) => <><span>{actions[r.action]}</span><div><code class="muted">{r.action}</code></div></> },
    { header: t('colTarget'), kind: 'wrap', cell: (r) => <span class="audit-target">{r.target === NO_BATCH ? t('noBatch') : r.target}</span> },
    { header: t('colDetails'), kind: 'wrap', cell: (r) => <span class="audit-details">{detailsText(r.details)}</span> },
  ];

  return (
    <>
      <PageHeader title={t('title')} description={t('intro')} />
      <Card>
        <form class="filters" id="audit-filters" onSubmit={(e) => { e.preventDefault(); void rows.reload(); }} autoComplete="off">
          <TextField id="audit-actor" label={t('actor')} value={actor} onValue={setActor} placeholder={t('actorPlaceholder')} maxLength={64}
            spellcheck={false} autoCapitalize="off" />
          <SelectField id="audit-action" label={t('action')} value={action} onValue={(v) => setAction(v as AuditAction | '')}
            options={[['', t('anyAction')], ...Object.entries(actions).map(([value, words]) => [value, `${words} (${value})`] as const)]} />
          <Button type="submit" id="audit-refresh">{common('refresh')}</Button>
        </form>
        <ErrorAlert error={rows.error} onRetry={() => void rows.reload()} />
        {rows.loading && <p class="loading" role="status">{common('loading')}</p>}
        {rows.rows && (
          <DataTable stackOnPhone testId="audit-table" label={t('title')} rows={rows.rows} columns={columns} rowKey={(r) => r.id}
            rowAttrs={(r) => ({ 'data-audit-id': String(r.id), 'data-action': r.action })} empty={settledActor || action ? t('empty') : t('noneYet')} />
        )}
        {rows.hasMore && <div class="pager"><Button id="audit-older" busy={rows.loadingMore} onClick={() => void rows.more()}>{a('older')}</Button></div>}
      </Card>
    </>
  );
}
