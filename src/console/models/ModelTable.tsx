/**
 * Models with their exact names (each with a copy button), kind, context length, maximum output, prices per million
 * tokens or per image, and whether they take tools and images as input: the catalogue page and the key console show it. A free
 * model says "free" rather than $0.00 prices; a model with no output tokens (embedding, image) shows no
 * output price, as the admins' prices page does.
 */
import { useFormat, usd } from '../i18n/format.ts';
import { useT } from '../i18n/lang.ts';
import { CopyButton } from '../ui/CopyButton.tsx';
import { DataTable, type Column } from '../ui/DataTable.tsx';
import type { ModelView } from '../keys/types.ts';
import { MODEL_WORDS } from './modelWords.ts';

/** Kinds whose answers are priced by output tokens; an embedding or an image has none. */
const HAS_OUTPUT_TOKENS: Readonly<Record<ModelView['kind'], boolean>> = { chat: true, completion: true, embedding: false, image: false };

export function ModelTable({ models, empty, testId }: { readonly models: readonly ModelView[]; readonly empty: string; readonly testId?: string }) {
  const t = useT(MODEL_WORDS);
  const f = useFormat();
  const columns: Column<ModelView>[] = [
    {
      header: t('name'), kind: 'wrap',
      cell: (m) => <div class="name-cell"><code data-model-name>{m.name}</code><CopyButton text={m.name} ariaLabel={t('copyName', { name: m.name })} /></div>,
    },
    { header: t('kind'), kind: 'nowrap', cell: (m) => t(m.kind) },
    { header: t('context'), kind: 'num', cell: (m) => (m.context_length ? f.number(m.context_length) : t('unknown')) },
    { header: t('maxOutput'), kind: 'num', cell: (m) => (m.max_output_tokens ? f.number(m.max_output_tokens) : t('unknown')) },
    {
      header: t('input'), kind: 'num',
      cell: (m) => (m.free ? t('free') : m.per_image
        ? <>{t('perImage', { price: usd(m.per_image) })}{m.per_image_by_variant && <div class="muted small wrap-anywhere">{m.per_image_by_variant}</div>}</>
        : <>{usd(m.input_per_million)}{m.cached_input_per_million && <div class="muted small">{t('cached', { price: usd(m.cached_input_per_million) })}</div>}</>),
    },
    { header: t('output'), kind: 'num', cell: (m) => (!HAS_OUTPUT_TOKENS[m.kind] ? t('unknown') : m.free ? t('free') : usd(m.output_per_million)) },
    { header: t('tools'), kind: 'nowrap', cell: (m) => (m.tool_calling === null ? t('unknown') : m.tool_calling ? t('toolsYes') : t('toolsNo')) },
    { header: t('images'), kind: 'nowrap', cell: (m) => (m.image_input === null ? t('unknown') : m.image_input ? t('toolsYes') : t('toolsNo')) },
  ];
  return <DataTable rows={models} columns={columns} rowKey={(m) => m.name} label={t('tableLabel')} empty={empty} testId={testId} stackOnPhone rowAttrs={(m) => ({ 'data-model': m.name })} />;
}
