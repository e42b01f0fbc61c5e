/**
 * The management API of redemption codes (top-up, issue 10; contract 4.10): the bodies and query the
 * gateway accepts and the shapes it answers, written once for the gateway and any client. Money goes in
 * as decimal USD (at most 6 decimals, checked exactly by the gateway) and comes out both ways, as
 * integer micro-USD and as a decimal USD string.
 */
import { z } from 'zod';
import { ConsoleName } from '../admin.ts';
import { IsoDateTimeInput, IsoTime, IsoTimeOrNull, Money, named, PageCursor, PageLimit, textParam } from './schema.ts';

export const ADMIN_CODES_PATH = '/api/console/admin/codes';
export const ADMIN_CODES_DISABLE_PATH = '/api/console/admin/codes/disable';
export const REDEEM_PATH = '/api/console/account/redeem';

/** Codes made at once, at most. */
export const MAX_CODES_PER_BATCH = 1000;
import { CODE_STATUSES, type CodeStatusName } from '../values.ts';

export { CODE_STATUSES, type CodeStatusName };

/** A batch name: what the CLI accepts for names (ConsoleName: 1 to 64 letters, digits, ".", "_", "-" or "@"). */
const BatchName = ConsoleName;

/** POST /api/console/admin/codes. `value_usd`: decimal USD as a string ("5", "0.25") or a JSON number. */
export const CreateCodesBody = named('CreateCodesBody', z.strictObject({
  value_usd: z.union([z.string().min(1).max(32), z.number()]),
  count: z.int().min(1).max(MAX_CODES_PER_BATCH).optional(),
  batch: BatchName.nullable().optional(),
  expires_at: IsoDateTimeInput.nullable().optional().describe('in the future; absent or null: never expires'),
}));
export type CreateCodesBody = z.infer<typeof CreateCodesBody>;

/** POST /api/console/admin/codes/disable: one code by id, or every unused code of a batch. */
export const DisableCodesBody = named('DisableCodesBody', z.union([z.strictObject({ id: z.int().positive() }), z.strictObject({ batch: BatchName })]));
export type DisableCodesBody = z.infer<typeof DisableCodesBody>;

/** POST /api/console/account/redeem. */
export const RedeemBody = named('RedeemBody', z.strictObject({ code: z.string().min(1).max(128) }));
export type RedeemBody = z.infer<typeof RedeemBody>;

/** A code as the admin list shows it: never the code itself. */
export const CodeView = named('Code', z.strictObject({
  id: z.int().positive(),
  batch: z.string().nullable(),
  value: Money,
  status: z.enum(CODE_STATUSES),
  created_at: IsoTime,
  created_by: z.string().nullable(),
  expires_at: IsoTimeOrNull,
  redeemed_at: IsoTimeOrNull,
  redeemed_by: z.strictObject({ account: z.string().nullable(), user: z.string().nullable() }).nullable(),
}));
export type CodeView = z.infer<typeof CodeView>;

/** 201 to POST /api/console/admin/codes: the codes, this once. */
export const CreatedCodes = named('CreatedCodes', z.strictObject({
  object: z.literal('console.code_batch'),
  batch: z.string().nullable(),
  value: Money,
  expires_at: IsoTimeOrNull,
  codes: z.array(z.strictObject({ id: z.int().positive(), code: z.string() })),
}));

/** GET /api/console/admin/codes?batch=&status=&limit=&before=. */
export const CodesQuery = z.strictObject({
  batch: textParam(64),
  status: z.enum(CODE_STATUSES).optional(),
  limit: PageLimit,
  before: PageCursor.describe('the next_before of the page before'),
});
export const CodeList = named('CodeList', z.strictObject({ object: z.literal('list'), data: z.array(CodeView), next_before: z.int().positive().nullable() }));

/** 200 to POST /api/console/admin/codes/disable: the target as asked, and how many codes stopped. */
export const CodesDisabled = named('CodesDisabled', z.union([
  z.strictObject({ object: z.literal('console.codes_disabled'), id: z.int().positive(), disabled: z.int() }),
  z.strictObject({ object: z.literal('console.codes_disabled'), batch: z.string(), disabled: z.int() }),
]));

/** 200 to POST /api/console/account/redeem: what was credited and the account's balance after it. */
export const Redeemed = named('Redeemed', z.strictObject({ object: z.literal('console.redemption'), account: z.string().nullable(), credited: Money, balance: Money }));
