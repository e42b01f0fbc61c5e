/**
 * /signup: a person makes their own user (on an account of the same name) and is signed in, when the
 * admins allow it (GET /api/console/session says how: off, open, or with an invitation code, which a link
 * may carry as ?code=). Checked in the browser as the gateway checks it; the gateway's refusal (a taken
 * name, a code that cannot be used, too many tries) in its own words.
 */
import { useEffect, useState } from 'preact/hooks';
import { call } from '../api.ts';
import { useT } from '../i18n/lang.ts';
import { COMMON } from '../i18n/common.ts';
import { href, navigate, useRoute } from '../router.ts';
import { useSession } from '../session.ts';
import { useApi } from '../useApi.ts';
import { Alert, ErrorAlert } from '../ui/Alert.tsx';
import { Button } from '../ui/Button.tsx';
import { TextField } from '../ui/fields.tsx';
import { nextPage } from './SignIn.tsx';
import { SIGN_UP_WORDS } from './signUpWords.ts';
import { MIN_PASSWORD_LENGTH as MIN_PASSWORD } from '../../contract/values.ts';

const NAME = /^[A-Za-z0-9._@-]{1,64}$/;

export function SignUpPage() {
  const t = useT(SIGN_UP_WORDS);
  const common = useT(COMMON);
  const { user, setUser } = useSession();
  const { query } = useRoute();
  const session = useApi('getSession');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [code, setCode] = useState(query.get('code') ?? '');
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const mode = session.data?.sign_up ?? 'off';

  useEffect(() => {
    document.title = `${t('title')} · Model Gateway`;
    if (!user) return;
    const [path = '/', rest = ''] = nextPage(query.get('next')).split('?', 2);
    navigate(path, Object.fromEntries(new URLSearchParams(rest)), true);
  }, [user]);

  const problems = {
    name: NAME.test(name.trim()) ? null : t('badName'),
    password: password.length < MIN_PASSWORD ? t('tooShort') : null,
    repeat: repeat !== password ? t('mismatch') : null,
    code: mode === 'invitation' && !code.trim() ? t('codeNeeded') : null,
  };

  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    setTried(true);
    if (problems.name || problems.password || problems.repeat || problems.code) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await call('signUp', { body: { name: name.trim(), password, ...(mode === 'invitation' ? { invitation_code: code.trim() } : {}) } });
      setUser(answer.user);
    } catch (failure) {
      setError(failure as Error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="card narrow" aria-labelledby="signup-title">
      <h1 id="signup-title">{t('title')}</h1>
      <ErrorAlert error={session.error} onRetry={() => void session.reload()} />
      {session.loading && <p class="loading" role="status">{common('loading')}</p>}
      {session.data && mode === 'off' && (
        <Alert kind="warning" title={t('closed')}><p id="signup-closed">{t('closedText')}</p></Alert>
      )}
      {session.data && mode !== 'off' && (
        <>
          <p class="muted">{mode === 'invitation' ? t('introInvitation') : t('intro')}</p>
          <ErrorAlert error={error} />
          <form id="signup-form" onSubmit={submit} noValidate>
            <TextField id="signup-name" label={t('name')} hint={t('nameHint')} value={name} onValue={setName} autoComplete="username" required autoFocus maxLength={64}
              spellcheck={false} autoCapitalize="off" error={tried ? problems.name : null} />
            <TextField id="signup-password" label={t('password')} hint={t('passwordHint')} type="password" value={password} onValue={setPassword} autoComplete="new-password"
              required minLength={MIN_PASSWORD} error={tried ? problems.password : null} />
            <TextField id="signup-repeat" label={t('repeat')} type="password" value={repeat} onValue={setRepeat} autoComplete="new-password" required
              error={tried || (repeat !== '' && repeat.length >= password.length) ? problems.repeat : null} />
            {mode === 'invitation' && (
              <TextField id="signup-code" label={t('code')} hint={t('codeHint')} value={code} onValue={setCode} required maxLength={128} spellcheck={false}
                autoCapitalize="characters" autoComplete="off" error={tried ? problems.code : null} />
            )}
            <Button type="submit" variant="primary" busy={busy}>{t('submit')}</Button>
          </form>
        </>
      )}
      <p class="muted">{t('haveAccount')} <a id="signin-link" href={href('/signin', { next: query.get('next') ?? undefined })}>{t('signIn')}</a></p>
    </section>
  );
}
