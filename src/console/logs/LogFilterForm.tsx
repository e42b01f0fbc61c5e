/**
 * The logs' filters as a form: the choices (key, status, time) apply as they change; the typed ones
 * (model, request id, account, user, a custom range) when the form is sent. Every control has its label.
 */
import { useEffect, useState } from 'preact/hooks';
import { useT } from '../i18n/lang.ts';
import { Button } from '../ui/Button.tsx';
import { SelectField, TextField } from '../ui/fields.tsx';
import { hasFilters, isoOfLocalInput, localInputOf, NO_FILTERS, RANGES, type LogFilters, type Range } from './filters.ts';
import { LOG_WORDS } from './logWords.ts';

export interface FilterFields {
  /** The key choice, with the account's keys (the user's logs). */
  readonly keys?: readonly { readonly id: number; readonly name: string }[];
  readonly requestId: boolean;
  readonly account: boolean;
  readonly user: boolean;
  /** Model names to suggest (the catalogue). */
  readonly models?: readonly string[];
}

const RANGE_WORDS: Readonly<Record<Range, 'rangeAny' | 'range1h' | 'range24h' | 'range7d' | 'range30d' | 'rangeCustom'>> = {
  '': 'rangeAny', '1h': 'range1h', '24h': 'range24h', '7d': 'range7d', '30d': 'range30d', custom: 'rangeCustom',
};

export function LogFilterForm({ filters, fields, onChange }: { readonly filters: LogFilters; readonly fields: FilterFields; readonly onChange: (next: LogFilters) => void }) {
  const t = useT(LOG_WORDS);
  const [draft, setDraft] = useState(filters);
  // The address changed (back, a link, Clear): the typed fields show it.
  useEffect(() => setDraft(filters), [JSON.stringify(filters)]);
  const set = <K extends keyof LogFilters>(name: K, value: LogFilters[K]): void => setDraft((d) => ({ ...d, [name]: value }));
  const choose = <K extends keyof LogFilters>(name: K, value: LogFilters[K]): void => {
    const next = { ...draft, [name]: value };
    setDraft(next);
    // A custom range waits for its times and the Apply button.
    if (!(name === 'range' && value === 'custom')) onChange(next);
  };
  const submit = (e: Event): void => {
    e.preventDefault();
    onChange({ ...draft, model: draft.model.trim(), request_id: draft.request_id.trim(), account: draft.account.trim(), user: draft.user.trim() });
  };

  return (
    <form class="filters log-filters" id="logs-filters" onSubmit={submit} aria-label={t('filters')}>
      {fields.keys && (
        <SelectField id="logs-key" label={t('key')} value={draft.key} onValue={(v) => choose('key', v)}
          options={[['', t('allKeys')], ...fields.keys.map((k) => [String(k.id), k.name] as const)]} />
      )}
      {fields.account && <TextField id="logs-account" label={t('account')} value={draft.account} onValue={(v) => set('account', v)} maxLength={64} spellcheck={false} autoCapitalize="off" />}
      {fields.user && <TextField id="logs-user" label={t('user')} value={draft.user} onValue={(v) => set('user', v)} maxLength={64} spellcheck={false} autoCapitalize="off" />}
      <TextField id="logs-model" label={t('model')} value={draft.model} onValue={(v) => set('model', v)} maxLength={256} spellcheck={false} autoCapitalize="off" list={fields.models ? 'logs-model-names' : undefined} />
      {fields.models && <datalist id="logs-model-names">{fields.models.map((m) => <option key={m} value={m} />)}</datalist>}
      <SelectField id="logs-status" label={t('status')} value={draft.status} onValue={(v) => choose('status', v as LogFilters['status'])}
        options={[['', t('anyStatus')], ['ok', t('statusOk')], ['error', t('statusError')]]} />
      <SelectField id="logs-range" label={t('range')} value={draft.range} onValue={(v) => choose('range', v as Range)}
        options={RANGES.map((r) => [r, t(RANGE_WORDS[r])] as const)} />
      {draft.range === 'custom' && (
        <>
          <TextField id="logs-since" type="datetime-local" label={t('since')} value={localInputOf(draft.since)} onValue={(v) => set('since', isoOfLocalInput(v))} />
          <TextField id="logs-until" type="datetime-local" label={t('until')} value={localInputOf(draft.until)} onValue={(v) => set('until', isoOfLocalInput(v))} />
        </>
      )}
      {fields.requestId && <TextField id="logs-request-id" label={t('requestId')} value={draft.request_id} onValue={(v) => set('request_id', v)} maxLength={128} spellcheck={false} autoCapitalize="off" />}
      <div class="filter-actions">
        <Button type="submit" variant="primary" id="logs-apply">{t('apply')}</Button>
        {hasFilters(filters) && <Button id="logs-clear" onClick={() => onChange(NO_FILTERS)}>{t('clear')}</Button>}
      </div>
    </form>
  );
}
