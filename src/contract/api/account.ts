/**
 * What a key or a signed-in user reads of their own account (contract 4.5, 4.10): the console's view
 * of a key (`me`), the model catalogue with prices, and the key's request logs (an account's are logs.ts's).
 */
import { z } from 'zod';
import { MODEL_KINDS } from '../kinds.ts';
import { IsoTimeOrNull, Money, MAX_PAGE, named, textParam } from './schema.ts';
import { LogAttempt, LogFields } from './logs.ts';

/** A model as the console shows it: prices per million tokens, or per image. */
export const ModelView = named('Model', z.strictObject({
  name: z.string(),
  kind: z.enum(MODEL_KINDS),
  context_length: z.int().nullable(),
  max_output_tokens: z.int().nullable().describe('the most it writes in one answer: a larger cap is lowered to it'),
  tool_calling: z.boolean().nullable(),
  image_input: z.boolean().nullable().describe('it takes images as input; null: not said'),
  free: z.boolean().describe('priced at zero throughout: served at no charge, on purpose'),
  input_per_million: Money,
  output_per_million: Money,
  cached_input_per_million: Money.optional(),
  per_image: Money.optional(),
  per_image_by_variant: z.string().optional().describe('prices by size or quality, in words'),
}));
export type ModelView = z.infer<typeof ModelView>;

/** GET /api/console/models?q=: the catalogue, by name. */
export const CatalogueQuery = z.object({ q: textParam(256).describe('keeps the names that contain it, in any case') });
export const Catalogue = named('ModelList', z.strictObject({ object: z.literal('list'), data: z.array(ModelView) }));

/** GET /api/console/me: the key the console was opened with (masked), its account's money, the models it may use. */
export const ConsoleMe = named('ConsoleMe', z.strictObject({
  object: z.literal('console.me'),
  key: z.strictObject({
    name: z.string(), prefix: z.string(), status: z.enum(['enabled', 'disabled']), models: z.array(z.string()).nullable(),
    expires_at: IsoTimeOrNull, created_at: IsoTimeOrNull, rpm: z.int(), concurrency: z.int(),
  }),
  account: z.strictObject({ name: z.string().nullable() }),
  balance: z.strictObject({ remaining: Money, used: Money }),
  models: z.array(ModelView),
}));

/** GET /api/console/logs?limit=N: N from 1 (more than 200 is read as 200), 50 when absent. */
export const KeyLogsQuery = z.object({
  limit: z.string().regex(/^\d{1,6}$/, `must be an integer from 1 to ${MAX_PAGE}`).transform(Number)
    .pipe(z.int().min(1, `must be an integer from 1 to ${MAX_PAGE}`)).transform((n) => Math.min(n, MAX_PAGE)).optional()
    .describe(`rows, from 1 (more than ${MAX_PAGE} is read as ${MAX_PAGE}; 50 when absent)`),
});

/** A request of the key the console was opened with. */
export const KeyLog = named('KeyLog', z.strictObject({
  ...LogFields,
  completion_cap: z.int().nullable(),
  attempts: z.array(LogAttempt),
}));
export const KeyLogList = named('KeyLogList', z.strictObject({ object: z.literal('list'), limit: z.int(), data: z.array(KeyLog) }));
