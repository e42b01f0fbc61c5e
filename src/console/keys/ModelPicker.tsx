/**
 * A key's model allow-list, chosen from the catalogue: a box of checkboxes (filtered as one types when
 * the list is long), none ticked meaning every model. Used by the create form and the device approval.
 */
import { useId, useState } from 'preact/hooks';
import { COMMON } from '../i18n/common.ts';
import { useT } from '../i18n/lang.ts';
import { KEY_WORDS } from './keyWords.ts';

/** Above this many models, a filter box helps find one. */
const FILTER_FROM = 8;

export function ModelPicker({ models, chosen, onChange, id, legend, hideLegend = false }: {
  /** Null while the catalogue loads. */
  readonly models: readonly string[] | null;
  readonly chosen: readonly string[];
  readonly onChange: (chosen: string[]) => void;
  readonly id: string;
  readonly legend?: string;
  /** The legend only for screen readers (a summary above already says it). */
  readonly hideLegend?: boolean;
}) {
  const t = useT(KEY_WORDS);
  const common = useT(COMMON);
  const [q, setQ] = useState('');
  const hintId = useId();
  const needle = q.trim().toLowerCase();
  const all = models ?? [];
  const shown = needle ? all.filter((m) => m.toLowerCase().includes(needle)) : all;
  const toggle = (name: string, on: boolean): void => onChange(on ? [...chosen, name] : chosen.filter((c) => c !== name));
  return (
    <fieldset class="model-picker" id={id} aria-describedby={hintId}>
      <legend class={hideLegend ? 'sr-only' : undefined}>
        {legend ?? t('modelsLegend')}{' '}
        <span class="muted small" data-testid="models-chosen">({chosen.length ? t('modelsChosen', { count: chosen.length }) : t('modelsAll')})</span>
      </legend>
      <p class="hint" id={hintId}>{t('modelsHint')}</p>
      {all.length >= FILTER_FROM && (
        <div class="field">
          <label class="sr-only" for={`${id}-filter`}>{t('modelsFilter')}</label>
          <input id={`${id}-filter`} type="search" value={q} placeholder={t('modelsFilter')} spellcheck={false} autoCapitalize="off" autoComplete="off"
            onInput={(e) => setQ(e.currentTarget.value)} />
        </div>
      )}
      {models === null ? <p class="loading" role="status">{common('loading')}</p>
        : models.length === 0 ? <p class="empty">{t('modelsNone')}</p>
        : shown.length === 0 ? <p class="empty">{t('modelsNoMatch', { q: q.trim() })}</p>
        : (
          <ul class="model-choices">
            {shown.map((name) => (
              <li key={name}>
                <label class="check">
                  <input type="checkbox" value={name} checked={chosen.includes(name)} onChange={(e) => toggle(name, e.currentTarget.checked)} />
                  <code>{name}</code>
                </label>
              </li>
            ))}
          </ul>
        )}
    </fieldset>
  );
}
