/**
 * A model's price, the one way the CLI (`model price`) and the admins' console set it: which prices each
 * kind takes (per million input and output tokens, input alone for embeddings, per image for images, by
 * size and quality where given), which are required, `free` on purpose (no price at all, served at no
 * charge: a model with no price is never served), and the record the store keeps, written with its audit
 * row (the prices in micro-USD) under the actor's name.
 */
import type { ModelKind } from '../../contract/index.ts';
import { imagePriceKey } from './imagePrices.ts';
import { auditEntry, InvalidSetting, type Acting, type FieldName } from './userAdmin.ts';
import type { ModelRecord, Store } from '../store/types.ts';

/** A price's fields as the CLI's flags name them (`--input`); the console names them `input_usd`... */
export type PriceField = 'input' | 'output' | 'cached-input' | 'cache-write' | 'per-image' | 'per-image-variant' | 'free' | 'default-max-tokens' | 'max-output';
type Price = Exclude<PriceField, 'per-image-variant' | 'free' | 'default-max-tokens' | 'max-output'>;

/** The prices each kind takes: input, output and per-image ones required, cache ones optional (the input price when absent). */
const PRICES_OF: Readonly<Record<ModelKind, readonly Price[]>> = {
  chat: ['input', 'output', 'cached-input', 'cache-write'],
  completion: ['input', 'output', 'cached-input', 'cache-write'],
  embedding: ['input'],
  image: ['per-image'],
};
const OPTIONAL: readonly Price[] = ['cached-input', 'cache-write'];

/** What an admin asks for; amounts in micro-USD (parsed by the caller from what it reads), absent when not given. */
export interface PriceRequest {
  readonly model: string;
  readonly kind: ModelKind;
  readonly free: boolean;
  readonly prices: Readonly<Partial<Record<Price, number>>>;
  /** Image prices by variant, as written ("1024x1792", "HD", "hd,1024x1792"), with their micro-USD. */
  readonly variants?: readonly (readonly [string, number])[];
  /** Null or absent: kept as they are (the default cap and context: none when never set). */
  readonly contextLength?: number | null;
  /** It calls tools: absent keeps what the model says, null makes it "not said". */
  readonly toolCalling?: boolean | null;
  /** It takes images as input: as tool calling. */
  readonly imageInput?: boolean | null;
  readonly defaultMaxTokens?: number | null;
  /** The most the model writes in one answer: absent keeps what it has, null removes it. Chat and completion models only. */
  readonly maxOutputTokens?: number | null;
}

const asIs: FieldName<PriceField> = (field) => field;

/**
 * The model record `request` asks for, or InvalidSetting naming the field with `name`. `current`: the model as
 * the store holds it, whose context and caps the new ones are checked with where the request keeps them.
 */
export function priceRecord(request: PriceRequest, name: FieldName<PriceField> = asIs, current?: ModelRecord): ModelRecord {
  const { kind, free, prices } = request;
  const allowed = PRICES_OF[kind];
  const variants = request.variants ?? [];
  const given: PriceField[] = [...(Object.keys(prices) as Price[]).filter((p) => prices[p] !== undefined), ...(variants.length > 0 ? ['per-image-variant' as const] : [])];
  for (const field of given) {
    if (free) throw new InvalidSetting(`${name('free')} takes no prices (drop ${name(field)})`);
    const price = field === 'per-image-variant' ? 'per-image' : (field as Price);
    if (!allowed.includes(price)) throw new InvalidSetting(`${name(field)} does not apply to ${kind} models (they take ${allowed.map(name).join(' and ')})`);
  }
  const required = (price: Price): number => {
    const value = prices[price];
    if (free || !allowed.includes(price)) return 0;
    if (value === undefined) throw new InvalidSetting(`${name(price)} is required${price === 'per-image' ? ' (the price of an image of any other size or quality)' : ''}`);
    return value;
  };
  const byVariant: Record<string, number> = {};
  for (const [written, price] of variants) {
    const key = imagePriceKey(written);
    if (key instanceof Error) throw new InvalidSetting(`${name('per-image-variant')}: ${key.message}`);
    if (Object.hasOwn(byVariant, key)) throw new InvalidSetting(`${name('per-image-variant')}: ${key} is priced twice`);
    byVariant[key] = price;
  }
  const optional = (price: Price): number | null => (OPTIONAL.includes(price) ? (prices[price] ?? null) : null);
  const maxOutputTokens = outputLimitOf(request, name, current);
  return {
    name: request.model, kind, inputPrice: required('input'), outputPrice: required('output'),
    imagePrice: kind === 'image' ? required('per-image') : null, imagePrices: kind === 'image' ? byVariant : null,
    cachedInputPrice: optional('cached-input'), cacheWritePrice: optional('cache-write'),
    contextLength: request.contextLength ?? null,
    // Absent keeps what the model says now; null makes it "not said" again.
    toolCalling: request.toolCalling === undefined ? (current?.toolCalling ?? null) : request.toolCalling,
    imageInput: request.imageInput === undefined ? (current?.imageInput ?? null) : request.imageInput,
    defaultMaxTokens: request.defaultMaxTokens ?? null,
    ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
  };
}

/**
 * The maximum output to write (undefined: keep the stored one), once the model's numbers as they will be fit
 * together: an answer can be no longer than the context, and the default cap no larger than either.
 */
function outputLimitOf(request: PriceRequest, name: FieldName<PriceField>, current: ModelRecord | undefined): number | null | undefined {
  const writes = request.kind === 'chat' || request.kind === 'completion';
  if (!writes && typeof request.maxOutputTokens === 'number') {
    throw new InvalidSetting(`${name('max-output')} does not apply to ${request.kind} models (they write no tokens)`);
  }
  // A model that writes no tokens has no limit on them: one kept from an earlier kind is removed.
  const given = writes ? request.maxOutputTokens : null;
  const context = request.contextLength ?? current?.contextLength ?? null;
  const defaultCap = request.defaultMaxTokens ?? current?.defaultMaxTokens ?? null;
  const limit = given === undefined ? (current?.maxOutputTokens ?? null) : given;
  if (defaultCap !== null && context !== null && defaultCap > context) {
    throw new InvalidSetting(`${name('default-max-tokens')} (${defaultCap}) is more than the model's context (${context}): no answer could be that long`);
  }
  if (limit !== null && context !== null && limit > context) {
    throw new InvalidSetting(`${name('max-output')} (${limit}) is more than the model's context (${context}): no answer could be that long`);
  }
  if (limit !== null && defaultCap !== null && defaultCap > limit) {
    throw new InvalidSetting(request.defaultMaxTokens
      ? `${name('default-max-tokens')} (${defaultCap}) is more than the model's maximum output (${limit}): requests would be lowered to it anyway`
      : `${name('max-output')} (${limit}) is less than the model's default cap (${defaultCap}): lower ${name('default-max-tokens')} too`);
  }
  return given;
}

/** Sets the price `request` asks for, with its audit row (the prices set, in micro-USD, and `free`); returns the record written. */
export async function setModelPrice(store: Store, request: PriceRequest, acting: Acting, name?: FieldName<PriceField>): Promise<ModelRecord> {
  const current = (await store.listModels()).find((m) => m.name === request.model);
  const record = priceRecord(request, name, current);
  const { name: model, ...details } = record;
  await store.setModel(record, auditEntry(acting, 'model.price', model, { ...details, free: request.free }));
  return record;
}

/** Priced at zero throughout: served at no charge (what `free` sets). */
export function isFree(model: ModelRecord): boolean {
  return [model.inputPrice, model.outputPrice, model.imagePrice ?? 0, model.cachedInputPrice ?? 0, model.cacheWritePrice ?? 0, ...Object.values(model.imagePrices ?? {})].every((p) => p === 0);
}
