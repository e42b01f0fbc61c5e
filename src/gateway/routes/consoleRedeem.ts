/**
 * POST /api/console/account/redeem {code}: a signed-in user tops up their account with a redemption code
 * (issue 10, contract 4.10), with the console's CSRF proofs (api.ts). The store marks the code used
 * and credits the account in one atomic step, so a code credits once however many requests race for it.
 * An unknown, used, expired or disabled code is one answer, 400 redemption_code_invalid, so trying codes
 * tells nothing about which exist; wrong codes are throttled per account and per source address like
 * sign-ins (a growing wait, 429 redemption_throttled with Retry-After; tries during a wait are refused
 * without counting). The code is never logged or echoed: a refusal's log row has the path, not the body.
 */
import { redeemTyped } from '../accounts/codes.ts';
import { HttpError } from '../http/errors.ts';
import { StoreError } from '../store/types.ts';
import type { ApiHandler } from './api.ts';
import { money } from './consoleCatalog.ts';
import { judged, throttled } from './consoleSession.ts';
import { sourceOf } from './session.ts';

export const redeem: ApiHandler<'redeemCode'> = async (gw, ctx, { caller: { user }, body: { code } }) => {
  const throttle = gw.console.redeemThrottle;
  // Per account (several users may share one), not per user name.
  const account = `account ${user.accountId}`;
  const source = sourceOf(ctx);
  const wait = throttle.begin(account, source);
  if (wait > 0) throw throttled('redemption_throttled', wait);
  // A right code forgets nothing and remembers nothing: only wrong ones count.
  const redemption = await judged(throttle, account, source, async () => {
    try {
      return await redeemTyped(gw.store, code, { accountId: user.accountId, userId: user.id }, Date.now());
    } catch (error) {
      // Past the most an account may hold: the code stays unused.
      if (error instanceof StoreError && error.code === 'invalid') throw new HttpError('invalid_request', `${error.message}.`);
      throw error;
    }
  }, 'not_judged');
  if (!redemption) throw new HttpError('redemption_code_invalid');
  // The request path sees the new balance at once (a reload already under way may predate the credit: then one more).
  for (let i = 0; i < 3; i++) {
    const reloading = gw.catalog.refresh();
    if (!reloading) break;
    await reloading;
  }
  return {
    body: { object: 'console.redemption', account: redemption.account.name, credited: money(redemption.code.value), balance: money(gw.ledger.balances(user.accountId).balance) },
  };
};
