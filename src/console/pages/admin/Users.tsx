/**
 * #/admin/users: every user with their account and balance, searched by name; a new user; and per
 * user: disable (after a confirmation: their sessions end) or enable, a new password (typed once,
 * never shown back), admin granted or revoked (confirmed), and a top-up of their account. A change to
 * oneself that ends or changes one's own session is followed at once (sign in again, or no admin pages).
 */
import { useMemo, useState } from 'preact/hooks';
import { call } from '../../api.ts';
import { ADMIN_WORDS } from '../../admin/adminWords.ts';
import { ChangeStatus, useChange } from '../../admin/change.tsx';
import { usePaged, useSettled } from '../../admin/usePaged.ts';
import { NewUserDialog, PasswordDialog, TopUpDialog, type User } from '../../admin/UserDialogs.tsx';
import { USERS_WORDS } from '../../admin/usersWords.ts';
import { COMMON } from '../../i18n/common.ts';
import { useFormat, usd } from '../../i18n/format.ts';
import { useT } from '../../i18n/lang.ts';
import { useSession, useUser } from '../../session.ts';
import { ErrorAlert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { DataTable, type Column } from '../../ui/DataTable.tsx';
import { useConfirm } from '../../ui/Dialog.tsx';
import { TextField } from '../../ui/fields.tsx';
import { Badge, Card, PageHeader } from '../../ui/Page.tsx';
import '../../styles/admin.css';

type Dialog = { readonly kind: 'new' } | { readonly kind: 'password' | 'topup'; readonly user: User } | null;

export function AdminUsersPage() {
  const t = useT(USERS_WORDS);
  const a = useT(ADMIN_WORDS);
  const common = useT(COMMON);
  const f = useFormat();
  const me = useUser();
  const { setUser } = useSession();
  const [q, setQ] = useState('');
  const search = useSettled(q.trim());
  const users = usePaged<User>(search, async (after, signal) => {
    const page = await call('listUsers', { query: { q: search, after }, signal });
    return { rows: page.data, next: page.next_after };
  });
  const change = useChange();
  const [confirm, confirmDialog] = useConfirm();
  const [dialog, setDialog] = useState<Dialog>(null);
  const accounts = useMemo(() => [...new Set((users.rows ?? []).map((u) => u.account).filter((n): n is string => n !== null))], [users.rows]);

  /** After a change to oneself: the session as it now is (ended, or without admin). */
  const followSelf = async (name: string): Promise<void> => {
    if (name !== me.name) return users.reload(true);
    const session = await call('getSession');
    setUser(session.user);
    if (session.user?.admin) await users.reload(true);
  };

  const act = (user: User, what: 'disable' | 'enable' | 'grant' | 'revoke'): void => {
    void (async () => {
      if (what === 'disable' && !(await confirm(t('disableAsk', { name: user.name }), t('disable'), { body: t('disableBody'), danger: true }))) return;
      if (what === 'grant' && !(await confirm(t('makeAdminAsk', { name: user.name }), t('makeAdmin'), { body: t('makeAdminBody') }))) return;
      if (what === 'revoke' && !(await confirm(t('revokeAdminAsk', { name: user.name }), t('revokeAdmin'), { body: t('revokeAdminBody'), danger: true }))) return;
      await change.run(`${what}:${user.name}`, async () => {
        const body = { name: user.name };
        if (what === 'disable') await call('disableUser', { body });
        else if (what === 'enable') await call('enableUser', { body });
        else await call('setUserAdmin', { body: { ...body, admin: what === 'grant' } });
        await followSelf(user.name);
        return t(({ disable: 'disabledDone', enable: 'enabledDone', grant: 'adminDone', revoke: 'notAdminDone' } as const)[what], { name: user.name });
      });
    })();
  };

  const columns: Column<User>[] = [
    {
      header: t('colUser'), kind: 'wrap', cell: (u) => (
        <>
          <strong class="user-name">{u.name}</strong>
          {u.admin && <> <Badge tone="muted">{t('admin')}</Badge></>}
          {u.name === me.name && <> <Badge tone="muted">{t('you')}</Badge></>}
        </>
      ),
    },
    { header: t('colAccount'), kind: 'wrap', cell: (u) => u.account ?? '—' },
    { header: t('colBalance'), kind: 'num', cell: (u) => (u.balance ? usd(u.balance) : '—') },
    { header: t('colStatus'), cell: (u) => <Badge tone={u.status === 'enabled' ? 'ok' : 'bad'}>{common(u.status)}</Badge> },
    { header: t('colCreated'), kind: 'nowrap', cell: (u) => f.date(u.created_at) },
    { header: t('colSignIn'), kind: 'wrap', cell: (u) => (u.last_sign_in_at ? f.time(u.last_sign_in_at) : a('never')) },
    {
      header: common('actions'), cell: (u) => {
        const busy = change.busy?.endsWith(`:${u.name}`) ?? false;
        return (
          <div class="row-actions user-actions">
            {u.status === 'enabled'
              ? <Button small variant="danger" busy={busy && change.busy?.startsWith('disable')} aria-label={`${t('disable')} ${u.name}`} onClick={() => act(u, 'disable')}>{t('disable')}</Button>
              : <Button small busy={busy && change.busy?.startsWith('enable')} aria-label={`${t('enable')} ${u.name}`} onClick={() => act(u, 'enable')}>{t('enable')}</Button>}
            <Button small aria-label={`${t('resetPassword')} ${u.name}`} onClick={() => { change.clear(); setDialog({ kind: 'password', user: u }); }}>{t('resetPassword')}</Button>
            {u.admin
              ? <Button small variant="danger" aria-label={`${t('revokeAdmin')} ${u.name}`} onClick={() => act(u, 'revoke')}>{t('revokeAdmin')}</Button>
              : <Button small aria-label={`${t('makeAdmin')} ${u.name}`} onClick={() => act(u, 'grant')}>{t('makeAdmin')}</Button>}
            {u.account && <Button small aria-label={`${t('topUp')} ${u.account}`} onClick={() => { change.clear(); setDialog({ kind: 'topup', user: u }); }}>{t('topUp')}</Button>}
          </div>
        );
      },
    },
  ];

  const done = (said: string): void => {
    setDialog(null);
    void change.run('dialog', async () => {
      await users.reload(true);
      return said;
    });
  };

  return (
    <>
      <PageHeader title={t('title')} description={<>{t('intro')} {a('auditNote')}</>}
        actions={<Button variant="primary" id="new-user-open" onClick={() => { change.clear(); setDialog({ kind: 'new' }); }}>{t('newUser')}</Button>} />
      <ChangeStatus change={change} id="users" />
      <Card>
        <div class="filters">
          <TextField id="users-q" type="search" label={t('search')} value={q} onValue={setQ} spellcheck={false} autoCapitalize="off" autoComplete="off" maxLength={64} />
          <Button id="users-refresh" onClick={() => void users.reload(true)}>{common('refresh')}</Button>
        </div>
        <ErrorAlert error={users.error} onRetry={() => void users.reload()} />
        {users.loading && <p class="loading" role="status">{common('loading')}</p>}
        {users.rows && (
          <DataTable stackOnPhone testId="users-table" label={t('title')} rows={users.rows} columns={columns} rowKey={(u) => u.id}
            rowAttrs={(u) => ({ 'data-user': u.name })} empty={search ? t('emptySearch', { q: search }) : t('empty')} />
        )}
        {users.hasMore && <div class="pager"><Button id="users-more" busy={users.loadingMore} onClick={() => void users.more()}>{a('more')}</Button></div>}
      </Card>
      {confirmDialog}
      {dialog?.kind === 'new' && <NewUserDialog accounts={accounts} onClose={() => setDialog(null)} onCreated={done} />}
      {dialog?.kind === 'topup' && <TopUpDialog user={dialog.user} onClose={() => setDialog(null)} onDone={done} />}
      {dialog?.kind === 'password' && (
        <PasswordDialog user={dialog.user} onClose={() => setDialog(null)} onDone={() => {
          const name = dialog.user.name;
          setDialog(null);
          void change.run('dialog', async () => {
            await followSelf(name);
            return t('passwordDone', { name });
          });
        }} />
      )}
    </>
  );
}
