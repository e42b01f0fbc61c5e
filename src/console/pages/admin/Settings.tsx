/**
 * #/admin/settings: the gateway settings an admin changes while it runs: who may sign up (nobody, anyone,
 * or with an invitation code), the balance a new account starts with (exact USD), how long request logs
 * are kept (and what this instance keeps when serve's flag wins), and a notice for the sign-in page. Save
 * sends only what changed; a setting goes back to its default on its own button.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { call, type Answer, type BodyOf } from '../../api.ts';
import { ADMIN_WORDS } from '../../admin/adminWords.ts';
import { ChangeStatus, useChange } from '../../admin/change.tsx';
import { SETTINGS_WORDS, SIGN_UP_MODES } from '../../admin/settingsWords.ts';
import { cleanUsd, microOf, usdProblem } from '../../admin/usd.ts';
import type { SignUpMode } from '../../../contract/api/settings.ts';
import { COMMON } from '../../i18n/common.ts';
import { useT } from '../../i18n/lang.ts';
import { href } from '../../router.ts';
import { useApi } from '../../useApi.ts';
import { ErrorAlert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { TextField } from '../../ui/fields.tsx';
import { Badge, Card, PageHeader } from '../../ui/Page.tsx';
import '../../styles/admin.css';

type Settings = Answer<'getSettings'>;
type Name = Settings['defaults'][number];
const MAX_NOTICE = 500;
const MAX_DAYS = 36_500;
const UNPRINTABLE = /[\u0000-\u0009\u000b-\u001f\u007f]/;

interface Draft {
  readonly signUp: SignUpMode;
  readonly balance: string;
  readonly retention: string;
  readonly notice: string;
}

const draftOf = (s: Settings): Draft => ({ signUp: s.sign_up, balance: s.new_user_balance.usd, retention: String(s.log_retention_days), notice: s.notice ?? '' });

/** What changed from `s`, as the API takes it. */
function changesOf(s: Settings, d: Draft): BodyOf<'changeSettings'> {
  const body: { -readonly [K in keyof BodyOf<'changeSettings'>]: BodyOf<'changeSettings'>[K] } = {};
  if (d.signUp !== s.sign_up) body.sign_up = d.signUp;
  const balance = microOf(d.balance);
  if (balance !== null && balance !== BigInt(s.new_user_balance.micro_usd)) body.new_user_balance_usd = cleanUsd(d.balance);
  if (Number(d.retention) !== s.log_retention_days) body.log_retention_days = Number(d.retention);
  if (d.notice !== (s.notice ?? '')) body.notice = d.notice;
  return body;
}

function Default({ settings, name, onReset }: { readonly settings: Settings; readonly name: Name; readonly onReset: () => void }) {
  const t = useT(SETTINGS_WORDS);
  return settings.defaults.includes(name)
    ? <Badge tone="muted">{t('isDefault')}</Badge>
    : <Button small variant="ghost" id={`settings-reset-${name}`} onClick={onReset}>{t('reset')}</Button>;
}

function SettingsForm({ settings, onSaved }: { readonly settings: Settings; readonly onSaved: (next: Settings, said: string) => void }) {
  const t = useT(SETTINGS_WORDS);
  const a = useT(ADMIN_WORDS);
  const noticeId = 'settings-notice';
  const [draft, setDraft] = useState(() => draftOf(settings));
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  // A draft follows the settings when they change (after a save), never on the form's first effect: Preact runs
  // that a frame after the form appears, and it wiped what was typed in between (the console journey test typed there).
  const draftFrom = useRef(settings);
  useEffect(() => {
    if (draftFrom.current === settings) return;
    draftFrom.current = settings;
    setDraft(draftOf(settings));
  }, [settings]);
  const set = <K extends keyof Draft>(field: K) => (value: Draft[K]): void => setDraft((d) => ({ ...d, [field]: value }));
  const problems = {
    balance: usdProblem(draft.balance, { zero: true }),
    retention: /^\d+$/.test(draft.retention.trim()) && Number(draft.retention) <= MAX_DAYS ? null : t('retentionBad'),
    notice: UNPRINTABLE.test(draft.notice) ? t('noticeBad') : draft.notice.length > MAX_NOTICE ? t('noticeLong', { max: MAX_NOTICE }) : null,
  };

  const send = async (body: BodyOf<'changeSettings'>, said: string): Promise<void> => {
    setBusy(true);
    setError(null);
    try {
      onSaved(await call('changeSettings', { body }), said);
    } catch (failure) {
      setError(failure as Error);
    } finally {
      setBusy(false);
    }
  };
  const submit = (e: Event): void => {
    e.preventDefault();
    setTried(true);
    if (problems.balance || problems.retention || problems.notice) return;
    const body = changesOf(settings, draft);
    if (Object.keys(body).length === 0) onSaved(settings, t('nothingChanged'));
    else void send(body, t('saved'));
  };
  const reset = (name: Name, label: string): void => {
    void send({ [name === 'new_user_balance' ? 'new_user_balance_usd' : name]: null }, t('resetDone', { setting: label }));
  };

  return (
    <form id="settings-form" onSubmit={submit} noValidate autoComplete="off">
      <ErrorAlert error={error} />
      <Card title={t('signUp')} actions={<Default settings={settings} name="sign_up" onReset={() => reset('sign_up', t('signUp'))} />}>
        <fieldset class="choices" aria-describedby="settings-sign-up-hint">
          <legend class="sr-only">{t('signUp')}</legend>
          {SIGN_UP_MODES.map((mode) => (
            <label class="check" key={mode}>
              <input type="radio" name="sign-up" id={`settings-sign-up-${mode}`} value={mode} checked={draft.signUp === mode} onChange={() => set('signUp')(mode)} />
              {t(mode)}
            </label>
          ))}
        </fieldset>
        <p class="hint muted small" id="settings-sign-up-hint">{t('signUpHint')} {draft.signUp === 'invitation' && <a href={href('/admin/invitations')}>{t('invitationsLink')}</a>}</p>
        <div class="setting-line">
          <TextField id="settings-balance" label={t('balance')} hint={`${t('balanceHint')} ${a('usdHint')}`} value={draft.balance} onValue={set('balance')} inputMode="decimal"
            maxLength={32} spellcheck={false} error={tried && problems.balance ? a(problems.balance) : null} />
          <Default settings={settings} name="new_user_balance" onReset={() => reset('new_user_balance', t('balance'))} />
        </div>
      </Card>
      <Card title={t('logsCard')} actions={<Default settings={settings} name="log_retention_days" onReset={() => reset('log_retention_days', t('retention'))} />}>
        <TextField id="settings-retention" label={t('retention')} hint={t('retentionHint')} type="number" inputMode="numeric" min={0} max={MAX_DAYS} value={draft.retention}
          onValue={set('retention')} error={tried ? problems.retention : null} />
        {settings.log_retention_days_in_effect !== settings.log_retention_days && (
          <p class="muted" id="settings-retention-flag">{t('retentionFlag', { days: settings.log_retention_days_in_effect })}</p>
        )}
      </Card>
      <Card title={t('signInCard')} actions={<Default settings={settings} name="notice" onReset={() => reset('notice', t('notice'))} />}>
        <div class={`field${tried && problems.notice ? ' invalid' : ''}`}>
          <label for={noticeId}>{t('notice')}</label>
          <textarea id={noticeId} name="notice" rows={4} maxLength={MAX_NOTICE} value={draft.notice}
            aria-describedby={`${noticeId}-hint${tried && problems.notice ? ` ${noticeId}-error` : ''}`} aria-invalid={tried && problems.notice ? true : undefined}
            onInput={(e) => set('notice')(e.currentTarget.value)} />
          <p class="hint" id={`${noticeId}-hint`}>{t('noticeHint')} {t('noticeCount', { count: draft.notice.length, max: MAX_NOTICE })}</p>
          {tried && problems.notice && <p class="field-error" id={`${noticeId}-error`} role="alert">{problems.notice}</p>}
        </div>
      </Card>
      <Button type="submit" variant="primary" id="settings-submit" busy={busy}>{t('save')}</Button>
    </form>
  );
}

export function AdminSettingsPage() {
  const t = useT(SETTINGS_WORDS);
  const common = useT(COMMON);
  const a = useT(ADMIN_WORDS);
  const loaded = useApi('getSettings');
  const [settings, setSettings] = useState<Settings | null>(null);
  const change = useChange();
  const shown = settings ?? loaded.data;
  return (
    <>
      <PageHeader title={t('title')} description={<>{t('intro')} {a('auditNote')}</>} />
      <ChangeStatus change={change} id="settings" />
      <ErrorAlert error={loaded.error} onRetry={() => void loaded.reload()} />
      {loaded.loading && <p class="loading" role="status">{common('loading')}</p>}
      {shown && <SettingsForm settings={shown} onSaved={(next, said) => { setSettings(next); void change.run('saved', async () => said); }} />}
    </>
  );
}
