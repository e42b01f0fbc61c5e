/**
 * Models and prices for admins (issue 10, contract 4.10 "Admins"): GET /api/console/admin/models?q= lists
 * every model, priced or served by a channel, with its prices (per million tokens, per image with its
 * variants), kind, context, tools, image input, the channels that list it and whether it is unpriced (a channel serves
 * it, the gateway refuses it until it is priced); POST /api/console/admin/models/price sets a price with
 * the CLI's `model price` rules (accounts/modelPrices.ts), `free` included, recorded in the audit log
 * under the admin's name (and the token's). An admin only (a session, or an admin access token; api.ts).
 */
import type { AdminModelView, ModelPriceBody as PriceBody } from '../../contract/index.ts';
import { isFree, setModelPrice, type PriceField, type PriceRequest } from '../accounts/modelPrices.ts';
import type { ChannelRecord, ModelRecord } from '../store/types.ts';
import type { Gateway } from '../gateway.ts';
import type { ApiHandler } from './api.ts';
import { money } from './consoleCatalog.ts';
import { priceField, refusal } from './consoleSchemas.ts';
import { compareNames } from '../../contract/index.ts';

const orNull = (micro: number | null | undefined) => (micro === null || micro === undefined ? null : money(micro));

function modelView(name: string, model: ModelRecord | undefined, channels: readonly ChannelRecord[]): AdminModelView {
  const listing = channels.filter((c) => Object.hasOwn(c.models, name));
  const variants = model?.imagePrices && Object.keys(model.imagePrices).length > 0 ? model.imagePrices : null;
  return {
    name, kind: model?.kind ?? null, priced: model !== undefined, free: model !== undefined && isFree(model),
    input_per_million: model && model.kind !== 'image' ? money(model.inputPrice) : null,
    output_per_million: model && (model.kind === 'chat' || model.kind === 'completion') ? money(model.outputPrice) : null,
    cached_input_per_million: orNull(model?.cachedInputPrice), cache_write_per_million: orNull(model?.cacheWritePrice),
    per_image: model?.kind === 'image' ? money(model.imagePrice ?? 0) : null,
    per_image_variants: variants ? Object.fromEntries(Object.entries(variants).map(([k, v]) => [k, money(v)])) : null,
    context_length: model?.contextLength ?? null, tool_calling: model?.toolCalling ?? null, image_input: model?.imageInput ?? null,
    default_max_tokens: model?.defaultMaxTokens ?? null, max_output_tokens: model?.maxOutputTokens ?? null,
    channels: listing.map((c) => c.name), served: listing.some((c) => c.status === 'enabled'),
  };
}

/** Every model the store prices or a channel lists, by name, as the store holds them now. */
async function modelViews(gw: Gateway): Promise<AdminModelView[]> {
  const [models, channels] = await Promise.all([gw.store.listModels(), gw.store.listChannels()]);
  const byName = new Map(models.map((m) => [m.name, m]));
  const names = new Set([...byName.keys(), ...channels.flatMap((c) => Object.keys(c.models))]);
  return [...names].sort(compareNames).map((name) => modelView(name, byName.get(name), channels));
}

/** GET /api/console/admin/models?q=: `q` (at most 256 characters) keeps the names that contain it, in any case. */
export const adminModels: ApiHandler<'listAdminModels'> = async (gw, _ctx, { query }) => {
  const needle = (query.q ?? '').trim().toLowerCase();
  return { body: { object: 'list', data: (await modelViews(gw)).filter((m) => m.name.toLowerCase().includes(needle)) } };
};

/** The body's field for each price field of the rules. */
const FIELD_OF: Readonly<Record<PriceField, string>> = {
  input: 'input_usd', output: 'output_usd', 'cached-input': 'cached_input_usd', 'cache-write': 'cache_write_usd',
  'per-image': 'per_image_usd', 'per-image-variant': 'per_image_variants_usd', free: 'free', 'default-max-tokens': 'default_max_tokens',
  'max-output': 'max_output_tokens',
};

function priceRequest(body: PriceBody): PriceRequest {
  const usd = (value: string | number | undefined, field: string) => (value === undefined ? undefined : priceField(value, field));
  return {
    model: body.model, kind: body.kind ?? 'chat', free: body.free === true,
    prices: {
      input: usd(body.input_usd, FIELD_OF.input), output: usd(body.output_usd, FIELD_OF.output), 'cached-input': usd(body.cached_input_usd, FIELD_OF['cached-input']),
      'cache-write': usd(body.cache_write_usd, FIELD_OF['cache-write']), 'per-image': usd(body.per_image_usd, FIELD_OF['per-image']),
    },
    variants: Object.entries(body.per_image_variants_usd ?? {}).map(([variant, value]) => [variant, priceField(value, `${FIELD_OF['per-image-variant']}.${variant}`)] as const),
    contextLength: body.context_length ?? null,
    ...(body.tool_calling === undefined ? {} : { toolCalling: body.tool_calling }),
    ...(body.image_input === undefined ? {} : { imageInput: body.image_input }),
    defaultMaxTokens: body.default_max_tokens ?? null,
    // Absent keeps it, null removes it.
    ...(body.max_output_tokens === undefined ? {} : { maxOutputTokens: body.max_output_tokens }),
  };
}

/** POST /api/console/admin/models/price: answers the model as it now is. */
export const adminPriceModel: ApiHandler<'priceModel'> = async (gw, _ctx, { caller, body }) => {
  try {
    await setModelPrice(gw.store, priceRequest(body), caller.acting, (field) => FIELD_OF[field]);
  } catch (error) {
    refusal(error, 'model_not_found');
  }
  return { body: { object: 'console.model', model: (await modelViews(gw)).find((m) => m.name === body.model)! } };
};
