/**
 * The price of one model, in a dialog: its kind, free on purpose or the prices that kind takes (per
 * million input, output, cached and cache-write tokens; input alone for embeddings; per image with
 * prices by size or quality), and its context length, tool calling, image input, default cap and maximum output. Amounts are exact
 * decimal USD, checked before sending; the gateway's refusal shows in the dialog.
 */
import { useState } from 'preact/hooks';
import { COMMON } from '../i18n/common.ts';
import { useT } from '../i18n/lang.ts';
import { ErrorAlert } from '../ui/Alert.tsx';
import { Button } from '../ui/Button.tsx';
import { Modal } from '../ui/Dialog.tsx';
import { Checkbox, SelectField, TextField } from '../ui/fields.tsx';
import { ADMIN_WORDS } from './adminWords.ts';
import { PairsEditor } from './PairsEditor.tsx';
import { MODEL_LIMITS } from '../../contract/values.ts';
import { priceFieldsOf, priceProblems, type PriceDraft, type PriceProblem } from './priceDraft.ts';
import { MODEL_KINDS, PRICES_WORDS } from './pricesWords.ts';

export interface PriceDialogProps {
  readonly initial: PriceDraft;
  /** The model's name is fixed (a row's Set price); otherwise typed. */
  readonly fixedName: boolean;
  readonly busy: boolean;
  readonly error: Error | null;
  readonly onSubmit: (draft: PriceDraft) => void;
  readonly onClose: () => void;
}

export function PriceDialog({ initial, fixedName, busy, error, onSubmit, onClose }: PriceDialogProps) {
  const t = useT(PRICES_WORDS);
  const a = useT(ADMIN_WORDS);
  const common = useT(COMMON);
  const [draft, setDraft] = useState(initial);
  const [tried, setTried] = useState(false);
  const set = <K extends keyof PriceDraft>(field: K) => (value: PriceDraft[K]): void => setDraft((d) => ({ ...d, [field]: value }));
  const problems = priceProblems(draft);
  const shown = priceFieldsOf(draft.kind);
  const say = (problem: PriceProblem | undefined, bounds?: { min: number; max: number }): string | null => {
    if (!tried || !problem) return null;
    if (problem === 'needed' || problem === 'numberBad' || problem === 'modelBad') return t(problem, bounds);
    return a(problem);
  };
  const submit = (e: Event): void => {
    e.preventDefault();
    setTried(true);
    if (Object.keys(problems).length === 0) onSubmit(draft);
  };
  const money = (id: string, field: 'input' | 'output' | 'cached' | 'cacheWrite' | 'perImage', label: string, hint?: string) => (
    <TextField id={id} label={label} hint={hint ?? a('usdHint')} value={draft[field]} onValue={set(field)} inputMode="decimal" placeholder="0.00" maxLength={32}
      spellcheck={false} error={say(problems[field])} />
  );

  return (
    <Modal title={initial.model ? t('formTitle', { model: initial.model }) : t('formTitleNew')} onClose={onClose} wide>
      <form id="price-form" onSubmit={submit} noValidate autoComplete="off">
        <ErrorAlert error={error} />
        <div class="form-grid">
          <TextField id="price-model" label={t('model')} hint={t('modelHint')} value={draft.model} onValue={set('model')} readOnly={fixedName} required maxLength={256}
            spellcheck={false} autoCapitalize="off" error={say(problems.model)} autoFocus={!fixedName} />
          <SelectField id="price-kind" label={t('kind')} value={draft.kind} onValue={(v) => set('kind')(v as PriceDraft['kind'])} options={MODEL_KINDS.map((k) => [k, t(k)] as const)} />
        </div>
        <Checkbox id="price-free" label={t('freeBox')} checked={draft.free} onChecked={set('free')} />
        {!draft.free && (
          <div class="form-grid">
            {shown.tokens && money('price-input', 'input', t('input'))}
            {shown.output && money('price-output', 'output', t('output'))}
            {shown.output && money('price-cached', 'cached', t('cached'), t('cachedHint'))}
            {shown.output && money('price-cache-write', 'cacheWrite', t('cacheWrite'), t('cachedHint'))}
            {shown.image && money('price-image', 'perImage', t('perImage'), t('perImageHint'))}
          </div>
        )}
        {!draft.free && shown.image && (
          <PairsEditor id="price-variants" legend={t('variants')} hint={t('variantsHint')} keyLabel={t('variantKey')} valueLabel={t('variantPrice')}
            keyPlaceholder="1024x1792" valuePlaceholder={() => '0.08'} addLabel={t('addVariant')} valueMode="decimal" pairs={draft.variants}
            onPairs={set('variants')} error={say(problems.variants)} />
        )}
        <div class="form-grid">
          <TextField id="price-context" label={t('context')} hint={t('contextHint')} type="number" inputMode="numeric" min={1} value={draft.context} onValue={set('context')}
            error={say(problems.context, MODEL_LIMITS.contextLength)} />
          {draft.kind !== 'embedding' && draft.kind !== 'image' && (
            <SelectField id="price-tools" label={t('tools')} value={draft.tools} onValue={(v) => set('tools')(v as PriceDraft['tools'])}
              options={[['', t('notSaid')], ['yes', t('yes')], ['no', t('no')]]} />
          )}
          {draft.kind !== 'embedding' && draft.kind !== 'image' && (
            <SelectField id="price-images" label={t('images')} hint={t('imagesHint')} value={draft.images} onValue={(v) => set('images')(v as PriceDraft['images'])}
              options={[['', t('notSaid')], ['yes', t('yes')], ['no', t('no')]]} />
          )}
          {draft.kind !== 'embedding' && draft.kind !== 'image' && (
            <TextField id="price-max-tokens" label={t('maxTokens')} hint={t('maxTokensHint')} type="number" inputMode="numeric" min={1} value={draft.maxTokens}
              onValue={set('maxTokens')} error={say(problems.maxTokens, MODEL_LIMITS.defaultMaxTokens)} />
          )}
          {shown.output && (
            <TextField id="price-max-output" label={t('maxOutput')} hint={t('maxOutputHint')} type="number" inputMode="numeric" min={1} value={draft.maxOutput}
              onValue={set('maxOutput')} error={say(problems.maxOutput, MODEL_LIMITS.maxOutputTokens)} />
          )}
        </div>
        <div class="dialog-actions">
          <Button onClick={onClose}>{common('cancel')}</Button>
          <Button type="submit" variant="primary" id="price-submit" busy={busy}>{t('submit')}</Button>
        </div>
      </form>
    </Modal>
  );
}
