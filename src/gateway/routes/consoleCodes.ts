/**
 * Redemption codes for admins (issue 10, contract 4.10): POST /api/console/admin/codes {value_usd, count?,
 * batch?, expires_at?} makes a batch and answers its codes, the only time they are shown (the store keeps
 * their hashes); GET /api/console/admin/codes lists them (never a code: id, batch, value, status, who
 * redeemed it, dates), filtered by batch and status, newest first in pages; POST
 * /api/console/admin/codes/disable {id} | {batch} stops the codes not yet used. Every route asks for a
 * signed-in admin (401 nobody signed in, 403 admin_required any other user) and every change for the
 * console's CSRF proofs (session.ts). Codes are made and disabled by accounts/codes.ts, the one place they
 * are, each with its audit row under the admin's name.
 */
import { CODE_STATUSES, CreateCodesBody, DisableCodesBody, type CodeStatusName, type CodeView } from '../../contract/index.ts';
import { codeNames, createCodeBatch, disableUnusedCodes } from '../accounts/codes.ts';
import { HttpError } from '../http/errors.ts';
import { sendJson } from '../http/json.ts';
import { codeStatus } from '../store/codeQuery.ts';
import { StoreError, type CodeFilter, type RedemptionCodeRecord } from '../store/types.ts';
import type { Handler } from './common.ts';
import { isoTime, money } from './consoleCatalog.ts';
import { consoleQuery, pageLimit, positiveInt, textParam } from './consoleQuery.ts';
import { amountField, parseBody } from './consoleSchemas.ts';
import { readConsoleJson, requireAdmin } from './session.ts';

type Names = Awaited<ReturnType<typeof codeNames>>;

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
export const adminCreateCodes: Handler = async (gw, ctx) => {
  const { user } = await requireAdmin(gw, ctx);
  const body = parseBody(CreateCodesBody, await readConsoleJson(gw, ctx));
  const value = amountField(body.value_usd, 'value_usd', 'a code');
  const expiresAt = body.expires_at ? Date.parse(body.expires_at) : null;
  if (expiresAt !== null && expiresAt <= Date.now()) throw new HttpError('invalid_request', 'expires_at: is in the past; the codes would be born expired.');
  const made = await createCodeBatch(gw.store, { value, count: body.count ?? 1, batch: body.batch ?? null, expiresAt, createdBy: user.id, actor: user.name });
  ctx.noLog = true;
  ctx.res.setHeader('Cache-Control', 'no-store');
  sendJson(ctx.res, ctx.id, 201, {
    object: 'console.code_batch', batch: body.batch ?? null, value: money(value), expires_at: isoTime(expiresAt),
    codes: made.map((m) => ({ id: m.record.id, code: m.code })),
  });
};

/** GET /api/console/admin/codes?batch=&status=&limit=&before=: never a code. */
export const adminCodes: Handler = async (gw, ctx) => {
  await requireAdmin(gw, ctx);
  const params = consoleQuery(ctx, ['batch', 'status', 'limit', 'before']);
  const batch = textParam(params, 'batch', 64);
  const status = params.get('status') ?? '';
  if (status !== '' && !(CODE_STATUSES as readonly string[]).includes(status)) throw new HttpError('invalid_request', `status must be one of ${CODE_STATUSES.join(', ')}.`);
  const limit = pageLimit(params);
  const before = positiveInt(params, 'before', Number.MAX_SAFE_INTEGER);
  const now = Date.now();
  const filter: CodeFilter = {
    now, limit, ...(batch !== '' ? { batch } : {}), ...(status !== '' ? { status: status as CodeStatusName } : {}), ...(before !== undefined ? { beforeId: before } : {}),
  };
  const [rows, names] = await Promise.all([gw.store.listCodes(filter), codeNames(gw.store)]);
  ctx.noLog = true;
  sendJson(ctx.res, ctx.id, 200, { object: 'list', data: rows.map((c) => codeView(c, now, names)), next_before: rows.length === limit ? rows.at(-1)!.id : null });
};

/** POST /api/console/admin/codes/disable {id} | {batch}: recorded in the audit log (code.disable). */
export const adminDisableCodes: Handler = async (gw, ctx) => {
  const { user } = await requireAdmin(gw, ctx);
  const target = parseBody(DisableCodesBody, await readConsoleJson(gw, ctx));
  let disabled: number;
  try {
    disabled = await disableUnusedCodes(gw.store, target, { actor: user.name });
  } catch (error) {
    if (error instanceof StoreError && error.code === 'not_found') throw new HttpError('code_not_found', `Asked for ${'id' in target ? `id ${target.id}` : `batch "${target.batch}"`}.`);
    throw error;
  }
  ctx.noLog = true;
  sendJson(ctx.res, ctx.id, 200, { object: 'console.codes_disabled', ...target, disabled });
};
