/**
 * The audit log of admin actions as the API reads it (contract 4.10, "Admins"): who did what to which,
 * through which admin access token when it was one, never with a secret.
 */
import { z } from 'zod';
import { AUDIT_ACTIONS } from '../admin.ts';
import { IsoTime, named, PageCursor, PageLimit, textParam } from './schema.ts';

/** GET /api/console/admin/audit?actor=&action=&limit=&before=. */
export const AuditQuery = z.strictObject({
  actor: textParam(64).describe('a user name, or cli for the command line'),
  action: z.enum(AUDIT_ACTIONS).optional(),
  limit: PageLimit,
  before: PageCursor.describe('the next_before of the page before'),
});

export const AuditRow = named('AuditRow', z.strictObject({
  id: z.int().positive(),
  time: IsoTime,
  actor: z.string().describe('the admin who acted (a user name), or cli for the command line'),
  action: z.enum(AUDIT_ACTIONS),
  target: z.string(),
  details: z.record(z.string(), z.unknown()).nullable(),
  via_token: z.string().nullable().describe('the name of the admin access token the actor acted through; null: the console or the CLI'),
}));

export const AuditList = named('AuditList', z.strictObject({ object: z.literal('list'), limit: z.int(), data: z.array(AuditRow), next_before: z.int().positive().nullable() }));
