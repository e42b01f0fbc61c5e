/**
 * `model-gateway model ...`: prices (per token, per image by size and quality, free on purpose) and
 * what else a model has (kind, context, tools, default cap); `model list` shows them.
 */
import { CLI_ACTOR, formatMicroUsd, isModelKind, MODEL_KINDS, type ModelKind } from '../contract/index.ts';
import { describeImagePrices, imagePriceKey } from './accounts/imagePrices.ts';
import { int, modelName, price, UsageError, yesNo } from './cliArgs.ts';
import type { Store } from './store/types.ts';

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
  readonly 'default-max-tokens'?: string | undefined;
}

/** One line per priced model: its name, kind and prices, and what else is set (context, tools, default cap). */
async function listModels(store: Store, io: { out: (line: string) => void }): Promise<number> {
  const served = new Set((await store.listChannels()).filter((c) => c.status === 'enabled').flatMap((c) => Object.keys(c.models)));
  for (const m of (await store.listModels()).sort((a, b) => a.name.localeCompare(b.name))) {
    const prices = m.kind === 'image'
      ? `${formatMicroUsd(m.imagePrice ?? 0)}/image${m.imagePrices && Object.keys(m.imagePrices).length > 0 ? ` (${describeImagePrices(m.imagePrices, formatMicroUsd)})` : ''}`
      : `in=${formatMicroUsd(m.inputPrice)}/M\tout=${formatMicroUsd(m.outputPrice)}/M`;
    const extra = [
      m.contextLength ? `context=${m.contextLength}` : '', m.toolCalling === null ? '' : `tools=${m.toolCalling ? 'yes' : 'no'}`,
      m.defaultMaxTokens ? `default-max-tokens=${m.defaultMaxTokens}` : '', served.has(m.name) ? '' : 'no-channel',
    ].filter(Boolean);
    io.out([m.name, m.kind, prices, ...extra].join('\t'));
  }
  return 0;
}

export async function model(store: Store, sub: string | undefined, args: string[], values: ModelFlags, io: { out: (line: string) => void }): Promise<number> {
  if (sub === 'list') return listModels(store, io);
  if (sub !== 'price') throw new UsageError(`unknown command: model ${sub ?? ''}`);
  const name = modelName(args[0], 'MODEL');
  const kind = values.kind ?? 'chat';
  if (!isModelKind(kind)) throw new UsageError(`--kind takes ${MODEL_KINDS.join(', ')}, got "${kind}"`);

  const allowed = PRICE_FLAGS[kind];
  const free = values.free === true;
  for (const flag of ['input', 'output', 'per-image', 'cached-input', 'cache-write'] as const) {
    if (values[flag] !== undefined && free) throw new UsageError(`--free takes no prices (drop --${flag})`);
    if (values[flag] !== undefined && !allowed.includes(flag)) throw new UsageError(`--${flag} does not apply to ${kind} models (they take ${allowed.map((f) => `--${f}`).join(' and ')})`);
  }
  const tokenPrice = (flag: 'input' | 'output') => (allowed.includes(flag) && !free ? price(values[flag], `--${flag}`) : 0);
  const cachePrice = (flag: 'cached-input' | 'cache-write') => (values[flag] === undefined ? null : price(values[flag], `--${flag}`));
  const inputPrice = tokenPrice('input');
  const outputPrice = tokenPrice('output');
  const images = kind !== 'image' ? null : free ? { price: 0, byVariant: {} } : imagePricesOf(values['per-image'] ?? []);
  const imagePrice = images?.price ?? null;
  const record = {
    name, kind, inputPrice, outputPrice, imagePrice, imagePrices: images?.byVariant ?? null,
    cachedInputPrice: cachePrice('cached-input'), cacheWritePrice: cachePrice('cache-write'),
    contextLength: values.context === undefined ? null : int(values.context, 'context', 0, 1),
    toolCalling: yesNo(values.tools, 'tools'),
    defaultMaxTokens: values['default-max-tokens'] === undefined ? null : int(values['default-max-tokens'], 'default-max-tokens', 0, 1, 10_000_000),
  };
  // The audit row: the prices set, in micro-USD (per million tokens, or per image).
  const { name: _name, ...details } = record;
  await store.setModel(record, { actor: CLI_ACTOR, action: 'model.price', target: name, details: { ...details, free } });
  if (free) io.out(`model "${name}" (${kind}): free, on purpose (served at no charge)`);
  else if (images) {
    const variants = describeImagePrices(images.byVariant, formatMicroUsd);
    io.out(`model "${name}" (image): ${formatMicroUsd(images.price)} per image${variants ? `; ${variants}` : ''}`);
  }
  else if (kind === 'embedding') io.out(`model "${name}" (embedding): ${formatMicroUsd(inputPrice)} input per million tokens`);
  else {
    const cache = [['cached input', cachePrice('cached-input')], ['cache write', cachePrice('cache-write')]] as const;
    const extra = cache.filter(([, p]) => p !== null).map(([what, p]) => `, ${formatMicroUsd(p!)} ${what}`).join('');
    io.out(`model "${name}" (${kind}): ${formatMicroUsd(inputPrice)} input, ${formatMicroUsd(outputPrice)} output${extra} per million tokens`);
  }
  return 0;
}

/** `--per-image USD` (the default, required once) and `--per-image SIZE|QUALITY|SIZE,QUALITY=USD` for variants. */
function imagePricesOf(flags: readonly string[]): { price: number; byVariant: Record<string, number> } {
  const defaults = flags.filter((f) => !f.includes('='));
  if (defaults.length !== 1) throw new UsageError('--per-image USD is required once (the price of an image of any other size or quality)');
  const byVariant: Record<string, number> = {};
  for (const flag of flags.filter((f) => f.includes('='))) {
    const at = flag.lastIndexOf('=');
    const key = imagePriceKey(flag.slice(0, at));
    if (key instanceof Error) throw new UsageError(`--per-image: ${key.message}`);
    if (Object.hasOwn(byVariant, key)) throw new UsageError(`--per-image: ${key} is priced twice`);
    byVariant[key] = price(flag.slice(at + 1), `--per-image ${key}`);
  }
  return { price: price(defaults[0], '--per-image'), byVariant };
}

/** The prices each kind takes: input, output and per-image ones required, cache ones optional (the input price when absent). */
const PRICE_FLAGS: Readonly<Record<ModelKind, readonly ('input' | 'output' | 'per-image' | 'cached-input' | 'cache-write')[]>> = {
  chat: ['input', 'output', 'cached-input', 'cache-write'],
  completion: ['input', 'output', 'cached-input', 'cache-write'],
  embedding: ['input'],
  image: ['per-image'],
};
