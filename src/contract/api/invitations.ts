/**
 * Invitation codes (issue 10): what a person gives to sign up when the setting sign_up is "invitation".
 * Made in batches by an admin, single use, shown once and kept only as a hash, like redemption codes
 * (codes.ts), whose statuses and disable body they share; an invitation carries no money (a new account
 * gets the setting new_user_balance).
 */
import { z } from 'zod';
import { ConsoleName } from '../admin.ts';
import { CODE_STATUSES, MAX_CODES_PER_BATCH } from './codes.ts';
import { IsoDateTimeInput, IsoTime, IsoTimeOrNull, named, PageCursor, PageLimit, textParam } from './schema.ts';

export const ADMIN_INVITATIONS_PATH = '/api/console/admin/invitations';
export const ADMIN_INVITATIONS_DISABLE_PATH = '/api/console/admin/invitations/disable';

/** POST /api/console/admin/invitations. */
export const CreateInvitationsBody = named('CreateInvitationsBody', z.strictObject({
  count: z.int().min(1).max(MAX_CODES_PER_BATCH),
  batch: ConsoleName.nullable().optional(),
  expires_at: IsoDateTimeInput.nullable().optional().describe('in the future; absent or null: never expires'),
}));
export type CreateInvitationsBody = z.infer<typeof CreateInvitationsBody>;

/** An invitation code as the admin list shows it: never the code itself. */
export const InvitationView = named('Invitation', z.strictObject({
  id: z.int().positive(),
  batch: z.string().nullable(),
  status: z.enum(CODE_STATUSES),
  created_at: IsoTime,
  created_by: z.string().nullable().describe('the admin who made it; null: the command line'),
  expires_at: IsoTimeOrNull,
  used_at: IsoTimeOrNull,
  used_by: z.string().nullable().describe('the user who signed up with it'),
}));
export type InvitationView = z.infer<typeof InvitationView>;

/** 201 to POST /api/console/admin/invitations: the codes, this once. */
export const CreatedInvitations = named('CreatedInvitations', z.strictObject({
  object: z.literal('console.invitation_batch'),
  batch: z.string().nullable(),
  expires_at: IsoTimeOrNull,
  codes: z.array(z.strictObject({ id: z.int().positive(), code: z.string() })),
}));

/** GET /api/console/admin/invitations?batch=&status=&limit=&before=. */
export const InvitationsQuery = z.strictObject({
  batch: textParam(64),
  status: z.enum(CODE_STATUSES).optional(),
  limit: PageLimit,
  before: PageCursor.describe('the next_before of the page before'),
});
export const InvitationList = named('InvitationList', z.strictObject({ object: z.literal('list'), data: z.array(InvitationView), next_before: z.int().positive().nullable() }));

/** 200 to POST /api/console/admin/invitations/disable (its body is DisableCodesBody: {id} or {batch}). */
export const InvitationsDisabled = named('InvitationsDisabled', z.union([
  z.strictObject({ object: z.literal('console.invitations_disabled'), id: z.int().positive(), disabled: z.int() }),
  z.strictObject({ object: z.literal('console.invitations_disabled'), batch: z.string(), disabled: z.int() }),
]));
