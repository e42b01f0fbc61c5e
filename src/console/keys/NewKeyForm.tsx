/**
 * The form that makes a key (POST /api/console/keys): a name, the models it may use (from the
 * catalogue), an expiry day, and its limits. The answer, with the secret, goes to `onCreated`; the
 * form is cleared for the next key. A refusal is shown above the form in the gateway's words.
 */
import { useState } from 'preact/hooks';
import { call, type BodyOf } from '../api.ts';
import { useT } from '../i18n/lang.ts';
import { ErrorAlert } from '../ui/Alert.tsx';
import { Button } from '../ui/Button.tsx';
import { TextField } from '../ui/fields.tsx';
import { useSend } from '../ui/send.ts';
import { KEY_WORDS } from './keyWords.ts';
import { LimitFields } from './LimitFields.tsx';
import { EMPTY_LIMITS, limitsBody, type LimitsForm } from './limits.ts';
import { expiryOf } from '../day.ts';
import { ModelPicker } from './ModelPicker.tsx';
import type { CreatedKey } from './types.ts';

const today = (): string => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

export function NewKeyForm({ models, onCreated }: { readonly models: readonly string[] | null; readonly onCreated: (answer: CreatedKey) => void }) {
  const t = useT(KEY_WORDS);
  const [name, setName] = useState('');
  const [expires, setExpires] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const [limits, setLimits] = useState<LimitsForm>(EMPTY_LIMITS);
  const { busy, error, send } = useSend();

  const submit = (e: Event): void => {
    e.preventDefault();
    const body: BodyOf<'createKey'> = { name: name.trim(), ...limitsBody(limits, false), ...expiryOf(expires) };
    if (chosen.length > 0) body.models = chosen;
    void send(async () => {
      const answer = await call('createKey', { body });
      setName('');
      setExpires('');
      setChosen([]);
      setLimits(EMPTY_LIMITS);
      onCreated(answer);
    });
  };

  return (
    <form id="new-key-form" onSubmit={submit} autoComplete="off">
      <ErrorAlert error={error} />
      <div class="form-grid">
        <TextField id="new-key-name" label={t('name')} hint={t('nameHint')} value={name} onValue={setName} required maxLength={64}
          pattern="[A-Za-z0-9._@\-]{1,64}" placeholder={t('namePlaceholder')} spellcheck={false} autoCapitalize="off" />
        <TextField id="new-key-expires" label={t('expiresLabel')} hint={t('expiresHint')} type="date" value={expires} onValue={setExpires} min={today()} />
      </div>
      <details class="form-section" id="new-key-models-section">
        <summary>{t('modelsLegend')} <span class="muted small">({chosen.length ? t('modelsChosen', { count: chosen.length }) : t('modelsAll')})</span></summary>
        <ModelPicker id="new-key-models" hideLegend models={models} chosen={chosen} onChange={setChosen} />
      </details>
      <details class="form-section" id="new-key-limits">
        <summary>{t('limitsLegend')}</summary>
        <p class="hint">{t('limitsHint')}</p>
        <LimitFields idPrefix="new-key" form={limits} onChange={setLimits} editing={false} />
      </details>
      <Button type="submit" variant="primary" busy={busy} id="new-key-button">{t('create')}</Button>
    </form>
  );
}
