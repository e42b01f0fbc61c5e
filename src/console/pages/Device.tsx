/**
 * /device (RFC 8628's verification URI, contract 4.11): a person approves an editor's sign-in. They
 * sign in here first if needed (the console's own session), enter the code the editor shows or confirm
 * the one the link carries (?user_code=...), see which client asks and for which account, may narrow
 * the models the new key may use, and approve or deny. The page never sees the device code or the key.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { call, type Answer } from '../api.ts';
import { COMMON } from '../i18n/common.ts';
import { useFormat } from '../i18n/format.ts';
import { defineMessages, useT } from '../i18n/lang.ts';
import { ModelPicker } from '../keys/ModelPicker.tsx';
import { useRoute } from '../router.ts';
import { useSession } from '../session.ts';
import { Alert, ErrorAlert } from '../ui/Alert.tsx';
import { Button } from '../ui/Button.tsx';
import { TextField } from '../ui/fields.tsx';

const WORDS = defineMessages({
  en: {
    title: 'Connect a device',
    signInTitle: 'Sign in to connect a device',
    signInIntro: 'An editor asked this gateway for an API key. Sign in with your user name and password, then approve or deny it.',
    name: 'User name', password: 'Password', signIn: 'Sign in',
    codeIntro: 'Enter the code your editor shows (in VS Code: Model Gateway: Sign In).',
    code: 'Code', continue: 'Continue',
    signedInAs: 'Signed in as {name}.', notYou: 'Not you? Sign out',
    requestTitle: 'Approve this sign-in?',
    asks: 'asks for a new API key of account {account}.', asksNoAccount: 'asks for a new API key of your account.',
    codeIs: 'Code:', asked: 'Asked {time}; the code expires {expires}.',
    careful: 'Approve only if you started this sign-in yourself, just now, and your editor shows the same code. The key appears on your API keys page, named after the device; delete it there to sign the device out.',
    modelsLegend: 'Models the key may use',
    approve: 'Approve', deny: 'Deny',
    approvedTitle: 'Approved', approvedText: '{client} gets its API key now. You can close this page and return to your editor.',
    deniedTitle: 'Denied', deniedText: '{client} gets no key. You can close this page.',
    another: 'Connect another device',
  },
  'zh-CN': {
    title: '连接设备',
    signInTitle: '登录以连接设备',
    signInIntro: '有编辑器向本网关申请 API 密钥。请使用用户名和密码登录，然后批准或拒绝。',
    name: '用户名', password: '密码', signIn: '登录',
    codeIntro: '输入编辑器中显示的代码（在 VS Code 中：Model Gateway: 登录）。',
    code: '代码', continue: '继续',
    signedInAs: '已登录为 {name}。', notYou: '不是你？退出登录',
    requestTitle: '批准此登录？',
    asks: '申请账户 {account} 的一个新 API 密钥。', asksNoAccount: '申请你账户的一个新 API 密钥。',
    codeIs: '代码：', asked: '申请于 {time}；代码于 {expires} 过期。',
    careful: '只有当这次登录是你本人刚刚发起、且编辑器显示的是同一代码时才批准。该密钥会以设备名称出现在你的 API 密钥页面；在那里删除它即可让设备退出登录。',
    modelsLegend: '密钥可使用的模型',
    approve: '批准', deny: '拒绝',
    approvedTitle: '已批准', approvedText: '{client} 现在会获得它的 API 密钥。你可以关闭此页面并回到编辑器。',
    deniedTitle: '已拒绝', deniedText: '{client} 不会获得密钥。你可以关闭此页面。',
    another: '连接其他设备',
  },
});

type Request = Answer<'lookUpDevice'>;

/** `text` with `slot` ("{account}") replaced by an element, so that the words around it stay in the language's order. */
function Slotted({ text, slot, children }: { readonly text: string; readonly slot: string; readonly children: ComponentChildren }) {
  const [before = '', after = ''] = text.split(slot);
  return <span>{before}{children}{after}</span>;
}

function SignInStep() {
  const t = useT(WORDS);
  const { setUser } = useSession();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await call('signIn', { body: { name: name.trim(), password } });
      setPassword('');
      setUser(answer.user);
    } catch (failure) {
      setError(failure as Error);
      setBusy(false);
    }
  };
  return (
    <section class="card narrow" id="device-signin" aria-labelledby="device-signin-title">
      <h1 id="device-signin-title">{t('signInTitle')}</h1>
      <p class="muted">{t('signInIntro')}</p>
      <ErrorAlert error={error} />
      <form id="device-signin-form" onSubmit={submit}>
        <TextField id="device-user-name" label={t('name')} value={name} onValue={setName} autoComplete="username" required autoFocus maxLength={64} spellcheck={false} autoCapitalize="off" />
        <TextField id="device-user-password" label={t('password')} type="password" value={password} onValue={setPassword} autoComplete="current-password" required />
        <Button type="submit" variant="primary" id="device-signin-button" busy={busy}>{t('signIn')}</Button>
      </form>
    </section>
  );
}

function Who() {
  const t = useT(WORDS);
  const { user, setUser } = useSession();
  if (!user) return null;
  const signOut = async (): Promise<void> => {
    try {
      await call('signOut');
    } finally {
      setUser(null);
    }
  };
  return (
    <p class="muted small" id="device-who">
      <span data-testid="device-user">{t('signedInAs', { name: user.name })}</span>{' '}
      <button type="button" class="btn ghost small" id="device-signout" onClick={() => void signOut()}>{t('notYou')}</button>
    </p>
  );
}

export function DevicePage() {
  const t = useT(WORDS);
  const common = useT(COMMON);
  const f = useFormat();
  const { user, ready } = useSession();
  const fromLink = useRoute().query.get('user_code') ?? '';
  const [code, setCode] = useState(fromLink);
  const [request, setRequest] = useState<Request | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const [outcome, setOutcome] = useState<{ approved: boolean; client: string } | null>(null);
  const [busy, setBusy] = useState<'lookup' | 'approve' | 'deny' | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const linkTried = useRef(false);
  const approveRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    document.title = `${t('title')} · Model Gateway`;
  }, [t('title')]);

  /** A refusal is shown; one that says the session ended has already sent the person back to sign in (api.ts, ConsoleApp.tsx). */
  const refused = (failure: unknown): void => setError(failure as Error);

  const lookUp = async (userCode: string): Promise<void> => {
    setBusy('lookup');
    setError(null);
    try {
      const found = await call('lookUpDevice', { body: { user_code: userCode.trim() } });
      setRequest(found);
      setChosen([]);
    } catch (failure) {
      refused(failure);
    } finally {
      setBusy(null);
    }
  };

  useEffect(() => {
    if (user && fromLink && !linkTried.current) {
      linkTried.current = true;
      void lookUp(fromLink);
    }
  }, [user]);

  useEffect(() => {
    if (request) approveRef.current?.focus();
  }, [request]);

  const answer = async (approve: boolean): Promise<void> => {
    if (!request) return;
    setBusy(approve ? 'approve' : 'deny');
    setError(null);
    try {
      if (approve) await call('approveDevice', { body: { user_code: request.user_code, ...(chosen.length ? { models: chosen } : {}) } });
      else await call('denyDevice', { body: { user_code: request.user_code } });
      setOutcome({ approved: approve, client: request.client_name });
      setRequest(null);
      setCode('');
      // The code has been answered: it leaves the address bar.
      history.replaceState(null, '', '/device');
    } catch (failure) {
      refused(failure);
      setRequest(null);
    } finally {
      setBusy(null);
    }
  };

  if (!ready) return <p class="loading" role="status">{common('loading')}</p>;
  if (!user) return <SignInStep />;

  if (outcome) {
    return (
      <section class="card narrow" id="device-done" role="status" aria-labelledby="device-done-title">
        <h1 id="device-done-title">{outcome.approved ? t('approvedTitle') : t('deniedTitle')}</h1>
        <p id="device-done-text" class="wrap-anywhere">{outcome.approved ? t('approvedText', { client: outcome.client }) : t('deniedText', { client: outcome.client })}</p>
        <button type="button" class="btn" id="device-another" onClick={() => setOutcome(null)}>{t('another')}</button>
      </section>
    );
  }

  if (request) {
    return (
      <section class="card medium" id="device-request" aria-labelledby="device-request-title">
        <h1 id="device-request-title">{t('requestTitle')}</h1>
        <Who />
        <ErrorAlert error={error} />
        <p class="device-client" id="device-client">{request.client_name}</p>
        <p>{request.account ? <Slotted text={t('asks')} slot="{account}"><strong id="device-account">{request.account}</strong></Slotted> : t('asksNoAccount')}</p>
        <p>{t('codeIs')} <code id="device-user-code">{request.user_code}</code></p>
        <p class="muted small">{t('asked', { time: f.time(request.created_at), expires: f.time(request.expires_at) })}</p>
        <Alert kind="warning"><p>{t('careful')}</p></Alert>
        <ModelPicker id="device-models" legend={t('modelsLegend')} models={request.models} chosen={chosen} onChange={setChosen} />
        <div class="actions-row">
          <button ref={approveRef} type="button" class="btn primary" id="device-approve" disabled={busy !== null} aria-busy={busy === 'approve' || undefined}
            onClick={() => void answer(true)}>{t('approve')}</button>
          <Button variant="danger" id="device-deny" busy={busy === 'deny'} disabled={busy !== null} onClick={() => void answer(false)}>{t('deny')}</Button>
        </div>
      </section>
    );
  }

  return (
    <section class="card narrow" id="device-code" aria-labelledby="device-code-title">
      <h1 id="device-code-title">{t('title')}</h1>
      <Who />
      <p class="muted">{t('codeIntro')}</p>
      <ErrorAlert error={error} />
      <form id="device-code-form" onSubmit={(e) => { e.preventDefault(); void lookUp(code); }} autoComplete="off">
        <TextField id="user-code" label={t('code')} value={code} onValue={setCode} required maxLength={32} placeholder="XXXX-XXXX"
          spellcheck={false} autoCapitalize="characters" autoComplete="off" autoFocus />
        <Button type="submit" variant="primary" id="device-code-button" busy={busy === 'lookup'}>{t('continue')}</Button>
      </form>
    </section>
  );
}
