/**
 * The admins' users and balances (contract 4.10, "Admins"): the list's query, a user as admins see
 * them, and what a top-up answers. The bodies of the changes are in ../admin.ts, beside the name and
 * password rules they share with the CLI.
 */
import { z } from 'zod';
import { IsoTimeOrNull, Money, named, PageCursor, PageLimit, textParam } from './schema.ts';

/** GET /api/console/admin/users?q=&limit=&after=. */
export const UsersQuery = z.strictObject({
  q: textParam(64).describe('keeps the users whose name or account name contains it, in any case'),
  limit: PageLimit,
  after: PageCursor.describe('the next_after of the page before'),
});

export const UserView = named('User', z.strictObject({
  id: z.int().positive(),
  name: z.string(),
  account: z.string().nullable(),
  admin: z.boolean(),
  status: z.enum(['enabled', 'disabled']),
  balance: Money.nullable(),
  created_at: IsoTimeOrNull,
  last_sign_in_at: IsoTimeOrNull,
}));

export const UserList = named('UserList', z.strictObject({ object: z.literal('list'), limit: z.int(), data: z.array(UserView), next_after: z.int().positive().nullable() }));
/** A user made or changed, as it is now. */
export const UserAnswer = named('UserAnswer', z.strictObject({ object: z.literal('console.user'), user: UserView }));
/** POST /api/console/admin/accounts/topup: the account's balance after it, and the amount added. */
export const TopUpAnswer = named('TopUpAnswer', z.strictObject({
  object: z.literal('console.account'), account: z.strictObject({ name: z.string(), balance: Money }), amount: Money,
}));
