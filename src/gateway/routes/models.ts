/**
 * GET /v1/models (contract 4.2): OpenAI's list shape, exactly the models this key may use. Each model and the list
 * also carry Anthropic's fields (type, display_name, created_at; has_more, first_id, last_id), so that an Anthropic
 * client pointed here (the SDKs' models.list(), Claude Code) reads the same list: either kind ignores the other's.
 */
import { ECHO_OWNER, ModelName } from '../../contract/index.ts';
import type { ServableModel } from '../catalog.ts';
import { HttpError } from '../http/errors.ts';
import { sendJson } from '../http/json.ts';
import { requireKey } from './common.ts';
import { notPriced } from './relayed.ts';
import type { Handler } from './common.ts';

export const OWNER = 'model-gateway';

/** One model as OpenAI's model object and Anthropic's, with the gateway's extra fields (kind, context, capabilities, prices). */
function modelObject({ name, channel, model }: ServableModel): Record<string, unknown> {
  return {
    id: name,
    object: 'model',
    created: Math.floor(channel.createdAt / 1000),
    owned_by: channel.type === 'echo' ? ECHO_OWNER : OWNER,
    type: 'model',
    display_name: name,
    created_at: new Date(channel.createdAt).toISOString(),
    kind: model?.kind ?? 'chat',
    ...(model?.contextLength ? { context_length: model.contextLength } : {}),
    // The name OpenRouter and LiteLLM give it; the extension reads it for VS Code's model picker.
    ...(model?.maxOutputTokens ? { max_output_tokens: model.maxOutputTokens } : {}),
    ...capabilitiesOf(model),
    pricing: model?.kind === 'image'
      ? {
          per_image_usd: (model.imagePrice ?? 0) / 1e6,
          ...(model.imagePrices && Object.keys(model.imagePrices).length > 0
            ? { per_image_usd_by_variant: Object.fromEntries(Object.entries(model.imagePrices).map(([variant, price]) => [variant, price / 1e6])) }
            : {}),
        }
      : {
          input_per_million_usd: (model?.inputPrice ?? 0) / 1e6,
          output_per_million_usd: (model?.outputPrice ?? 0) / 1e6,
          ...(typeof model?.cachedInputPrice === 'number' ? { cached_input_per_million_usd: model.cachedInputPrice / 1e6 } : {}),
          ...(typeof model?.cacheWritePrice === 'number' ? { cache_write_per_million_usd: model.cacheWritePrice / 1e6 } : {}),
        },
  };
}

/**
 * What the model says it can do, each only when said: `capabilities` (tool calling, image input; VS Code's chat
 * lets users attach images only to a model that takes them, and the extension reads this), and for image input
 * OpenRouter's `architecture.input_modalities` too, which other clients read.
 */
function capabilitiesOf(model: ServableModel['model']): Record<string, unknown> {
  const said = (flag: boolean | null | undefined): flag is boolean => flag !== null && flag !== undefined;
  const capabilities = {
    ...(said(model?.toolCalling) ? { tool_calling: model.toolCalling } : {}),
    ...(said(model?.imageInput) ? { image_input: model.imageInput } : {}),
  };
  return {
    ...(Object.keys(capabilities).length > 0 ? { capabilities } : {}),
    ...(said(model?.imageInput) ? { architecture: { input_modalities: model.imageInput ? ['text', 'image'] : ['text'] } } : {}),
  };
}

export const models: Handler = async (gw, ctx) => {
  const key = await requireKey(gw, ctx);
  const { data, hasMore } = pageOf(gw.catalog.modelsForKey(key).map(modelObject), new URLSearchParams(ctx.req.url?.split('?')[1] ?? ''));
  sendJson(ctx.res, ctx.id, 200, { object: 'list', data, has_more: hasMore, first_id: data[0]?.['id'] ?? null, last_id: data.at(-1)?.['id'] ?? null });
};

/**
 * Anthropic's pages of the list (`limit` 1..1000, `after_id`, `before_id`: what its SDKs' models.list() sends), when
 * asked for: a client that asks for none (OpenAI's) gets every model at once, as before.
 */
function pageOf(all: Record<string, unknown>[], query: URLSearchParams): { data: Record<string, unknown>[]; hasMore: boolean } {
  const after = query.get('after_id');
  const before = query.get('before_id');
  const limitText = query.get('limit');
  const limit = limitText === null ? null : Number(limitText);
  if (limit !== null && !(Number.isInteger(limit) && limit >= 1 && limit <= 1000)) throw new HttpError('invalid_request', 'limit: a whole number from 1 to 1000.');
  const at = (id: string): number => all.findIndex((m) => m['id'] === id);
  let list = all;
  if (after !== null) list = at(after) < 0 ? [] : all.slice(at(after) + 1);
  else if (before !== null) list = at(before) < 0 ? [] : all.slice(0, at(before));
  if (limit === null || list.length <= limit) return { data: list, hasMore: false };
  // Before an id, the page is the last `limit` of those before it (the ones nearest it), as Anthropic pages back.
  return before !== null && after === null ? { data: list.slice(-limit), hasMore: true } : { data: list.slice(0, limit), hasMore: true };
}

/** Where GET /v1/models/{model} starts (OpenAI's retrieve; the name URL-encoded, as the SDKs send one with a slash). */
export const MODEL_PATH_PREFIX = '/v1/models/';

/**
 * GET /v1/models/{model}: one model of the list (200 exactly for a listed one). One that is not listed gets what a
 * request for it would be told of the model: 403 model_not_priced for one a channel serves without a price (not
 * served, so not listed, but not unknown either: the operator's to fix), else 404 (unknown, or not this key's).
 */
export const oneModel: Handler = async (gw, ctx) => {
  const key = await requireKey(gw, ctx);
  const raw = ctx.path.slice(MODEL_PATH_PREFIX.length);
  let name: string;
  try {
    name = decodeURIComponent(raw);
  } catch {
    throw new HttpError('invalid_request', 'The model name in the path is not valid URL encoding.');
  }
  const checked = ModelName.safeParse(name);
  if (!checked.success) throw new HttpError('invalid_request', `model (in the path): ${checked.error.issues[0]!.message}`);
  const found = gw.catalog.modelsForKey(key).find((m) => m.name === name);
  // Unpriced is said only to a key that may use the model: to others it is as unknown as any model not theirs.
  const mayUse = key.models === null || key.models.includes(name);
  if (!found) throw mayUse && gw.catalog.lookup(name).kind === 'unpriced' ? notPriced(name) : new HttpError('model_not_found', `Requested: "${name}".`);
  sendJson(ctx.res, ctx.id, 200, modelObject(found));
};
