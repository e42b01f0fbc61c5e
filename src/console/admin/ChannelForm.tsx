/**
 * A channel's settings as a form, for a new channel (in a dialog) and for one being edited in place
 * (in its card): the provider, the base URL, the key (write-only: when editing, empty keeps it), the
 * models with the upstream's name for each, routing, timeout, proxy and the Responses API. The fields
 * are checked as the gateway checks them when the form is sent; the gateway's refusal shows above.
 */
import { useState } from 'preact/hooks';
import { COMMON } from '../i18n/common.ts';
import { useT } from '../i18n/lang.ts';
import { ErrorAlert } from '../ui/Alert.tsx';
import { Button } from '../ui/Button.tsx';
import { Checkbox, SelectField, TextField } from '../ui/fields.tsx';
import { ADMIN_WORDS, NAME_PATTERN } from './adminWords.ts';
import { CHANNELS_WORDS } from './channelsWords.ts';
import { CHANNEL_TYPES, problemsOf, type ChannelView, type ChannelDraft, type Problem } from './channelDraft.ts';
import { PairsEditor } from './PairsEditor.tsx';

const NAME = NAME_PATTERN;

export interface ChannelFormProps {
  /** The form's id; its fields are ID-name, ID-type, ID-base-url, ... */
  readonly id: string;
  readonly initial: ChannelDraft;
  /** The channel being edited (its name fixed, its key write-only); absent for a new one. */
  readonly editing?: ChannelView;
  readonly busy: boolean;
  readonly error: Error | null;
  readonly submitLabel: string;
  readonly onSubmit: (draft: ChannelDraft) => void;
  readonly onCancel: () => void;
}

export function ChannelForm({ id, initial, editing, busy, error, submitLabel, onSubmit, onCancel }: ChannelFormProps) {
  const t = useT(CHANNELS_WORDS);
  const a = useT(ADMIN_WORDS);
  const common = useT(COMMON);
  const [draft, setDraft] = useState<ChannelDraft>(initial);
  const [tried, setTried] = useState(false);
  const set = <K extends keyof ChannelDraft>(field: K) => (value: ChannelDraft[K]): void => setDraft((d) => ({ ...d, [field]: value }));
  const problems = problemsOf(draft);
  const nameBad = !editing && !NAME.test(draft.name.trim());
  const say = (problem: Problem | undefined): string | null => (tried && problem ? t(problem[0], problem[1]) : null);

  const submit = (e: Event): void => {
    e.preventDefault();
    setTried(true);
    if (nameBad || Object.keys(problems).length > 0) return;
    const sent = draft;
    // The key leaves the form as it is sent: never kept in the page.
    setDraft((d) => ({ ...d, apiKey: '' }));
    onSubmit(sent);
  };

  const keyHint = editing
    ? editing.api_key.set ? (editing.api_key.last4 ? t('newKeyHint', { last4: editing.api_key.last4 }) : t('newKeyHintNoLast')) : t('noKeyHint')
    : t('apiKeyHint');

  return (
    <form id={id} class="channel-form" onSubmit={submit} noValidate autoComplete="off">
      <ErrorAlert error={error} />
      <div class="form-grid">
        {editing
          ? <TextField id={`${id}-name`} label={t('name')} value={draft.name} onValue={() => undefined} readOnly />
          : <TextField id={`${id}-name`} label={t('name')} hint={a('nameRule')} value={draft.name} onValue={set('name')} required maxLength={64}
              spellcheck={false} autoCapitalize="off" placeholder="openai-main" error={tried && nameBad ? a('nameRule') : null} autoFocus />}
        <SelectField id={`${id}-type`} label={t('type')} value={draft.type} onValue={(v) => set('type')(v as ChannelDraft['type'])}
          options={CHANNEL_TYPES.map((type) => [type, t(type === 'openai' ? 'typeOpenai' : type === 'anthropic' ? 'typeAnthropic' : 'typeEcho')] as const)} />
        {draft.type !== 'echo' && (
          <TextField id={`${id}-base-url`} label={t('baseUrl')} hint={t('baseUrlHint')} type="url" value={draft.baseUrl} onValue={set('baseUrl')}
            placeholder="https://api.example.com/v1" spellcheck={false} autoCapitalize="off" maxLength={2048} error={say(problems.baseUrl)} />
        )}
        <div>
          <TextField id={`${id}-key`} label={editing ? t('newKey') : t('apiKey')} hint={keyHint} type="password" value={draft.apiKey} onValue={set('apiKey')}
            autoComplete="new-password" spellcheck={false} maxLength={4096} disabled={draft.removeKey} />
          {editing?.api_key.set && <Checkbox id={`${id}-remove-key`} label={t('removeKey')} checked={draft.removeKey} onChecked={set('removeKey')} />}
        </div>
      </div>
      <PairsEditor id={`${id}-models`} legend={t('models')} hint={t('modelsHint')} keyLabel={t('modelName')} valueLabel={t('upstreamName')}
        keyPlaceholder="gpt-4o-mini" valuePlaceholder={(name) => name || 'gpt-4o-mini-2024-07-18'} addLabel={t('addModel')}
        pairs={draft.models} onPairs={set('models')} error={say(problems.models)} />
      <div class="form-grid">
        <TextField id={`${id}-priority`} label={t('priority')} hint={t('priorityHint')} type="number" inputMode="numeric" min={0} value={draft.priority} onValue={set('priority')} error={say(problems.priority)} />
        <TextField id={`${id}-weight`} label={t('weight')} type="number" inputMode="numeric" min={1} value={draft.weight} onValue={set('weight')} error={say(problems.weight)} />
        <TextField id={`${id}-timeout`} label={t('timeout')} hint={t('timeoutHint')} type="number" inputMode="numeric" min={1} placeholder="120000" value={draft.timeout} onValue={set('timeout')} error={say(problems.timeout)} />
        {draft.type !== 'echo' && (
          <TextField id={`${id}-proxy`} label={t('proxy')} hint={t('proxyHint')} type="url" value={draft.proxy} onValue={set('proxy')} placeholder="http://proxy:3128"
            spellcheck={false} autoCapitalize="off" maxLength={2048} error={say(problems.proxy)} />
        )}
        {draft.type === 'openai' && (
          <SelectField id={`${id}-responses`} label={t('responses')} hint={t('responsesHint')} value={draft.responses} onValue={(v) => set('responses')(v as ChannelDraft['responses'])}
            options={[['', t('responsesAuto')], ['yes', t('responsesYes')], ['no', t('responsesNo')]]} />
        )}
      </div>
      <div class="form-actions">
        <Button onClick={onCancel}>{common('cancel')}</Button>
        <Button type="submit" variant="primary" id={`${id}-submit`} busy={busy}>{submitLabel}</Button>
      </div>
    </form>
  );
}
