/** /setup (the link `serve` prints, #setup=TOKEN): the first admin chooses a name and password, and is signed in. */
import { useEffect, useState } from 'preact/hooks';
import { call } from '../api.ts';
import { useT } from '../i18n/lang.ts';
import { navigate, useRoute } from '../router.ts';
import { useSession } from '../session.ts';
import { Alert, ErrorAlert } from '../ui/Alert.tsx';
import { Button } from '../ui/Button.tsx';
import { TextField } from '../ui/fields.tsx';
import { SIGN_IN_WORDS } from './signInWords.ts';
import { MIN_PASSWORD_LENGTH } from '../../contract/values.ts';

export function SetupPage() {
  const t = useT(SIGN_IN_WORDS);
  const { setUser } = useSession();
  const token = useRoute().query.get('setup') ?? '';
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  useEffect(() => {
    document.title = `${t('setupTitle')} · Model Gateway`;
  }, []);

  const mismatch = repeat !== '' && repeat !== password;
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    if (mismatch) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await call('setUp', { body: { token, name: name.trim(), password } });
      setUser(answer.user);
      navigate('/', undefined, true);
    } catch (failure) {
      setError(failure as Error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="card narrow" aria-labelledby="setup-title">
      <h1 id="setup-title">{t('setupTitle')}</h1>
      <p class="muted">{t('setupIntro')}</p>
      {!token && <Alert kind="error">{t('noToken')}</Alert>}
      <ErrorAlert error={error} />
      <form id="setup-form" onSubmit={submit}>
        <TextField id="setup-name" label={t('name')} value={name} onValue={setName} autoComplete="username" required maxLength={64} spellcheck={false} autoCapitalize="off" />
        <TextField id="setup-password" label={t('password')} hint={t('passwordHint')} type="password" value={password} onValue={setPassword} autoComplete="new-password" required minLength={MIN_PASSWORD_LENGTH} />
        <TextField id="setup-repeat" label={t('repeat')} type="password" value={repeat} onValue={setRepeat} autoComplete="new-password" required error={mismatch ? t('mismatch') : null} />
        <Button type="submit" variant="primary" busy={busy} disabled={!token || mismatch}>{t('setupSubmit')}</Button>
      </form>
    </section>
  );
}
