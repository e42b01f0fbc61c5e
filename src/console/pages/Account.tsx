/**
 * #/account: who is signed in and on which account, its balance; the password change (POST
 * /api/console/password: the current password checked, every other session of the user ended, this
 * one renewed); and the language and theme, kept in this browser.
 */
import { useState } from 'preact/hooks';
import { call } from '../api.ts';
import { usd } from '../i18n/format.ts';
import { defineMessages, LANGS, useLang, useT, type Lang } from '../i18n/lang.ts';
import { LAYOUT_WORDS } from '../layoutWords.ts';
import { href } from '../router.ts';
import { useSession, useUser } from '../session.ts';
import { THEMES, useTheme, type Theme } from '../theme.ts';
import { Alert, ErrorAlert } from '../ui/Alert.tsx';
import { Button } from '../ui/Button.tsx';
import { SelectField, TextField } from '../ui/fields.tsx';
import { Card, PageHeader, Stat } from '../ui/Page.tsx';
import { useApi } from '../useApi.ts';
import { MIN_PASSWORD_LENGTH as MIN_PASSWORD } from '../../contract/values.ts';

const WORDS = defineMessages({
  en: {
    title: 'Account', intro: 'Who you are signed in as, your account\u2019s balance, your password and how the console looks.',
    user: 'User', role: 'Role', admin: 'admin', member: 'user', account: 'Account', noAccount: 'none',
    balance: 'Balance', used: '{used} used', topUp: 'Top up',
    passwordTitle: 'Change your password',
    passwordIntro: 'At least 10 characters. Every other browser signed in as you is signed out; this one stays signed in.',
    current: 'Current password', new: 'New password', again: 'New password again', mismatch: 'The two new passwords differ.',
    tooShort: 'At least 10 characters.', change: 'Change password',
    changed: 'Password changed. Every other browser signed in as you was signed out.',
    prefsTitle: 'Language and theme', prefsIntro: 'Kept in this browser. The theme follows the system unless you pick one.',
  },
  'zh-CN': {
    title: '账户', intro: '当前登录的用户、账户余额、密码以及控制台的外观。',
    user: '用户', role: '角色', admin: '管理员', member: '普通用户', account: '账户', noAccount: '无',
    balance: '余额', used: '已用 {used}', topUp: '充值',
    passwordTitle: '修改密码',
    passwordIntro: '至少 10 个字符。以你的身份登录的其他浏览器都会被退出；当前浏览器保持登录。',
    current: '当前密码', new: '新密码', again: '再次输入新密码', mismatch: '两次输入的新密码不一致。',
    tooShort: '至少 10 个字符。', change: '修改密码',
    changed: '密码已修改。以你的身份登录的其他浏览器都已退出。',
    prefsTitle: '语言和主题', prefsIntro: '保存在此浏览器中。除非你另行选择，主题跟随系统。',
  },
});


function PasswordForm() {
  const t = useT(WORDS);
  const { user, setUser } = useSession();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const [done, setDone] = useState(false);
  const mismatch = again !== '' && again !== next;

  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    if (mismatch) return;
    setBusy(true);
    setError(null);
    setDone(false);
    try {
      const answer = await call('changePassword', { body: { current, new: next } });
      setCurrent('');
      setNext('');
      setAgain('');
      setDone(true);
      if (answer.user) setUser(answer.user);
    } catch (failure) {
      setCurrent('');
      setError(failure as Error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form id="password-form" class="narrow-form" onSubmit={submit}>
      {/* For password managers: which account this password belongs to. */}
      <input type="text" name="username" autoComplete="username" value={user?.name ?? ''} hidden readOnly />
      <p class="muted">{t('passwordIntro')}</p>
      {done && <Alert kind="success"><p id="password-done">{t('changed')}</p></Alert>}
      <ErrorAlert error={error} />
      <TextField id="password-current" label={t('current')} type="password" value={current} onValue={setCurrent} autoComplete="current-password" required />
      <TextField id="password-new" label={t('new')} hint={t('tooShort')} type="password" value={next} onValue={setNext} autoComplete="new-password" required minLength={MIN_PASSWORD} />
      <TextField id="password-again" label={t('again')} type="password" value={again} onValue={setAgain} autoComplete="new-password" required minLength={MIN_PASSWORD}
        error={mismatch ? t('mismatch') : null} />
      <Button type="submit" variant="primary" id="password-button" busy={busy} disabled={mismatch}>{t('change')}</Button>
    </form>
  );
}

function PreferencesForm() {
  const t = useT(WORDS);
  const layout = useT(LAYOUT_WORDS);
  const { lang, setLang } = useLang();
  const [theme, setTheme] = useTheme();
  return (
    <div class="form-grid narrow-form">
      <SelectField id="account-lang" label={layout('language')} value={lang} onValue={(v) => setLang(v as Lang)} options={Object.entries(LANGS)} />
      <SelectField id="account-theme" label={layout('theme')} value={theme} onValue={(v) => setTheme(v as Theme)} options={THEMES.map((v) => [v, layout(v)] as const)} />
      <p class="muted small span-all">{t('prefsIntro')}</p>
    </div>
  );
}

export function AccountPage() {
  const t = useT(WORDS);
  const user = useUser();
  const account = useApi('getAccount');
  const balance = account.data?.account.balance;
  return (
    <>
      <PageHeader title={t('title')} description={t('intro')} />
      <div class="grid stats">
        <Stat label={t('user')} testId="account-user" value={<span class="wrap-anywhere">{user.name}</span>} sub={user.admin ? t('admin') : t('member')} />
        <Stat label={t('account')} testId="account-name" value={<span class="wrap-anywhere">{account.data?.account.name ?? user.account ?? t('noAccount')}</span>} />
        <Stat label={t('balance')} testId="account-balance" value={balance ? usd(balance.remaining) : '\u2014'}
          sub={balance ? <>{t('used', { used: usd(balance.used) })} · <a href={href('/topup')}>{t('topUp')}</a></> : undefined} />
      </div>
      {account.error && <ErrorAlert error={account.error} onRetry={() => void account.reload()} />}
      <Card title={t('passwordTitle')} id="password"><PasswordForm /></Card>
      <Card title={t('prefsTitle')} id="preferences"><PreferencesForm /></Card>
    </>
  );
}
