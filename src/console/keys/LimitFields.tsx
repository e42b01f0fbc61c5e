/**
 * The limit fields of a key, in the create form and in the limits editor: requests and tokens per
 * minute, requests per day, requests at once, a spending limit over a period, and an IP allow-list.
 * `idPrefix` keeps the ids of the two forms apart. 0 means no limit in every count; an empty count is the
 * default on a new key and no limit in the editor (limits.ts).
 */
import { useT } from '../i18n/lang.ts';
import { SelectField, TextField } from '../ui/fields.tsx';
import { KEY_WORDS } from './keyWords.ts';
import { PERIODS, type LimitsForm } from './limits.ts';

export function LimitFields({ idPrefix, form, onChange, editing }: {
  readonly idPrefix: string;
  readonly form: LimitsForm;
  readonly onChange: (form: LimitsForm) => void;
  readonly editing: boolean;
}) {
  const t = useT(KEY_WORDS);
  const set = <K extends keyof LimitsForm>(name: K) => (value: LimitsForm[K]): void => onChange({ ...form, [name]: value });
  const periodWords = { total: t('optionTotal'), day: t('optionDay'), month: t('optionMonth') } as const;
  return (
    <div class="form-grid">
      <TextField id={`${idPrefix}-rpm`} label={t('rpm')} type="number" inputMode="numeric" min={0} step={1} value={form.rpm} onValue={set('rpm')}
        placeholder={editing ? t('noLimit') : t('defaultPlaceholder')} />
      <TextField id={`${idPrefix}-concurrency`} label={t('concurrency')} type="number" inputMode="numeric" min={0} step={1} value={form.concurrency} onValue={set('concurrency')}
        placeholder={editing ? t('noLimit') : t('defaultPlaceholder')} />
      <TextField id={`${idPrefix}-tpm`} label={t('tpm')} type="number" inputMode="numeric" min={0} step={1} value={form.tpm} onValue={set('tpm')} placeholder={t('noLimit')} />
      <TextField id={`${idPrefix}-rpd`} label={t('rpd')} type="number" inputMode="numeric" min={0} step={1} value={form.rpd} onValue={set('rpd')} placeholder={t('noLimit')} />
      <TextField id={`${idPrefix}-spend`} label={t('spendLimit')} inputMode="decimal" value={form.spend} onValue={set('spend')} placeholder={t('noLimit')}
        spellcheck={false} autoComplete="off" maxLength={32} hint={t('spendHint')} />
      <SelectField id={`${idPrefix}-period`} label={t('period')} value={form.period} onValue={(v) => set('period')(v as LimitsForm['period'])}
        options={PERIODS.map((p) => [p, periodWords[p]] as const)} />
      <div class="span-all">
        <TextField id={`${idPrefix}-ips`} label={t('allowIps')} value={form.ips} onValue={set('ips')} placeholder={t('ipsPlaceholder')}
          spellcheck={false} autoCapitalize="off" autoComplete="off" hint={t('ipsHint')} />
      </div>
    </div>
  );
}
