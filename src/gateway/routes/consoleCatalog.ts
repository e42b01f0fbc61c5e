/**
 * GET /api/console/models?q=TEXT: the model catalogue of a signed-in user (contract 1.3): every model
 * open to their account (priced and served by an enabled channel; accounts are not narrowed, keys are)
 * with its exact name, kind, context length, prices, tool support and image input, by name; `q` keeps the names
 * that contain it (any case). Channels and upstream names are the operator's, never shown.
 */
import { decimalUsd, formatMicroUsd } from '../../contract/index.ts';
import { describeImagePrices } from '../accounts/imagePrices.ts';
import { isFree } from '../accounts/modelPrices.ts';
import { HttpError } from '../http/errors.ts';
import type { Gateway } from '../gateway.ts';
import type { ModelRecord } from '../store/types.ts';
import type { ApiHandler } from './api.ts';
import { compareNames } from '../../contract/index.ts';

/** Exact money both ways: integer micro-USD, and the same amount as a plain decimal USD string ("9.999876", "1234.50"). */
export function money(micro: number): { micro_usd: number; usd: string } {
  return { micro_usd: micro, usd: decimalUsd(micro) };
}

/** A time as the console's answers give it: ISO-8601, or null for none (never, not yet). */
export function isoTime(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/** A model as the console shows it: prices per million tokens, or per image. */
export function modelView(name: string, model: ModelRecord) {
  return {
    name,
    kind: model.kind,
    context_length: model.contextLength,
    max_output_tokens: model.maxOutputTokens ?? null,
    tool_calling: model.toolCalling,
    image_input: model.imageInput ?? null,
    // Said outright, so the console writes "free" rather than "$0.00" prices that look like a missing one.
    free: isFree(model),
    input_per_million: money(model.inputPrice),
    output_per_million: money(model.outputPrice),
    ...(model.cachedInputPrice != null ? { cached_input_per_million: money(model.cachedInputPrice) } : {}),
    ...(model.kind === 'image' ? { per_image: money(model.imagePrice ?? 0) } : {}),
    ...(model.imagePrices && Object.keys(model.imagePrices).length > 0 ? { per_image_by_variant: describeImagePrices(model.imagePrices, formatMicroUsd) } : {}),
  };
}

/** A list of model names that must all exist (a key's, a device sign-in's): a 400 naming the ones that do not. */
export function refuseUnknownModels(gw: Gateway, models: readonly string[] | null | undefined): void {
  const unknown = (models ?? []).filter((m) => gw.catalog.lookup(m).kind === 'unknown');
  if (unknown.length > 0) throw new HttpError('invalid_request', `models: no model named ${unknown.map((m) => JSON.stringify(m)).join(', ')}.`);
}

export const catalogue: ApiHandler<'listModels'> = (gw, _ctx, { query }) => {
  const needle = (query.q ?? '').trim().toLowerCase();
  const data = gw.catalog.servable()
    .filter((m) => m.name.toLowerCase().includes(needle))
    .sort((a, b) => compareNames(a.name, b.name))
    .map(({ name, model }) => modelView(name, model));
  return { body: { object: 'list', data } };
};
