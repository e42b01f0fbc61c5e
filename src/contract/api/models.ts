/**
 * The management API of models and their prices (issue 10; contract 4.10 "Admins"): the body of a price
 * (the CLI's `model price` with the same rules: per million input and output tokens, per image with
 * variants by size and quality, or free on purpose) and the admins' model list, where a model a channel
 * serves without a price shows as unpriced (the gateway refuses it, 403 model_not_priced, until priced).
 */
import { z } from 'zod';
import { MODEL_KINDS } from '../kinds.ts';
import { ConfigurableModelName } from './channels.ts';
import { Money, named, textParam } from './schema.ts';
import { MODEL_LIMITS } from '../values.ts';

export const ADMIN_MODELS_PATH = '/api/console/admin/models';
export const ADMIN_MODEL_PRICE_PATH = '/api/console/admin/models/price';

export { MODEL_LIMITS };

/** A price in USD, as decimal text ("0.15") or a JSON number (read through its shortest decimal text): at most 6 decimals, at most $1,000,000. */
const Usd = z.union([z.string().min(1).max(32), z.number()]);

/**
 * POST /api/console/admin/models/price. Chat and completion models take `input_usd` and `output_usd` (per
 * million tokens; `cached_input_usd`, `cache_write_usd` optional), embeddings `input_usd` alone, images
 * `per_image_usd` (the default) with `per_image_variants_usd` by "SIZE", "QUALITY" or "SIZE,QUALITY";
 * `free: true` takes no price and serves the model at no charge. `context_length` and `default_max_tokens` are kept
 * when absent or null; `tool_calling` and `image_input` are kept when absent, and null makes them "not said";
 * `max_output_tokens` is kept when absent and removed by null.
 */
export const ModelPriceBody = named('ModelPriceBody', z.strictObject({
  model: ConfigurableModelName,
  kind: z.enum(MODEL_KINDS).optional(),
  free: z.boolean().optional(),
  input_usd: Usd.optional(),
  output_usd: Usd.optional(),
  cached_input_usd: Usd.optional(),
  cache_write_usd: Usd.optional(),
  per_image_usd: Usd.optional(),
  per_image_variants_usd: z.record(z.string().max(64), Usd).optional(),
  context_length: z.int().min(MODEL_LIMITS.contextLength.min).max(MODEL_LIMITS.contextLength.max).nullable().optional(),
  tool_calling: z.boolean().nullable().optional().describe('it calls tools: absent keeps it, null makes it not said'),
  image_input: z.boolean().nullable().optional().describe('it takes images as input (VS Code\'s chat lets users attach them only then): absent keeps it, null makes it not said'),
  default_max_tokens: z.int().min(MODEL_LIMITS.defaultMaxTokens.min).max(MODEL_LIMITS.defaultMaxTokens.max).nullable().optional(),
  max_output_tokens: z.int().min(MODEL_LIMITS.maxOutputTokens.min).max(MODEL_LIMITS.maxOutputTokens.max).nullable().optional()
    .describe('the most the model writes in one answer (larger caps are lowered to it): absent keeps it, null removes it'),
}));
export type ModelPriceBody = z.infer<typeof ModelPriceBody>;

/** A model as the admins' list shows it: priced or not, and which channels serve it. */
export const AdminModelView = named('AdminModel', z.strictObject({
  name: z.string(),
  /** Null for a model a channel serves that has no price (nor kind) yet. */
  kind: z.enum(MODEL_KINDS).nullable(),
  priced: z.boolean(),
  /** Priced at zero throughout: served at no charge, on purpose. */
  free: z.boolean(),
  input_per_million: Money.nullable(),
  output_per_million: Money.nullable(),
  cached_input_per_million: Money.nullable(),
  cache_write_per_million: Money.nullable(),
  per_image: Money.nullable(),
  per_image_variants: z.record(z.string(), Money).nullable(),
  context_length: z.int().nullable(),
  tool_calling: z.boolean().nullable(),
  /** It takes images as input; null: not said. */
  image_input: z.boolean().nullable(),
  default_max_tokens: z.int().nullable(),
  max_output_tokens: z.int().nullable(),
  /** The channels that list it (enabled or not), by name. */
  channels: z.array(z.string()),
  /** An enabled channel serves it: with a price, clients can use it now. */
  served: z.boolean(),
}));
export type AdminModelView = z.infer<typeof AdminModelView>;

export const AdminModelList = named('AdminModelList', z.strictObject({ object: z.literal('list'), data: z.array(AdminModelView) }));

/** GET /api/console/admin/models?q=. */
export const AdminModelsQuery = z.strictObject({ q: textParam(256).describe('keeps the names that contain it, in any case') });
/** 200 to POST /api/console/admin/models/price: the model as it now is. */
export const AdminModelAnswer = named('AdminModelAnswer', z.strictObject({ object: z.literal('console.model'), model: AdminModelView }));
