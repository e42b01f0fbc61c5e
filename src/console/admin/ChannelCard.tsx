/**
 * One channel: its provider, status and health, base URL, key (set or not, its last 4 characters),
 * models (those without a price marked, with the way to Models & prices) and routing; its actions:
 * test (the upstream's status, time and words, or the contract's code of the refusal, shown in the
 * card), edit in place, disable or enable, delete. Every value from the gateway is text.
 */
import { useEffect, useState } from 'preact/hooks';
import { call, type Answer } from '../api.ts';
import { useFormat } from '../i18n/format.ts';
import { useT } from '../i18n/lang.ts';
import { href } from '../router.ts';
import { ErrorAlert } from '../ui/Alert.tsx';
import { Button } from '../ui/Button.tsx';
import { Badge } from '../ui/Page.tsx';
import { SelectField } from '../ui/fields.tsx';
import { CHANNELS_WORDS } from './channelsWords.ts';
import { draftOf, type ChannelView, type ChannelDraft } from './channelDraft.ts';
import { ChannelForm } from './ChannelForm.tsx';

type TestResult = Answer<'testChannel'>;

export interface ChannelCardProps {
  readonly channel: ChannelView;
  /** Model names that have no price (not served until priced). */
  readonly unpriced: ReadonlySet<string>;
  readonly busy: string | null;
  readonly editError: Error | null;
  readonly editing: boolean;
  readonly onEdit: (open: boolean) => void;
  readonly onSave: (draft: ChannelDraft) => void;
  readonly onToggle: () => void;
  readonly onDelete: () => void;
}

function TestOutcome({ result }: { readonly result: TestResult }) {
  const t = useT(CHANNELS_WORDS);
  const f = useFormat();
  return (
    <div class={`test-result ${result.ok ? 'ok' : 'bad'}`} data-testid="channel-test-result" role="status">
      <Badge tone={result.ok ? 'ok' : 'bad'}>{result.ok ? t('testOk') : (result.error_code ?? t('testFailed'))}</Badge>{' '}
      <span class="muted">{t('testFacts', { status: result.status === null ? t('noStatus') : `HTTP ${result.status}`, ms: f.ms(result.latency_ms), model: result.model, upstream: result.upstream_model })}</span>
      <code class="test-message">{result.message}</code>
    </div>
  );
}

export function ChannelCard({ channel: c, unpriced, busy, editError, editing, onEdit, onSave, onToggle, onDelete }: ChannelCardProps) {
  const t = useT(CHANNELS_WORDS);
  const f = useFormat();
  const models = Object.entries(c.models);
  const [testModel, setTestModel] = useState(models[0]?.[0] ?? '');
  const [test, setTest] = useState<{ running: boolean; result: TestResult | null; error: Error | null }>({ running: false, result: null, error: null });
  const cooling = c.health.cooling_down_until;

  const runTest = async (): Promise<void> => {
    setTest({ running: true, result: null, error: null });
    try {
      const result = await call('testChannel', { body: { name: c.name, ...(testModel ? { model: testModel } : {}) } });
      setTest({ running: false, result, error: null });
    } catch (error) {
      setTest({ running: false, result: null, error: error as Error });
    }
  };

  // The name in element ids: letters, digits and '-' as they are, anything else as _ and its code (unique per name).
  const slug = c.name.replace(/[^A-Za-z0-9-]/g, (ch) => `_${ch.charCodeAt(0).toString(16)}`);
  // The form opened in place takes the focus (its name is fixed: the provider is the first thing to change).
  useEffect(() => {
    if (editing) document.getElementById(`edit-${slug}-type`)?.focus();
  }, [editing]);
  return (
    <article class="card channel" data-channel={c.name} aria-labelledby={`channel-${slug}-name`}>
      <header class="card-head">
        <h2 id={`channel-${slug}-name`} class="channel-name">{c.name}</h2>
        <div class="badges">
          <Badge tone="muted">{c.type}</Badge>
          <Badge tone={c.status !== 'enabled' ? 'bad' : cooling ? 'warn' : 'ok'}>{c.status === 'enabled' ? t('statusEnabled') : t('statusDisabled')}</Badge>
        </div>
      </header>
      <dl class="facts">
        <dt>{t('baseUrl')}</dt>
        <dd><code>{c.base_url ?? t('offline')}</code>{c.proxy && <div class="muted">{t('via', { proxy: c.proxy })}</div>}</dd>
        <dt>{t('apiKey')}</dt>
        <dd data-testid="channel-key">{c.api_key.set ? (c.api_key.last4 ? t('keySetLast', { last4: c.api_key.last4 }) : t('keySet')) : t('keyNone')}</dd>
        <dt>{t('models')}</dt>
        <dd>
          <ul class="model-list" data-testid="channel-models">
            {models.map(([name, upstream]) => (
              <li key={name} data-model={name}>
                <code>{name}</code>{upstream !== name && <span class="muted"> → <code>{upstream}</code></span>}
                {unpriced.has(name) && <> <a class="badge warn" href={href('/admin/models', { price: name })}>{t('unpricedBadge')}</a></>}
              </li>
            ))}
          </ul>
        </dd>
        <dt>{t('colRouting')}</dt>
        <dd>{t('routing', { priority: c.priority, weight: c.weight, timeout: f.ms(c.timeout_ms) })}</dd>
        <dt>{t('colHealth')}</dt>
        <dd data-testid="channel-health">
          {t('health', { served: f.number(c.health.served), failed: f.number(c.health.failed) })}
          {cooling ? ` · ${t('coolingDown', { time: f.time(cooling) })}` : c.health.failures_in_a_row > 0 ? ` · ${t('inARow', { n: c.health.failures_in_a_row })}` : ''}
          {c.health.last_failure && <div class="muted last-failure">{t('lastFailure', { message: c.health.last_failure })}</div>}
        </dd>
      </dl>
      <div class="row-actions channel-actions">
        {models.length > 1 && (
          <div class="test-model">
            <SelectField id={`channel-${slug}-test-model`} label={t('testModel')} value={testModel} onValue={setTestModel} options={models.map(([name]) => [name, name] as const)} />
          </div>
        )}
        <Button small busy={test.running} aria-label={`${t('test')} ${c.name}`} onClick={() => void runTest()}>{t('test')}</Button>
        <Button small aria-expanded={editing} aria-label={`${t('edit')} ${c.name}`} onClick={() => onEdit(!editing)}>{t('edit')}</Button>
        <Button small busy={busy === `toggle:${c.name}`} aria-label={`${c.status === 'enabled' ? t('disable') : t('enable')} ${c.name}`} onClick={onToggle}>
          {c.status === 'enabled' ? t('disable') : t('enable')}
        </Button>
        <Button small variant="danger" busy={busy === `delete:${c.name}`} aria-label={`${t('delete')} ${c.name}`} onClick={onDelete}>{t('delete')}</Button>
      </div>
      {test.running && <p class="muted" role="status">{t('testing', { name: c.name })}</p>}
      {test.result && <TestOutcome result={test.result} />}
      <ErrorAlert error={test.error} />
      {editing && (
        <div class="edit-in-place">
          <h3>{t('editTitle', { name: c.name })}</h3>
          <ChannelForm id={`edit-${slug}`} initial={draftOf(c)} editing={c} busy={busy === `save:${c.name}`} error={editError} submitLabel={t('save')}
            onSubmit={onSave} onCancel={() => onEdit(false)} />
        </div>
      )}
    </article>
  );
}
