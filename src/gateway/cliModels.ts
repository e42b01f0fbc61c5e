/**
 * `model-gateway model ...`: prices (per token, per image by size and quality, free on purpose) and
 * what else a model has (kind, context, tools, image input, default cap, maximum output); `model list` shows them.
 */
import { CLI_ACTOR, formatMicroUsd, isModelKind, MODEL_KINDS, MODEL_LIMITS } from '../contract/index.ts';
import { describeImagePrices } from './accounts/imagePrices.ts';
import { setModelPrice, type PriceRequest } from './accounts/modelPrices.ts';
import { channelsUnfitFor } from './channelAdmin.ts';
import { asUsage, int, modelName, price, UsageError, yesNoUnknown } from './cliArgs.ts';
import type { Store } from './store/types.ts';
import { compareNames } from '../contract/index.ts';

/** The flags `model price` reads, as parseArgs gives them. */
export interface ModelFlags {
  readonly kind?: string | undefined;
  readonly input?: string | undefined;
  readonly output?: string | undefined;
  readonly 'per-image'?: string[] | undefined;
  readonly 'cached-input'?: string | undefined;
  readonly 'cache-write'?: string | undefined;
  readonly free?: boolean | undefined;
  readonly context?: string | undefined;
  readonly tools?: string | undefined;
  /** yes|no: it takes images as input (VS Code's chat then lets users attach them); absent keeps what it has. */
  readonly images?: string | undefined;
  readonly 'default-max-tokens'?: string | undefined;
  /** N, or "none" to remove it (as `key limits --spend-limit none`). */
  readonly 'max-output'?: string | undefined;
}

/** One line per priced model: its name, kind and prices, and what else is set (context, tools, images, default cap, maximum output). */
async function listModels(store: Store, io: { out: (line: string) => void }): Promise<number> {
  const served = new Set((await store.listChannels()).filter((c) => c.status === 'enabled').flatMap((c) => Object.keys(c.models)));
  for (const m of (await store.listModels()).sort((a, b) => compareNames(a.name, b.name))) {
    const prices = m.kind === 'image'
      ? `${formatMicroUsd(m.imagePrice ?? 0)}/image${m.imagePrices && Object.keys(m.imagePrices).length > 0 ? ` (${describeImagePrices(m.imagePrices, formatMicroUsd)})` : ''}`
      : [`in=${formatMicroUsd(m.inputPrice)}/M`, ...(m.kind === 'embedding' ? [] : [`out=${formatMicroUsd(m.outputPrice)}/M`]),
        ...(m.cachedInputPrice !== null && m.cachedInputPrice !== undefined ? [`cached-in=${formatMicroUsd(m.cachedInputPrice)}/M`] : []),
        ...(m.cacheWritePrice !== null && m.cacheWritePrice !== undefined ? [`cache-write=${formatMicroUsd(m.cacheWritePrice)}/M`] : [])].join('\t');
    const extra = [
      m.contextLength ? `context=${m.contextLength}` : '', m.toolCalling === null ? '' : `tools=${m.toolCalling ? 'yes' : 'no'}`,
      m.imageInput === null || m.imageInput === undefined ? '' : `images=${m.imageInput ? 'yes' : 'no'}`,
      m.defaultMaxTokens ? `default-max-tokens=${m.defaultMaxTokens}` : '', m.maxOutputTokens ? `max-output=${m.maxOutputTokens}` : '',
      served.has(m.name) ? '' : 'no-channel',
    ].filter(Boolean);
    io.out([m.name, m.kind, prices, ...extra].join('\t'));
  }
  return 0;
}

export async function model(store: Store, sub: string | undefined, args: string[], values: ModelFlags, io: { out: (line: string) => void; err: (line: string) => void }): Promise<number> {
  if (sub === 'list') return listModels(store, io);
  if (sub !== 'price') throw new UsageError(`unknown command: model ${sub ?? ''}`);
  const name = modelName(args[0], 'MODEL');
  const kind = values.kind ?? 'chat';
  if (!isModelKind(kind)) throw new UsageError(`--kind takes ${MODEL_KINDS.join(', ')}, got "${kind}"`);
  const free = values.free === true;
  const given = (flag: 'input' | 'output' | 'cached-input' | 'cache-write') => (values[flag] === undefined ? undefined : price(values[flag], `--${flag}`));
  const images = imagePricesOf(values['per-image'] ?? []);
  const request: PriceRequest = {
    model: name, kind, free, variants: images.variants,
    prices: { input: given('input'), output: given('output'), 'cached-input': given('cached-input'), 'cache-write': given('cache-write'), 'per-image': images.price },
    contextLength: values.context === undefined ? null : int(values.context, 'context', 0, MODEL_LIMITS.contextLength.min, MODEL_LIMITS.contextLength.max),
    ...said('toolCalling', yesNoUnknown(values.tools, 'tools')),
    ...said('imageInput', yesNoUnknown(values.images, 'images')),
    defaultMaxTokens: values['default-max-tokens'] === undefined ? null
      : int(values['default-max-tokens'], 'default-max-tokens', 0, MODEL_LIMITS.defaultMaxTokens.min, MODEL_LIMITS.defaultMaxTokens.max),
    ...maxOutputOf(values['max-output']),
  };
  const record = await asUsage(() => setModelPrice(store, request, { actor: CLI_ACTOR }, (field) => (field === 'per-image-variant' ? '--per-image' : `--${field}`)));
  if (free) io.out(`model "${name}" (${kind}): free, on purpose (served at no charge)`);
  else if (kind === 'image') {
    const variants = describeImagePrices(record.imagePrices, formatMicroUsd);
    io.out(`model "${name}" (image): ${formatMicroUsd(record.imagePrice ?? 0)} per image${variants ? `; ${variants}` : ''}`);
  }
  else if (kind === 'embedding') io.out(`model "${name}" (embedding): ${formatMicroUsd(record.inputPrice)} input per million tokens`);
  else {
    const cache = [['cached input', record.cachedInputPrice], ['cache write', record.cacheWritePrice]] as const;
    const extra = cache.filter(([, p]) => p !== null && p !== undefined).map(([what, p]) => `, ${formatMicroUsd(p!)} ${what}`).join('');
    io.out(`model "${name}" (${kind}): ${formatMicroUsd(record.inputPrice)} input, ${formatMicroUsd(record.outputPrice)} output${extra} per million tokens`);
  }
  const unfit = await channelsUnfitFor(store, name, kind);
  if (unfit.length > 0) io.err(`warning: no enabled channel that lists "${name}" can serve ${kind} models (${unfit.map((c) => `"${c.name}" is ${c.type}`).join(', ')}): it is not served`);
  return 0;
}

/** A yes/no/unknown flag as a PriceRequest field: left out when not given (kept as it is). */
function said<K extends 'toolCalling' | 'imageInput'>(field: K, value: boolean | null | undefined): Partial<Record<K, boolean | null>> {
  return value === undefined ? {} : ({ [field]: value } as Record<K, boolean | null>);
}

/** `--max-output N` sets it, `--max-output none` removes it, no flag keeps it. */
function maxOutputOf(flag: string | undefined): Pick<PriceRequest, 'maxOutputTokens'> {
  if (flag === undefined) return {};
  if (flag.trim() === 'none') return { maxOutputTokens: null };
  return { maxOutputTokens: int(flag, 'max-output', 0, MODEL_LIMITS.maxOutputTokens.min, MODEL_LIMITS.maxOutputTokens.max) };
}

/**
 * `--per-image USD` (the default, once) and `--per-image SIZE|QUALITY|SIZE,QUALITY=USD` for variants, read
 * from the flags' text; which kinds take them and their keys are the price rules' (accounts/modelPrices.ts).
 */
function imagePricesOf(flags: readonly string[]): { price: number | undefined; variants: [string, number][] } {
  const defaults = flags.filter((f) => !f.includes('='));
  if (flags.length > 0 && defaults.length !== 1) throw new UsageError('--per-image USD is required once (the price of an image of any other size or quality)');
  const variants = flags.filter((f) => f.includes('=')).map((flag): [string, number] => {
    const at = flag.lastIndexOf('=');
    return [flag.slice(0, at), price(flag.slice(at + 1), `--per-image ${flag.slice(0, at)}`)];
  });
  return { price: defaults.length === 1 ? price(defaults[0], '--per-image') : undefined, variants };
}
