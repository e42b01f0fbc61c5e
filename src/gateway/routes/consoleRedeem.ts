/**
 * POST /api/console/account/redeem {code}: a signed-in user tops up their account with a redemption code
 * (issue 10, contract 4.10), with the console's CSRF proofs (session.ts). The store marks the code used
 * and credits the account in one atomic step, so a code credits once however many requests race for it.
 * An unknown, used, expired or disabled code is one answer, 400 redemption_code_invalid, so trying codes
 * tells nothing about which exist; wrong codes are throttled per account and per source address like
 * sign-ins (a growing wait, 429 redemption_throttled with Retry-After; tries during a wait are refused
 * without counting). The code is never logged or echoed: a refusal's log row has the path, not the body.
 */
import { RedeemBody } from '../../contract/index.ts';
import { redeemTyped } from '../accounts/codes.ts';
import { HttpError } from '../http/errors.ts';
import { sendJson } from '../http/json.ts';
import { StoreError } from '../store/types.ts';
import type { Handler } from './common.ts';
import { money } from './consoleCatalog.ts';
import { parseBody } from './consoleSchemas.ts';
import { readConsoleJson, requireSession, sourceOf } from './session.ts';

export const redeem: Handler = async (gw, ctx) => {
  const { user } = await requireSession(gw, ctx);
  const { code } = parseBody(RedeemBody, await readConsoleJson(gw, ctx));
  const throttle = gw.console.redeemThrottle;
  // Per account (several users may share one), not per user name.
  const account = `account ${user.accountId}`;
  const source = sourceOf(ctx);
  const wait = throttle.wait(account, source);
  if (wait > 0) {
    const seconds = Math.ceil(wait / 1000);
    throw new HttpError('redemption_throttled', `Try again in ${seconds} s.`, { 'Retry-After': String(seconds) });
  }
  let redemption;
  try {
    redemption = await redeemTyped(gw.store, code, { accountId: user.accountId, userId: user.id }, Date.now());
  } catch (error) {
    // Past the most an account may hold: the code stays unused.
    if (error instanceof StoreError && error.code === 'invalid') throw new HttpError('invalid_request', `${error.message}.`);
    throw error;
  }
  if (!redemption) {
    throttle.failed(account, source);
    throw new HttpError('redemption_code_invalid');
  }
  // The request path sees the new balance at once (a reload already under way may predate the credit: then one more).
  for (let i = 0; i < 3; i++) {
    const reloading = gw.catalog.refresh();
    if (!reloading) break;
    await reloading;
  }
  ctx.noLog = true;
  sendJson(ctx.res, ctx.id, 200, {
    object: 'console.redemption', account: redemption.account.name, credited: money(redemption.code.value), balance: money(gw.ledger.balances(user.accountId).balance),
  });
};
