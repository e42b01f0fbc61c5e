/**
 * Admin access tokens (issue 10): what a script sends instead of a browser session to call the admin
 * routes of the management API, `Authorization: Bearer mgt-...`. An admin makes one in the console (or
 * the CLI); it is shown once and kept only as a hash, like an API key, and acts as the admin who made
 * it for as long as they are an enabled admin, until it expires or is revoked. It is never an API key:
 * the model endpoints refuse it, and the management API refuses API keys.
 */
import { z } from 'zod';
import { ConsoleName } from '../admin.ts';
import { IsoDateTimeInput, IsoTime, IsoTimeOrNull, named } from './schema.ts';

/** How every admin access token begins, so that it is never mistaken for an API key (`sk-`). */
export const ADMIN_TOKEN_PREFIX = 'mgt-';

export const ADMIN_TOKENS_PATH = '/api/console/admin/tokens';
export const ADMIN_TOKENS_REVOKE_PATH = '/api/console/admin/tokens/revoke';

/** What a token is now: revoked wins over expired. */
export const ADMIN_TOKEN_STATUSES = ['active', 'expired', 'revoked'] as const;
export type AdminTokenStatus = (typeof ADMIN_TOKEN_STATUSES)[number];

/** POST /api/console/admin/tokens. */
export const NewAdminTokenBody = named('NewAdminTokenBody', z.strictObject({
  name: ConsoleName.describe('what the script is, for the list and the audit log; unique among the tokens not revoked'),
  expires_at: IsoDateTimeInput.nullable().optional().describe('in the future; absent or null: never expires'),
}));

/** POST /api/console/admin/tokens/revoke. */
export const AdminTokenIdBody = named('AdminTokenIdBody', z.strictObject({ id: z.int().positive() }));

/** A token as admins see it: never the token itself. */
export const AdminTokenView = named('AdminToken', z.strictObject({
  id: z.int().positive(),
  name: z.string(),
  prefix: z.string().describe('the start of the token, for recognising it: "mgt-AbCd…"'),
  status: z.enum(ADMIN_TOKEN_STATUSES),
  created_by: z.string().nullable().describe('the admin it acts as'),
  created_at: IsoTime,
  expires_at: IsoTimeOrNull,
  revoked_at: IsoTimeOrNull,
  last_used_at: IsoTimeOrNull,
}));

export const AdminTokenList = named('AdminTokenList', z.strictObject({ object: z.literal('list'), data: z.array(AdminTokenView) }));

/** 201 to POST /api/console/admin/tokens: the token, this once. */
export const CreatedAdminToken = named('CreatedAdminToken', z.strictObject({
  object: z.literal('console.admin_token'),
  admin_token: AdminTokenView,
  token: z.string().describe('send as "Authorization: Bearer <token>": shown this once, never stored'),
}));

/** 200 to POST /api/console/admin/tokens/revoke: the token as it is now. */
export const AdminTokenAnswer = named('AdminTokenAnswer', z.strictObject({ object: z.literal('console.admin_token'), admin_token: AdminTokenView }));
