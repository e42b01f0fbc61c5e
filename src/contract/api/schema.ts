/**
 * The building blocks of the management API's schemas (everything under /api/): the registry that
 * names the schemas the OpenAPI document lists as components (openapi.ts), and the shapes many
 * answers share: exact money, times, pages, the contract's error body (7.1). Zod schemas only: the
 * gateway parses with them, the document is generated from them.
 */
import { z } from 'zod';
import { ERROR_CODES, GATEWAY_ERROR_TYPE, type ErrorCode } from '../errors.ts';

/** The named schemas of the management API: each becomes `#/components/schemas/<id>` in the document. */
export const API_SCHEMAS = z.registry<{ id: string; description?: string }>();

/** `schema`, listed in the document as the component `id`. */
export function named<T extends z.ZodType>(id: string, schema: T, description?: string): T {
  API_SCHEMAS.add(schema, { id, ...(description ? { description } : {}) });
  // Descriptions are read from zod's global registry, where .describe() puts them.
  if (description) z.globalRegistry.add(schema, { ...z.globalRegistry.get(schema), description });
  return schema;
}

/** Exact money both ways: integer micro-USD, and the same amount as a decimal USD string ("9.999876"). */
export const Money = named('Money', z.strictObject({ micro_usd: z.int().nonnegative(), usd: z.string() }), 'An amount both ways: whole micro-USD (1 USD = 1,000,000), and the same as a decimal USD string.');

/** A time as the API answers it: ISO-8601 in UTC. */
export const IsoTime = z.string().describe('ISO-8601 date-time, UTC');
/** A time that may not have happened (never used, never expires). */
export const IsoTimeOrNull = IsoTime.nullable();

/** A date-time the API accepts: ISO-8601 with its offset ("2026-12-31T18:00:00Z"). */
export const IsoDateTimeInput = z.iso.datetime({ offset: true });

/** Every code of the error table (7.2), as the error body's `code` names them. */
export const ERROR_CODE_NAMES = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];

/** The error body of contract 7.1: every refusal of the management API (the OAuth endpoints excepted) has this shape. */
export const ApiErrorBody = named('Error', z.strictObject({
  error: z.strictObject({
    message: z.string().describe("The table's words for the code, a detail when there is one, then \"(request id: ...)\""),
    type: z.literal(GATEWAY_ERROR_TYPE),
    code: z.enum(ERROR_CODE_NAMES).describe('Stable: what scripts match on, never the message'),
  }),
}), 'The error body of contract 7.1.');

/** A query parameter that is a whole number from `min` to `max` (decimal digits only). */
export function intParam(min: number, max: number) {
  return z.string().regex(/^\d{1,15}$/, `must be an integer from ${min} to ${max}`).transform(Number)
    .pipe(z.int().min(min, `must be an integer from ${min} to ${max}`).max(max, `must be an integer from ${min} to ${max}`))
    .describe(`an integer from ${min} to ${max}`);
}

/** The most rows a page of a list holds, and how many when `limit` is not given. */
export const MAX_PAGE = 200;
export const DEFAULT_PAGE = 50;

/** `limit`: rows per page, 1..200 (50 when absent). */
export const PageLimit = intParam(1, MAX_PAGE).optional().describe(`rows per page, 1 to ${MAX_PAGE} (${DEFAULT_PAGE} when absent)`);
/** A row id a page continues from (the answer's `next_before` or `next_after`). */
export const PageCursor = intParam(1, Number.MAX_SAFE_INTEGER).optional();

/** A text query parameter of at most `max` characters. */
export const textParam = (max: number) => z.string().max(max).optional();
