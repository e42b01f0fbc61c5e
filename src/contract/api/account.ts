/**
 * What a key or a signed-in user reads of their own account (contract 4.5, 4.10): the console's view
 * of a key (`me`), the model catalogue with prices, and request logs, with the queries that filter them.
 */
import { z } from 'zod';
import { MODEL_KINDS } from '../kinds.ts';
import { IsoTime, IsoTimeOrNull, Money, MAX_PAGE, named, PageCursor, PageLimit, intParam, textParam } from './schema.ts';

/** A model as the console shows it: prices per million tokens, or per image. */
export const ModelView = named('Model', z.strictObject({
  name: z.string(),
  kind: z.enum(MODEL_KINDS),
  context_length: z.int().nullable(),
  tool_calling: z.boolean().nullable(),
  input_per_million: Money,
  output_per_million: Money,
  cached_input_per_million: Money.optional(),
  per_image: Money.optional(),
  per_image_by_variant: z.string().optional().describe('prices by size or quality, in words'),
}));

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

const LogFields = {
  time: IsoTime, request_id: z.string(), method: z.string(), path: z.string(), model: z.string().nullable(), status: z.int(), error_code: z.string().nullable(),
  prompt_tokens: z.int(), completion_tokens: z.int(), usage_estimated: z.boolean(), cost: Money, latency_ms: z.number(), first_byte_ms: z.number().nullable(), stream: z.boolean(),
};

/** A request of the key the console was opened with. */
export const KeyLog = named('KeyLog', z.strictObject({
  ...LogFields,
  completion_cap: z.int().nullable(),
  attempts: z.array(z.looseObject({ channel: z.string(), code: z.string(), detail: z.string(), ms: z.number().optional() })),
}));
export const KeyLogList = named('KeyLogList', z.strictObject({ object: z.literal('list'), limit: z.int(), data: z.array(KeyLog) }));

/** A date or date-time query parameter (ISO-8601), as epoch ms. */
const TimeParam = z.string().regex(/^\d{4}-\d{2}-\d{2}/, 'must be an ISO-8601 date or date-time')
  .refine((s) => Number.isFinite(Date.parse(s)), 'must be an ISO-8601 date or date-time').transform((s) => Date.parse(s)).optional()
  .describe('ISO-8601 date or date-time');

/** GET /api/console/account/logs: filters, a page, and CSV instead of JSON. */
export const AccountLogsQuery = z.strictObject({
  key: intParam(1, Number.MAX_SAFE_INTEGER).optional().describe("a key id of the account (another account's matches nothing)"),
  model: textParam(256),
  status: z.enum(['ok', 'error']).optional(),
  since: TimeParam,
  until: TimeParam,
  before: PageCursor.describe('the next_before of the page before'),
  limit: PageLimit,
  format: z.enum(['json', 'csv']).optional().describe('csv: the same rows (at most 10,000) as a file to download'),
});

/** A request of any key of the signed-in user's account. */
export const AccountLog = named('AccountLog', z.strictObject({ id: z.int().positive(), ...LogFields, key_id: z.int().nullable(), key_name: z.string().nullable() }));
export const AccountLogList = named('AccountLogList', z.strictObject({
  object: z.literal('list'), limit: z.int(), data: z.array(AccountLog), next_before: z.int().positive().nullable(),
}));
