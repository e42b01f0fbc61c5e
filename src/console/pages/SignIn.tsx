/** /signin: a user name and password; afterwards the page the person was sent here from. */
import { useEffect, useState } from 'preact/hooks';
import { ApiError, call } from '../api.ts';
import { useT } from '../i18n/lang.ts';
import { href, navigate, useRoute } from '../router.ts';
import { useSession } from '../session.ts';
import { Alert, ErrorAlert } from '../ui/Alert.tsx';
import { useApi } from '../useApi.ts';
import { Button } from '../ui/Button.tsx';
import { useCountdown } from '../ui/useCountdown.ts';
import { TextField } from '../ui/fields.tsx';
import { SIGN_IN_WORDS } from './signInWords.ts';

/** Only a page of this console (a path of the hash), never another address. */
export function nextPage(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

export function SignInPage() {
  const t = useT(SIGN_IN_WORDS);
  const { user, setUser } = useSession();
  const { query } = useRoute();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  // Throttled (429): the button waits what the gateway asked, and says how long.
  const [waitUntil, setWaitUntil] = useState<number | null>(null);
  const wait = useCountdown(waitUntil);
  // Whether a visitor may sign up, and the admins' notice: what the session question answers everyone.
  const open = useApi('getSession');
  const goOn = (): void => {
    const [path = '/', rest = ''] = nextPage(query.get('next')).split('?', 2);
    navigate(path, Object.fromEntries(new URLSearchParams(rest)), true);
  };

  useEffect(() => {
    document.title = `${t('title')} · Model Gateway`;
    if (user) goOn();
  }, [user]);

  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await call('signIn', { body: { name: name.trim(), password } });
      setUser(answer.user);
    } catch (failure) {
      // A person typed a password: the contract's words for API clients ("Invalid token: ...") are not theirs.
      setError(failure instanceof ApiError && failure.code === 'invalid_credentials' ? new Error(t('wrong')) : (failure as Error));
      if (failure instanceof ApiError && failure.retryAfter) setWaitUntil(Date.now() + failure.retryAfter * 1000);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="card narrow" aria-labelledby="signin-title">
      <h1 id="signin-title">{t('title')}</h1>
      <p class="muted">{t('intro')}</p>
      {query.get('ended') === '1' && <Alert kind="info" title={t('endedTitle')}><p id="signin-ended">{t('ended')}</p></Alert>}
      {open.data?.notice && <Alert kind="info" title={t('notice')}><p class="notice-text" id="signin-notice">{open.data.notice}</p></Alert>}
      <ErrorAlert error={error} />
      <form id="signin-form" onSubmit={submit}>
        <TextField id="signin-name" label={t('name')} value={name} onValue={setName} autoComplete="username" required autoFocus maxLength={64} spellcheck={false} autoCapitalize="off" />
        <TextField id="signin-password" label={t('password')} type="password" value={password} onValue={setPassword} autoComplete="current-password" required />
        <Button type="submit" variant="primary" busy={busy} disabled={wait > 0}>{wait > 0 ? t('waiting', { seconds: wait }) : t('submit')}</Button>
      </form>
      {open.data?.sign_up && open.data.sign_up !== 'off' && (
        <p>{t('noAccount')} <a id="signup-link" href={href('/signup', { next: query.get('next') ?? undefined })}>{t('signUp')}</a></p>
      )}
      <p class="muted small"><a href={href('/key')}>{t('withKey')}</a></p>
    </section>
  );
}
