/**
 * Rows of two fields (a channel's model and the upstream's name for it; an image size or quality and
 * its price): each field labelled for screen readers with its row's number, a row removed by its
 * button, another added at the end. Long values wrap the row instead of widening the form.
 */
import { useT } from '../i18n/lang.ts';
import { Button } from '../ui/Button.tsx';
import { ADMIN_WORDS } from './adminWords.ts';

export type Pair = readonly [string, string];

export interface PairsEditorProps {
  /** The id of the group: fields are ID-key-N and ID-value-N. */
  readonly id: string;
  readonly legend: string;
  readonly hint?: string;
  readonly keyLabel: string;
  readonly valueLabel: string;
  readonly keyPlaceholder?: string;
  readonly valuePlaceholder?: (key: string) => string;
  readonly addLabel: string;
  readonly pairs: readonly Pair[];
  readonly onPairs: (pairs: readonly Pair[]) => void;
  readonly valueMode?: 'text' | 'decimal';
  readonly error?: string | null;
}

export function PairsEditor({ id, legend, hint, keyLabel, valueLabel, keyPlaceholder, valuePlaceholder, addLabel, pairs, onPairs, valueMode = 'text', error }: PairsEditorProps) {
  const t = useT(ADMIN_WORDS);
  const set = (index: number, pair: Pair): void => onPairs(pairs.map((p, i) => (i === index ? pair : p)));
  return (
    <fieldset class={`pairs${error ? ' invalid' : ''}`} id={id} aria-describedby={[hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined}>
      <legend>{legend}</legend>
      {pairs.length > 0 && (
        <div class="pair head" aria-hidden="true"><span>{keyLabel}</span><span>{valueLabel}</span><span /></div>
      )}
      {pairs.map(([key, value], i) => (
        <div class="pair" key={i}>
          <input id={`${id}-key-${i}`} aria-label={`${keyLabel} ${i + 1}`} value={key} placeholder={keyPlaceholder} spellcheck={false} autoCapitalize="off" autoComplete="off"
            onInput={(e) => set(i, [e.currentTarget.value, value])} />
          <input id={`${id}-value-${i}`} aria-label={`${valueLabel} ${i + 1}`} value={value} placeholder={valuePlaceholder?.(key.trim())} spellcheck={false} autoCapitalize="off" autoComplete="off"
            inputMode={valueMode === 'decimal' ? 'decimal' : undefined} onInput={(e) => set(i, [key, e.currentTarget.value])} />
          <Button small variant="ghost" aria-label={`${t('remove')} ${i + 1}`} onClick={() => onPairs(pairs.filter((_, j) => j !== i))}>×</Button>
        </div>
      ))}
      <Button small id={`${id}-add`} onClick={() => onPairs([...pairs, ['', '']])}>{addLabel}</Button>
      {hint && <p class="hint" id={`${id}-hint`}>{hint}</p>}
      {error && <p class="field-error" id={`${id}-error`} role="alert">{error}</p>}
    </fieldset>
  );
}
