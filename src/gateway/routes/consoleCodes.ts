/**
 * Redemption codes for admins (issue 10, contract 4.10): POST /api/console/admin/codes {value_usd, count?,
 * batch?, expires_at?} makes a batch and answers its codes, the only time they are shown (the store keeps
 * their hashes); GET /api/console/admin/codes lists them (never a code: id, batch, value, status, who
 * redeemed it, dates), filtered by batch and status, newest first in pages; POST
 * /api/console/admin/codes/disable {id} | {batch} stops the codes not yet used. Every route asks for an
 * admin (a session, or an admin access token; api.ts). Codes are made and disabled by accounts/codes.ts,
 * the one place they are, each with its audit row under the admin's name (and the token's).
 */
import { DEFAULT_PAGE, type CodeView } from '../../contract/index.ts';
import { createCodeBatch, disableUnusedCodes, namesOnPage, type CodeNames } from '../accounts/codes.ts';
import { HttpError } from '../http/errors.ts';
import { codeStatus } from '../store/codeQuery.ts';
import { StoreError, type CodeFilter, type RedemptionCodeRecord } from '../store/types.ts';
import type { ApiHandler } from './api.ts';
import { isoTime, money } from './consoleCatalog.ts';
import { amountField } from './consoleSchemas.ts';

type Names = CodeNames;

function codeView(c: RedemptionCodeRecord, now: number, names: Names): CodeView {
  return {
    id: c.id, batch: c.batch, value: money(c.value), status: codeStatus(c, now), created_at: isoTime(c.createdAt)!,
    created_by: c.createdBy === null ? null : (names.users.get(c.createdBy) ?? null), expires_at: isoTime(c.expiresAt), redeemed_at: isoTime(c.redeemedAt),
    redeemed_by: c.redeemedAccountId === null ? null : {
      account: names.accounts.get(c.redeemedAccountId) ?? null, user: c.redeemedUserId === null ? null : (names.users.get(c.redeemedUserId) ?? null),
    },
  };
}

/** POST /api/console/admin/codes: 201 with the batch's codes, recorded in the audit log (code.create, never the codes). */
export const adminCreateCodes: ApiHandler<'createCodes'> = async (gw, _ctx, { caller, body }) => {
  const value = amountField(body.value_usd, 'value_usd', 'a code');
  const expiresAt = body.expires_at ? Date.parse(body.expires_at) : null;
  if (expiresAt !== null && expiresAt <= Date.now()) throw new HttpError('invalid_request', 'expires_at: is in the past; the codes would be born expired.');
  const made = await createCodeBatch(gw.store, { value, count: body.count ?? 1, batch: body.batch ?? null, expiresAt, createdBy: caller.user.id, acting: caller.acting });
  return {
    headers: { 'Cache-Control': 'no-store' },
    body: { object: 'console.code_batch', batch: body.batch ?? null, value: money(value), expires_at: isoTime(expiresAt), codes: made.map((m) => ({ id: m.record.id, code: m.code })) },
  };
};

/** GET /api/console/admin/codes?batch=&status=&limit=&before=: never a code. */
export const adminCodes: ApiHandler<'listCodes'> = async (gw, _ctx, { query }) => {
  const limit = query.limit ?? DEFAULT_PAGE;
  const now = Date.now();
  const filter: CodeFilter = {
    now, limit, ...(query.batch ? { batch: query.batch } : {}), ...(query.status ? { status: query.status } : {}), ...(query.before !== undefined ? { beforeId: query.before } : {}),
  };
  const [rows] = await Promise.all([gw.store.listCodes(filter), gw.catalog.refresh()]);
  const names = await namesOnPage(gw.store, (id) => gw.catalog.account(id)?.name, rows);
  return { body: { object: 'list', data: rows.map((c) => codeView(c, now, names)), next_before: rows.length === limit ? rows.at(-1)!.id : null } };
};

/** POST /api/console/admin/codes/disable {id} | {batch}: recorded in the audit log (code.disable). */
export const adminDisableCodes: ApiHandler<'disableCodes'> = async (gw, _ctx, { caller, body: target }) => {
  let disabled: number;
  try {
    disabled = await disableUnusedCodes(gw.store, target, caller.acting);
  } catch (error) {
    if (error instanceof StoreError && error.code === 'not_found') throw new HttpError('code_not_found', `Asked for ${'id' in target ? `id ${target.id}` : `batch "${target.batch}"`}.`);
    throw error;
  }
  return { body: { object: 'console.codes_disabled', ...target, disabled } };
};
