/**
 * Request logs as the management API reads them (contract 1.3, 7.3 step 6): a signed-in user's own
 * account's (every key of it), and an admin's of every account; the filters, the pages both ways (older
 * with `before`, newer with `after`, which is what a live view polls with), the CSV, and one request in full.
 */
import { z } from 'zod';
import { IsoTime, Money, named, PageCursor, PageLimit, intParam, textParam } from './schema.ts';
import { parseIsoDate } from '../values.ts';
export { parseIsoDate };

/** What every log row says, the key's view (account.ts) and the account's alike. */
export const LogFields = {
  time: IsoTime, request_id: z.string(), method: z.string(), path: z.string(), model: z.string().nullable(), status: z.int(), error_code: z.string().nullable(),
  error_message: z.string().nullable().describe("the contract's words for error_code (what happened, what to do); null when there is none"),
  prompt_tokens: z.int(), completion_tokens: z.int(), usage_estimated: z.boolean(), cost: Money, latency_ms: z.number(), first_byte_ms: z.number().nullable(), stream: z.boolean(),
};

/** A channel tried before the one that ended the request, and why it failed there. */
export const LogAttempt = named('LogAttempt', z.looseObject({ channel: z.string(), code: z.string(), detail: z.string(), ms: z.number().optional() }));

/** A date or date-time query parameter (ISO-8601), as epoch ms. */
const TimeParam = z.string().transform((s, ctx) => {
  const parsed = parseIsoDate(s);
  if (typeof parsed === 'number') return parsed;
  ctx.addIssue({ code: 'custom', message: `must be an ISO-8601 date or date-time${parsed.why ? `: ${parsed.why}` : ''}` });
  return z.NEVER;
}).optional()
  .describe('ISO-8601 date or date-time');

/** How `after` works, said once: the document's and the live views' contract. */
export const AFTER_TEXT = 'a row id: only the rows written after it, OLDEST first (at most limit; an answer of limit rows may have more: ask again at once with its next_after). '
  + 'A live view polls with the next_after of its last answer and sees every new row exactly once, never one twice and none skipped: ids are handed out in the order rows become '
  + 'visible (on PostgreSQL each log batch takes its ids under a lock held until it commits, however many instances write). 0: from the first row kept.';

const LOG_FILTERS = {
  key: intParam(1, Number.MAX_SAFE_INTEGER).optional().describe("a key id of the account (another account's matches nothing)"),
  model: textParam(256),
  status: z.enum(['ok', 'error']).optional().describe('ok: answered 2xx or 3xx; error: any other status'),
  since: TimeParam,
  until: TimeParam,
  request_id: textParam(64).describe('exactly this request id (X-Request-Id of the answer; every error message ends with it)'),
  before: PageCursor.describe('the next_before of the page before: the rows older than it, newest first'),
  after: intParam(0, Number.MAX_SAFE_INTEGER).optional().describe(AFTER_TEXT),
  limit: PageLimit,
  format: z.enum(['json', 'csv']).optional().describe('csv: the same rows (at most 10,000) as a file to download'),
};

/** A page goes one way: older rows (before) or newer ones (after), never both at once. */
const oneWay = (q: { before?: unknown; after?: unknown }): boolean => q.before === undefined || q.after === undefined;
const ONE_WAY_ISSUE = { path: ['after'], message: 'cannot be given with before: a page goes one way' };

/** GET /api/console/account/logs: filters, a page either way, and CSV instead of JSON. */
export const AccountLogsQuery = z.strictObject(LOG_FILTERS).refine(oneWay, ONE_WAY_ISSUE);

/** GET /api/console/admin/logs: the same, over every account, and by account or user. */
export const AdminLogsQuery = z.strictObject({
  ...LOG_FILTERS,
  key: intParam(1, Number.MAX_SAFE_INTEGER).optional().describe('a key id'),
  account: textParam(128).describe('the rows of the account of this name (an unknown name is 404 account_not_found)'),
  user: textParam(128).describe("the rows of this user's account: requests are made with an account's keys, so the rows of every user of the account (an unknown name is 404 user_not_found)"),
}).refine(oneWay, ONE_WAY_ISSUE);

/** A request of any key of the signed-in user's account. */
export const AccountLog = named('AccountLog', z.strictObject({ id: z.int().positive(), ...LogFields, key_id: z.int().nullable(), key_name: z.string().nullable() }));

const PAGING = {
  limit: z.int(),
  next_before: z.int().positive().nullable().describe('the id to pass as before for the next (older) page; null: no more'),
  next_after: z.int().nonnegative().nullable().describe('the id to pass as after for the rows written after these (live polling); null on a page asked with before alone'),
};

export const AccountLogList = named('AccountLogList', z.strictObject({ object: z.literal('list'), ...PAGING, data: z.array(AccountLog) }));

/** A request of any account, for admins: the account named (null: no account was known, a refusal before a valid key). */
export const AdminLog = named('AdminLog', z.strictObject({ id: z.int().positive(), ...LogFields, key_id: z.int().nullable(), key_name: z.string().nullable(), account: z.string().nullable() }));
export const AdminLogList = named('AdminLogList', z.strictObject({ object: z.literal('list'), ...PAGING, data: z.array(AdminLog) }));

/** GET .../logs/detail?id=N. */
export const LogDetailQuery = z.strictObject({ id: intParam(1, Number.MAX_SAFE_INTEGER).describe('the row id (id of a log row)') });

/** Everything the gateway stored about one request. */
export const LogDetail = named('LogDetail', z.strictObject({
  object: z.literal('console.log'),
  id: z.int().positive(),
  ...LogFields,
  key_id: z.int().nullable(),
  key_name: z.string().nullable(),
  account: z.string().nullable(),
  channel: z.string().nullable().describe('the channel that answered, or the last one tried; null when none was'),
  upstream_model: z.string().nullable().describe("the model's name at that channel's upstream (a channel may map it); null when no channel was tried or before it was logged"),
  completion_cap: z.int().nullable().describe('the completion cap the gateway set or lowered (what the balance could pay, or the model\'s default); null when the client\'s own stood'),
  attempts: z.array(LogAttempt).describe('the channels that failed before the one that ended the request, in order'),
  user_agent: z.string().nullable().describe('the client\'s User-Agent (at most 256 characters); null when it sent none or before it was logged'),
  client_ip: z.string().nullable().describe('the address the request came from (behind a trusted proxy, the one it saw); null before it was logged'),
}));
export type LogDetail = z.infer<typeof LogDetail>;

/** Rows a CSV answer holds at most. */
export const MAX_CSV_ROWS = 10_000;
