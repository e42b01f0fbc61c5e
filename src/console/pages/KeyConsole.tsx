/**
 * #/key: the console opened with an API key, no sign-in (contract 1.3, 7.3 step 6). The key is pasted,
 * trimmed of spaces around it (with a notice: in a tool they cause a 401), kept in this tab's
 * sessionStorage only, and sent as a Bearer credential to GET /api/console/me and /api/console/logs.
 * A refused key is explained with the contract's meaning of its status (7.2) and not kept; "Forget the
 * key" removes it.
 */
import { useEffect, useState } from 'preact/hooks';
import { ApiError, call, type Answer } from '../api.ts';
import { COMMON } from '../i18n/common.ts';
import { useFormat, usd } from '../i18n/format.ts';
import { useLang, useT } from '../i18n/lang.ts';
import { familyWords } from '../i18n/errorWords.ts';
import { Help } from '../keyConsole/Help.tsx';
import { KEY_CONSOLE_WORDS } from '../keyConsole/keyConsoleWords.ts';
import { KeyLogTable } from '../keyConsole/KeyLogTable.tsx';
import { ModelTable } from '../models/ModelTable.tsx';
import { href } from '../router.ts';
import { Alert, ErrorAlert } from '../ui/Alert.tsx';
import { Button } from '../ui/Button.tsx';
import { CopyButton } from '../ui/CopyButton.tsx';
import { Badge, Card, PageHeader, Stat } from '../ui/Page.tsx';

/** Where the key is kept: this tab only, gone when it closes. */
export const KEY_ITEM = 'modelGateway.console.apiKey';

const LOG_ROWS = 50;

interface Loaded {
  readonly me: Answer<'getMe'>;
  readonly logs: Answer<'listKeyLogs'>;
  readonly at: string;
}

function readKey(): string | null {
  try {
    return sessionStorage.getItem(KEY_ITEM);
  } catch {
    return null;
  }
}

/** A refused key: the gateway's words, then what its status means and what to do (contract 7.2). */
function Refusal({ error }: { readonly error: Error }) {
  const t = useT(KEY_CONSOLE_WORDS);
  const { lang } = useLang();
  if (!(error instanceof ApiError) || error.status === 0) return <ErrorAlert error={error} />;
  const family = familyWords(error.status, lang);
  return (
    <Alert kind="error" title={family.title}>
      <p>{family.meaning}</p>
      <p><strong>{t('whatToDo')}</strong> {family.action}</p>
      <p class="error-message" id="key-error-message">{error.message} <code>[{error.code}]</code></p>
    </Alert>
  );
}

function OpenForm({ onOpen, busy }: { readonly onOpen: (raw: string) => void; readonly busy: boolean }) {
  const t = useT(KEY_CONSOLE_WORDS);
  const [raw, setRaw] = useState('');
  return (
    <form id="key-form" onSubmit={(e) => { e.preventDefault(); if (raw.trim()) onOpen(raw); }} autoComplete="off">
      <div class="field">
        <label for="key-input">{t('key')}</label>
        <input id="key-input" name="key" type="password" value={raw} placeholder="sk-…" spellcheck={false} autoCapitalize="off" autoComplete="off" required
          aria-describedby="key-input-hint" onInput={(e) => setRaw(e.currentTarget.value)} />
        <p class="hint" id="key-input-hint">{t('keyHint')}</p>
      </div>
      <Button type="submit" variant="primary" id="key-open" busy={busy}>{t('open')}</Button>
    </form>
  );
}

function UrlRow({ label, url }: { readonly label: string; readonly url: string }) {
  const t = useT(KEY_CONSOLE_WORDS);
  return (
    <>
      <dt>{label}</dt>
      <dd class="secret"><code>{url}</code><CopyButton text={url} ariaLabel={t('copyUrl', { what: label })} /></dd>
    </>
  );
}

function KeyFacts({ loaded }: { readonly loaded: Loaded }) {
  const t = useT(KEY_CONSOLE_WORDS);
  const common = useT(COMMON);
  const f = useFormat();
  const { me } = loaded;
  const k = me.key;
  const base = location.origin;
  const models = me.models;
  return (
    <>
      <div class="grid stats">
        <Stat label={t('balance')} testId="key-balance" value={<span id="key-balance-value">{usd(me.balance.remaining)}</span>}
          sub={`${t('used', { used: usd(me.balance.used) })}${me.account.name ? ` · ${t('account', { account: me.account.name })}` : ''}`} />
        <div class="stat" data-testid="key-facts">
          <div class="stat-label">{t('keyCard')}</div>
          <div class="stat-value wrap-anywhere" id="key-name">{k.name}</div>
          <dl class="facts">
            <dt>{t('prefix')}</dt><dd><code>{k.prefix}</code></dd>
            <dt>{t('status')}</dt><dd><Badge tone={k.status === 'enabled' ? 'ok' : 'bad'}>{k.status === 'enabled' ? common('enabled') : common('disabled')}</Badge></dd>
            <dt>{t('expires')}</dt><dd>{k.expires_at ? f.time(k.expires_at) : t('never')}</dd>
            {k.created_at && <><dt>{t('created')}</dt><dd>{f.date(k.created_at)}</dd></>}
          </dl>
        </div>
        <div class="stat" data-testid="key-permissions">
          <div class="stat-label">{t('permissions')}</div>
          <dl class="facts">
            <dt>{t('allowed')}</dt><dd id="key-allowed">{k.models ? k.models.join(', ') : t('everyModel')}</dd>
            <dt>{t('rate')}</dt><dd>{k.rpm ? t('perMinute', { n: f.number(k.rpm) }) : t('unlimited')}</dd>
            <dt>{t('parallel')}</dt><dd>{k.concurrency ? t('atOnce', { n: f.number(k.concurrency) }) : t('unlimited')}</dd>
          </dl>
        </div>
      </div>
      <Card title={t('modelsTitle')} id="key-models">
        <p class="muted" id="key-models-count">{models.length === 1 ? t('modelsCountOne') : t('modelsCount', { count: models.length })}</p>
        <ModelTable models={models} empty={t('noModels')} testId="key-models-table" />
      </Card>
      <Card title={t('connectTitle')} id="key-connect">
        <p class="muted">{t('connectIntro')}</p>
        <dl class="secret-rows" id="key-urls">
          <UrlRow label={t('baseUrl')} url={base} />
          <UrlRow label={t('openAi')} url={`${base}/v1`} />
        </dl>
        <p class="small">{t('v1Note')}</p>
        <p class="small">{t('checkKey')}</p>
        <pre id="key-curl" tabIndex={0}>{`curl ${base}/v1/models \\\n  -H "Authorization: Bearer $API_KEY"`}</pre>
      </Card>
    </>
  );
}

export function KeyConsolePage() {
  const t = useT(KEY_CONSOLE_WORDS);
  const common = useT(COMMON);
  const f = useFormat();
  const [key, setKey] = useState<string | null>(readKey);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const [trimmed, setTrimmed] = useState(false);

  const load = async (apiKey: string): Promise<void> => {
    setBusy(true);
    try {
      const [me, logs] = await Promise.all([call('getMe', { apiKey }), call('listKeyLogs', { apiKey, query: { limit: LOG_ROWS } })]);
      sessionStorage.setItem(KEY_ITEM, apiKey);
      setKey(apiKey);
      setLoaded({ me, logs, at: new Date().toISOString() });
      setError(null);
    } catch (failure) {
      setError(failure as Error);
      // A key the gateway refuses (wrong, disabled, expired) is not kept.
      if (failure instanceof ApiError && (failure.status === 401 || failure.status === 403)) forget(false);
    } finally {
      setBusy(false);
    }
  };

  const forget = (clearError = true): void => {
    sessionStorage.removeItem(KEY_ITEM);
    setKey(null);
    setLoaded(null);
    if (clearError) {
      setError(null);
      setTrimmed(false);
    }
  };

  useEffect(() => {
    document.title = `${loaded ? t('pageTitle', { name: loaded.me.key.name }) : t('title')} · Model Gateway`;
  }, [loaded?.me.key.name, t('title')]);

  useEffect(() => {
    if (key) void load(key);
  }, []);

  const open = (raw: string): void => {
    const clean = raw.trim();
    setTrimmed(clean !== raw);
    setError(null);
    void load(clean);
  };

  if (!loaded) {
    return (
      <>
        <section class="card narrow" id="key-signin" aria-labelledby="key-title">
          <h1 id="key-title">{t('title')}</h1>
          <p class="muted">{t('intro')}</p>
          {error && <Refusal error={error} />}
          {key && busy && !error ? <p class="loading" role="status">{common('loading')}</p> : <OpenForm onOpen={open} busy={busy} />}
          <p class="muted small"><a href={href('/signin')}>{t('signInInstead')}</a></p>
        </section>
        <Help />
      </>
    );
  }

  return (
    <div class="key-console">
      <PageHeader title={t('pageTitle', { name: loaded.me.key.name })} description={t('pageIntro')}
        actions={<>
          <Button id="key-refresh" busy={busy} onClick={() => key && void load(key)}>{t('refresh')}</Button>
          <Button id="key-signout" onClick={() => forget()}>{t('signOut')}</Button>
        </>} />
      {trimmed && <Alert kind="info" title={t('trimmedTitle')}><p id="key-trimmed">{t('trimmedText')}</p></Alert>}
      {error && <Refusal error={error} />}
      <KeyFacts loaded={loaded} />
      <Card title={t('logsTitle')} id="key-logs-card" actions={<span class="muted small" role="status" id="key-updated">{t('updated', { time: f.time(loaded.at) })}</span>}>
        <p class="muted">{t('logsIntro')}</p>
        <KeyLogTable logs={loaded.logs.data} />
      </Card>
      <Help />
    </div>
  );
}
