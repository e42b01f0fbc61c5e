/**
 * The OpenAI-style billing endpoints, so a client holding only a key can show its balance:
 * hard_limit_usd = (balance + spent) in USD, total_usage = spent in cents; remaining = the difference.
 * A read the key may make is neither counted against its request rates nor logged (a refused one is logged): the
 * rates limit model requests, and an editor polling its balance every minute would otherwise spend a key's
 * requests per day (the day's count is read back from the logged rows) and refuse the user's chats.
 */
import { MICRO_USD_PER_USD } from '../../contract/index.ts';
import { sendJson } from '../http/json.ts';
import { requireKey } from './common.ts';
import type { Handler } from './common.ts';

const MICRO_PER_CENT = MICRO_USD_PER_USD / 100;

export const subscription: Handler = async (gw, ctx) => {
  const key = await requireKey(gw, ctx, false);
  ctx.noLog = true;
  const { balance, spent } = gw.ledger.balances(key.accountId);
  const limit = (balance + spent) / MICRO_USD_PER_USD;
  sendJson(ctx.res, ctx.id, 200, {
    object: 'billing_subscription',
    has_payment_method: true,
    hard_limit_usd: limit,
    soft_limit_usd: limit,
    system_hard_limit_usd: limit,
    access_until: key.expiresAt === null ? 0 : Math.floor(key.expiresAt / 1000),
    balance_usd: balance / MICRO_USD_PER_USD,
  });
};

export const usage: Handler = async (gw, ctx) => {
  const key = await requireKey(gw, ctx, false);
  ctx.noLog = true;
  const { spent } = gw.ledger.balances(key.accountId);
  sendJson(ctx.res, ctx.id, 200, { object: 'list', total_usage: spent / MICRO_PER_CENT });
};
