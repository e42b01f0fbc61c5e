/**
 * #/admin/invitations: invitation codes for self sign-up. A batch generated (how many, a batch name, an
 * expiry) is shown this once with Copy all and the sign-up address, gone when the admin says it is
 * copied; the list (never a code: its status, who signed up with it and when), by batch and status,
 * older pages; a code or every unused code of a batch disabled after a confirmation (admin/CodeBatches.tsx).
 * The page says whether sign-up takes invitations now, with the way to Settings.
 */
import { useState } from 'preact/hooks';
import { call, type Answer } from '../../api.ts';
import { ADMIN_WORDS } from '../../admin/adminWords.ts';
import { BatchList, GenerateCard, useBatchFields } from '../../admin/CodeBatches.tsx';
import { INVITATIONS_WORDS } from '../../admin/invitationsWords.ts';
import { ShownOnce } from '../../admin/ShownOnce.tsx';
import { useFormat } from '../../i18n/format.ts';
import { useT } from '../../i18n/lang.ts';
import { href } from '../../router.ts';
import { useApi } from '../../useApi.ts';
import { Alert } from '../../ui/Alert.tsx';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { PageHeader } from '../../ui/Page.tsx';
import '../../styles/admin.css';

type Invitation = Answer<'listInvitations'>['data'][number];

function GenerateForm({ onMade }: { readonly onMade: (answer: Answer<'createInvitations'>) => void }) {
  const t = useT(INVITATIONS_WORDS);
  const batch = useBatchFields(t, 'invite', 'team-2026');
  return (
    <GenerateCard t={t} prefix="invite" ok={batch.ok} reset={batch.reset} send={async () => onMade(await call('createInvitations', { body: batch.body() }))}>
      {(tried) => batch.fields(tried)}
    </GenerateCard>
  );
}

export function AdminInvitationsPage() {
  const t = useT(INVITATIONS_WORDS);
  const a = useT(ADMIN_WORDS);
  const f = useFormat();
  const settings = useApi('getSettings');
  const [made, setMade] = useState<Answer<'createInvitations'> | null>(null);
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
      <GenerateForm onMade={setMade} />
      <BatchList<Invitation> t={t} prefix="invitations" rowAttr="data-invitation-id" made={made}
        list={(query, signal) => call('listInvitations', { query, signal })}
        disable={(target) => call('disableInvitations', { body: target })}
        columns={(c) => [
          c.id, c.batch, c.status,
          { header: t('colUsedBy'), kind: 'wrap', cell: (row) => row.used_by ?? '—' },
          c.created((row) => <div class="muted">{row.created_by ? t('byAdmin', { name: row.created_by }) : t('byCli')}</div>),
          { header: t('colUsed'), cell: (row) => (row.used_at ? f.time(row.used_at) : '—') },
          c.expires, c.actions,
        ]} />
    </>
  );
}
