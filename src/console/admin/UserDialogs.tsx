/**
 * The forms of the Users page, each in a dialog: a new user (name, password, a new or an existing
 * account, admin), a new password for a user (typed once, never shown back: the field is emptied as
 * it is sent) and a top-up of an account (an exact decimal amount, checked before it is sent). Each
 * keeps the gateway's refusal inside the dialog and hands what was done to the page.
 */
import { useState } from 'preact/hooks';
import { call, type Answer } from '../api.ts';
import { COMMON } from '../i18n/common.ts';
import { usd } from '../i18n/format.ts';
import { useT } from '../i18n/lang.ts';
import { ErrorAlert } from '../ui/Alert.tsx';
import { Button } from '../ui/Button.tsx';
import { Modal } from '../ui/Dialog.tsx';
import { Checkbox, TextField } from '../ui/fields.tsx';
import { useSend } from '../ui/send.ts';
import { ADMIN_WORDS, NAME_PATTERN } from './adminWords.ts';
import { cleanUsd, usdProblem } from './usd.ts';
import { USERS_WORDS } from './usersWords.ts';
import { MIN_PASSWORD_LENGTH as MIN_PASSWORD } from '../../contract/values.ts';

export type User = Answer<'listUsers'>['data'][number];
const NAME = NAME_PATTERN;

function Actions({ busy, submit, onClose, id }: { readonly busy: boolean; readonly submit: string; readonly onClose: () => void; readonly id: string }) {
  const common = useT(COMMON);
  return (
    <div class="dialog-actions">
      <Button onClick={onClose}>{common('cancel')}</Button>
      <Button type="submit" variant="primary" id={id} busy={busy}>{submit}</Button>
    </div>
  );
}

export function NewUserDialog({ accounts, onClose, onCreated }: { readonly accounts: readonly string[]; readonly onClose: () => void; readonly onCreated: (said: string) => void }) {
  const t = useT(USERS_WORDS);
  const a = useT(ADMIN_WORDS);
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [existing, setExisting] = useState(false);
  const [account, setAccount] = useState('');
  const [admin, setAdmin] = useState(false);
  const [tried, setTried] = useState(false);
  const { busy, error, send } = useSend();
  const problems = {
    name: !NAME.test(name.trim()) ? t('badName') : null,
    password: password.length < MIN_PASSWORD ? t('tooShort') : null,
    account: existing && !NAME.test(account.trim()) ? t('badName') : null,
  };

  const submit = (e: Event): void => {
    e.preventDefault();
    setTried(true);
    if (problems.name || problems.password || problems.account) return;
    void send(async () => {
      const answer = await call('createUser', { body: { name: name.trim(), password, ...(admin ? { admin: true } : {}), ...(existing ? { account: account.trim() } : {}) } });
      onCreated(t('createdDone', { name: answer.user.name, account: answer.user.account ?? '—' }));
    }).then((made) => {
      // Kept when the server refused (a taken name): the admin fixes the name and sends again.
      if (made) setPassword('');
    });
  };

  return (
    <Modal title={t('createTitle')} onClose={onClose}>
      <form id="new-user-form" onSubmit={submit} noValidate autoComplete="off">
        <ErrorAlert error={error} />
        <TextField id="new-user-name" label={t('name')} hint={a('nameRule')} value={name} onValue={setName} required maxLength={64}
          spellcheck={false} autoCapitalize="off" autoComplete="off" error={tried ? problems.name : null} autoFocus />
        <TextField id="new-user-password" label={t('password')} hint={t('passwordHint')} type="password" value={password} onValue={setPassword}
          required minLength={MIN_PASSWORD} autoComplete="new-password" error={tried ? problems.password : null} />
        <fieldset class="choices">
          <legend>{t('accountChoice')}</legend>
          <label class="check"><input type="radio" name="new-user-account-kind" id="new-user-account-new" checked={!existing} onChange={() => setExisting(false)} />{t('accountNew')}</label>
          <label class="check"><input type="radio" name="new-user-account-kind" id="new-user-account-existing" checked={existing} onChange={() => setExisting(true)} />{t('accountExisting')}</label>
        </fieldset>
        {existing && (
          <>
            <TextField id="new-user-account" label={t('accountName')} value={account} onValue={setAccount} list="new-user-accounts" required maxLength={64}
              spellcheck={false} autoCapitalize="off" error={tried ? problems.account : null} />
            <datalist id="new-user-accounts">{accounts.map((name) => <option key={name} value={name} />)}</datalist>
          </>
        )}
        <Checkbox id="new-user-admin" label={t('adminBox')} checked={admin} onChecked={setAdmin} />
        <Actions busy={busy} submit={t('create')} onClose={onClose} id="new-user-submit" />
      </form>
    </Modal>
  );
}

export function PasswordDialog({ user, onClose, onDone }: { readonly user: User; readonly onClose: () => void; readonly onDone: () => void }) {
  const t = useT(USERS_WORDS);
  const [password, setPassword] = useState('');
  const [tried, setTried] = useState(false);
  const { busy, error, send } = useSend();
  const submit = (e: Event): void => {
    e.preventDefault();
    setTried(true);
    if (password.length < MIN_PASSWORD) return;
    void send(async () => {
      await call('resetUserPassword', { body: { name: user.name, password } });
      setPassword('');
      onDone();
    });
  };
  return (
    <Modal title={t('resetTitle', { name: user.name })} onClose={onClose}>
      <form id="reset-password-form" onSubmit={submit} noValidate autoComplete="off">
        <ErrorAlert error={error} />
        <TextField id="reset-password" label={t('newPassword')} hint={t('resetHint', { name: user.name })} type="password" value={password} onValue={setPassword}
          required minLength={MIN_PASSWORD} autoComplete="new-password" autoFocus error={tried && password.length < MIN_PASSWORD ? t('tooShort') : null} />
        <Actions busy={busy} submit={t('setPassword')} onClose={onClose} id="reset-password-submit" />
      </form>
    </Modal>
  );
}

export function TopUpDialog({ user, onClose, onDone }: { readonly user: User; readonly onClose: () => void; readonly onDone: (said: string) => void }) {
  const t = useT(USERS_WORDS);
  const a = useT(ADMIN_WORDS);
  const account = user.account ?? '';
  const [amount, setAmount] = useState('');
  const [tried, setTried] = useState(false);
  const { busy, error, send } = useSend();
  const problem = usdProblem(amount);
  const submit = (e: Event): void => {
    e.preventDefault();
    setTried(true);
    if (problem) return;
    void send(async () => {
      const answer = await call('topUpAccount', { body: { account, amount_usd: cleanUsd(amount) } });
      onDone(t('toppedUpDone', { amount: usd(answer.amount), account: answer.account.name, balance: usd(answer.account.balance) }));
    });
  };
  return (
    <Modal title={t('topUpTitle', { account })} onClose={onClose}>
      <form id="topup-form" onSubmit={submit} noValidate autoComplete="off">
        <ErrorAlert error={error} />
        {user.balance && <p class="muted">{t('balanceNow', { balance: usd(user.balance) })}</p>}
        <TextField id="topup-amount" label={t('amount')} hint={a('usdHint')} value={amount} onValue={setAmount} inputMode="decimal" required autoFocus
          placeholder="10.00" maxLength={32} spellcheck={false} error={tried && problem ? a(problem) : null} />
        <Actions busy={busy} submit={t('add')} onClose={onClose} id="topup-submit" />
      </form>
    </Modal>
  );
}
