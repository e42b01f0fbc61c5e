/**
 * #/admin/tokens: admin access tokens for scripts. A new one (a name, an optional expiry) is shown this
 * once with a copy button and a curl example, gone from the page when the admin says it is copied; the
 * list (never a token: its prefix, status, who it acts as, when last used); revoke after a confirmation.
 */
import { useState } from 'preact/hooks';
import { call, type Answer } from '../../api.ts';
import { ADMIN_WORDS, NAME_PATTERN } from '../../admin/adminWords.ts';
import { ChangeStatus, useChange } from '../../admin/change.tsx';
import { expiryOf, isFutureDay } from '../../day.ts';
import { ShownOnce } from '../../admin/ShownOnce.tsx';
import { TOKENS_WORDS } from '../../admin/tokensWords.ts';
import { COMMON } from '../../i18n/common.ts';
import { useFormat } from '../../i18n/format.ts';
import { useT } from '../../i18n/lang.ts';
import { useApi } from '../../useApi.ts';
import { ErrorAlert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { DataTable, type Column } from '../../ui/DataTable.tsx';
import { useConfirm } from '../../ui/Dialog.tsx';
import { TextField } from '../../ui/fields.tsx';
import { useSend } from '../../ui/send.ts';
import { Badge, Card, PageHeader } from '../../ui/Page.tsx';
import '../../styles/admin.css';

type Token = Answer<'listAdminTokens'>['data'][number];
const TONE: Readonly<Record<Token['status'], 'ok' | 'warn' | 'bad'>> = { active: 'ok', expired: 'warn', revoked: 'bad' };
const NAME = NAME_PATTERN;
const OPENAPI = '/api/openapi.json';

/** The call a script makes with the token, ready to paste. */
export function curlExample(origin: string, token: string): string {
  return `curl ${origin}/api/console/admin/users \\\n  -H "Authorization: Bearer ${token}"`;
}

function CreateForm({ onMade }: { readonly onMade: (answer: Answer<'createAdminToken'>) => void }) {
  const t = useT(TOKENS_WORDS);
  const a = useT(ADMIN_WORDS);
  const [name, setName] = useState('');
  const [expires, setExpires] = useState('');
  const [tried, setTried] = useState(false);
  const { busy, error, send } = useSend();
  const problems = {
    name: NAME.test(name.trim()) ? null : a('nameRule'),
    expires: expires && !isFutureDay(expires) ? t('expiresBad') : null,
  };
  const submit = (e: Event): void => {
    e.preventDefault();
    setTried(true);
    if (problems.name || problems.expires) return;
    void send(async () => {
      onMade(await call('createAdminToken', { body: { name: name.trim(), ...expiryOf(expires) } }));
      setName(''); setExpires(''); setTried(false);
    });
  };
  return (
    <Card title={t('create')}>
      <form id="new-token-form" onSubmit={submit} noValidate autoComplete="off">
        <ErrorAlert error={error} />
        <div class="form-grid">
          <TextField id="new-token-name" label={t('name')} hint={`${t('nameHint')} ${a('nameRule')}`} value={name} onValue={setName} required maxLength={64}
            placeholder="nightly-report" spellcheck={false} autoCapitalize="off" error={tried ? problems.name : null} />
          <TextField id="new-token-expires" label={t('expires')} hint={t('expiresHint')} type="date" value={expires} onValue={setExpires} error={tried ? problems.expires : null} />
        </div>
        <Button type="submit" variant="primary" id="new-token-submit" busy={busy}>{t('submit')}</Button>
      </form>
    </Card>
  );
}

export function AdminTokensPage() {
  const t = useT(TOKENS_WORDS);
  const a = useT(ADMIN_WORDS);
  const common = useT(COMMON);
  const f = useFormat();
  const tokens = useApi('listAdminTokens');
  const [made, setMade] = useState<Answer<'createAdminToken'> | null>(null);
  const change = useChange();
  const [confirm, confirmDialog] = useConfirm();

  const revoke = async (token: Token): Promise<void> => {
    if (!(await confirm(t('revokeAsk', { name: token.name }), t('revoke'), { body: t('revokeBody'), danger: true }))) return;
    await change.run(`revoke:${token.id}`, async () => {
      await call('revokeAdminToken', { body: { id: token.id } });
      await tokens.reload(true);
      return t('revokedSaid', { name: token.name });
    });
  };

  const columns: Column<Token>[] = [
    { header: t('colName'), kind: 'wrap', cell: (k) => <strong>{k.name}</strong> },
    { header: t('colToken'), kind: 'nowrap', cell: (k) => <code>{k.prefix}</code> },
    { header: t('colStatus'), cell: (k) => <Badge tone={TONE[k.status]}>{t(k.status)}</Badge> },
    { header: t('colActsAs'), kind: 'wrap', cell: (k) => k.created_by ?? '—' },
    { header: t('colCreated'), kind: 'nowrap', cell: (k) => f.time(k.created_at) },
    { header: t('colLastUsed'), kind: 'nowrap', cell: (k) => (k.last_used_at ? f.time(k.last_used_at) : a('never')) },
    { header: t('colExpires'), kind: 'nowrap', cell: (k) => (k.revoked_at ? f.date(k.revoked_at) : k.expires_at ? f.date(k.expires_at) : a('never')) },
    {
      header: common('actions'), cell: (k) => (k.status === 'revoked' ? null
        : <Button small variant="danger" busy={change.busy === `revoke:${k.id}`} aria-label={`${t('revoke')} ${k.name}`} onClick={() => void revoke(k)}>{t('revoke')}</Button>),
    },
  ];

  const example = made ? curlExample(location.origin, made.token) : '';
  return (
    <>
      <PageHeader title={t('title')} description={<>{t('intro')} <a id="tokens-openapi" href={OPENAPI}>{OPENAPI}</a>. {t('intro2')}</>} />
      {made && (
        <ShownOnce id="new-token" title={<>{t('newToken')} <span class="muted" id="new-token-label">{made.admin_token.name}</span></>} onDone={() => setMade(null)}>
          <div class="secret"><code id="new-token-value">{made.token}</code><CopyButton text={made.token} ariaLabel={t('copyToken')} /></div>
          <h3>{t('example')}</h3>
          <pre id="new-token-example">{example}</pre>
          <p><CopyButton text={example} ariaLabel={t('copyExample')} /></p>
        </ShownOnce>
      )}
      <CreateForm onMade={(answer) => { setMade(answer); void tokens.reload(true); }} />
      <ChangeStatus change={change} id="tokens" />
      <Card>
        <ErrorAlert error={tokens.error} onRetry={() => void tokens.reload()} />
        {tokens.loading && <p class="loading" role="status">{common('loading')}</p>}
        {tokens.data && (
          <DataTable stackOnPhone testId="tokens-table" label={t('title')} rows={tokens.data.data} columns={columns} rowKey={(k) => k.id}
            rowAttrs={(k) => ({ 'data-token-name': k.name, 'data-token-id': String(k.id) })} empty={t('empty')} />
        )}
      </Card>
      {confirmDialog}
    </>
  );
}
