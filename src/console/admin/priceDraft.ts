/**
 * A model's price as its form holds it (text as typed), from the model the gateway answered, checked
 * as the gateway checks it (exact USD, whole numbers in bounds; which prices a kind takes), and as the
 * body of POST /api/console/admin/models/price: only the fields of the kind chosen, none when free.
 * Also the price in words for the list and the notice. Plain functions, no DOM.
 */
import type { Answer, BodyOf } from '../api.ts';
import type { ModelKind } from '../../contract/kinds.ts';
import { usd } from '../i18n/format.ts';
import type { Translator } from '../i18n/lang.ts';
import { isConfigurableModelName } from '../../contract/values.ts';
import type { Pair } from './PairsEditor.tsx';
import type { PRICES_WORDS } from './pricesWords.ts';
import { cleanUsd, MAX_PRICE_USD, usdProblem, type UsdProblem } from './usd.ts';
import { MODEL_LIMITS } from '../../contract/values.ts';

export type AdminModel = Answer<'listAdminModels'>['data'][number];
type Words = Translator<(typeof PRICES_WORDS)['en']>;

export interface PriceDraft {
  readonly model: string;
  readonly kind: ModelKind;
  readonly free: boolean;
  readonly input: string;
  readonly output: string;
  readonly cached: string;
  readonly cacheWrite: string;
  readonly perImage: string;
  readonly variants: readonly Pair[];
  readonly context: string;
  readonly tools: '' | 'yes' | 'no';
  /** It takes images as input: '' is not said (sent as null, as tools). */
  readonly images: '' | 'yes' | 'no';
  readonly maxTokens: string;
  readonly maxOutput: string;
  /** The model has a maximum output now: an emptied field removes it (an empty one on a model without stays absent). */
  readonly hadMaxOutput: boolean;
}


export function emptyPrice(model = ''): PriceDraft {
  return { model, kind: 'chat', free: false, input: '', output: '', cached: '', cacheWrite: '', perImage: '', variants: [], context: '', tools: '', images: '', maxTokens: '', maxOutput: '', hadMaxOutput: false };
}

export function priceDraftOf(m: AdminModel): PriceDraft {
  const plain = (money: { usd: string } | null): string => (money && !m.free ? money.usd : '');
  return {
    model: m.name, kind: m.kind ?? 'chat', free: m.free,
    input: plain(m.input_per_million), output: plain(m.output_per_million), cached: plain(m.cached_input_per_million), cacheWrite: plain(m.cache_write_per_million),
    perImage: plain(m.per_image), variants: m.per_image_variants && !m.free ? Object.entries(m.per_image_variants).map(([k, v]) => [k, v.usd] as const) : [],
    context: m.context_length ? String(m.context_length) : '', tools: m.tool_calling === null ? '' : m.tool_calling ? 'yes' : 'no',
    images: m.image_input === null ? '' : m.image_input ? 'yes' : 'no',
    maxTokens: m.default_max_tokens ? String(m.default_max_tokens) : '',
    maxOutput: m.max_output_tokens ? String(m.max_output_tokens) : '', hadMaxOutput: m.max_output_tokens !== null,
  };
}

/** Which price fields the kind takes (the others are not shown). */
export function priceFieldsOf(kind: ModelKind): { tokens: boolean; output: boolean; image: boolean } {
  return { tokens: kind !== 'image', output: kind === 'chat' || kind === 'completion', image: kind === 'image' };
}

export type PriceProblem = UsdProblem | 'needed' | 'numberBad' | 'modelBad';
export type PriceProblems = Partial<Record<'model' | 'input' | 'output' | 'cached' | 'cacheWrite' | 'perImage' | 'variants' | 'context' | 'maxTokens' | 'maxOutput', PriceProblem>>;

const price = (text: string, required: boolean): PriceProblem | undefined =>
  text.trim() === '' ? (required ? 'needed' : undefined) : (usdProblem(text, { zero: true, maxUsd: MAX_PRICE_USD }) ?? undefined);

const whole = (text: string, bounds: { min: number; max: number }): PriceProblem | undefined =>
  text.trim() === '' || (/^\d+$/.test(text.trim()) && Number(text) >= bounds.min && Number(text) <= bounds.max) ? undefined : 'numberBad';

export function priceProblems(d: PriceDraft): PriceProblems {
  const shown = priceFieldsOf(d.kind);
  const all: PriceProblems = {
    model: isConfigurableModelName(d.model.trim()) ? undefined : 'modelBad',
    context: whole(d.context, MODEL_LIMITS.contextLength), maxTokens: whole(d.maxTokens, MODEL_LIMITS.defaultMaxTokens),
    maxOutput: shown.output ? whole(d.maxOutput, MODEL_LIMITS.maxOutputTokens) : undefined,
  };
  if (!d.free) {
    if (shown.tokens) all.input = price(d.input, true);
    if (shown.output) Object.assign(all, { output: price(d.output, true), cached: price(d.cached, false), cacheWrite: price(d.cacheWrite, false) });
    if (shown.image) {
      all.perImage = price(d.perImage, true);
      all.variants = d.variants.filter(([k, v]) => k.trim() || v.trim()).map(([k, v]) => (k.trim() ? price(v, true) : 'needed')).find(Boolean);
    }
  }
  return Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined));
}

export function priceBody(d: PriceDraft): BodyOf<'priceModel'> {
  const shown = priceFieldsOf(d.kind);
  const given = (text: string): string | undefined => (text.trim() ? cleanUsd(text) : undefined);
  const body: { -readonly [K in keyof BodyOf<'priceModel'>]: BodyOf<'priceModel'>[K] } = { model: d.model.trim(), kind: d.kind };
  if (d.free) body.free = true;
  else {
    if (shown.tokens) body.input_usd = given(d.input);
    if (shown.output) Object.assign(body, { output_usd: given(d.output), cached_input_usd: given(d.cached), cache_write_usd: given(d.cacheWrite) });
    if (shown.image) {
      body.per_image_usd = given(d.perImage);
      const variants = d.variants.filter(([k]) => k.trim());
      if (variants.length > 0) body.per_image_variants_usd = Object.fromEntries(variants.map(([k, v]) => [k.trim(), cleanUsd(v)]));
    }
  }
  if (d.context.trim()) body.context_length = Number(d.context.trim());
  if (d.maxTokens.trim()) body.default_max_tokens = Number(d.maxTokens.trim());
  // Shown with the model's own value: emptied, it is removed (null); kinds without output tokens have none.
  if (shown.output && d.maxOutput.trim()) body.max_output_tokens = Number(d.maxOutput.trim());
  else if (shown.output && d.hadMaxOutput) body.max_output_tokens = null;
  // Shown for chat and completion models only, from the model's own answer: '' (not said) goes as null, which says so.
  if (d.kind === 'chat' || d.kind === 'completion') {
    body.tool_calling = d.tools === '' ? null : d.tools === 'yes';
    body.image_input = d.images === '' ? null : d.images === 'yes';
  }
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) as BodyOf<'priceModel'>;
}

/** The price in words: "$0.50 in / $1.50 out per 1M tokens", "$0.04 / image, $0.08 for hd", "free". */
export function priceText(m: AdminModel, t: Words): string {
  if (!m.priced) return t('noPrice');
  if (m.free) return t('free');
  if (m.kind === 'image') {
    const variants = Object.entries(m.per_image_variants ?? {}).map(([variant, money]) => t('variantText', { usd: usd(money), variant }));
    return [t('perImageText', { usd: m.per_image ? usd(m.per_image) : '—' }), ...variants].join(', ');
  }
  const parts = [m.input_per_million && t('inText', { usd: usd(m.input_per_million) }), m.output_per_million && t('outText', { usd: usd(m.output_per_million) }),
    m.cached_input_per_million && t('cachedText', { usd: usd(m.cached_input_per_million) }), m.cache_write_per_million && t('cacheWriteText', { usd: usd(m.cache_write_per_million) })];
  return t('perMillionText', { prices: parts.filter(Boolean).join(' / ') });
}
