/**
 * Reading what the Usage view shows (no vscode import; tested against the real gateway and a one-api
 * fake): the balance from the billing endpoints, which every gateway of the family serves, and the
 * spending by day where the gateway has it (ours). A gateway without the daily endpoint answers 404 or
 * its console's page; that is "cannot show", not an error. Any other failure (401, 403, 5xx) is one.
 */
import { GatewayError } from '../../client/index.ts';
import type { GatewayClient } from '../../client/index.ts';
import type { BillingDaily } from '../../contract/index.ts';
import { DAYS_ASKED, summarize, utcOffsetMinutes } from './summary.ts';
import type { UsageSummary } from './summary.ts';

const NOT_SERVED = new Set(['not_found', 'bad_request', 'invalid_response']);

async function readDaily(client: GatewayClient, now: Date, signal: AbortSignal | undefined): Promise<BillingDaily | null> {
  try {
    return await client.dailyUsage(DAYS_ASKED, utcOffsetMinutes(now), { ...(signal ? { signal } : {}) });
  } catch (error) {
    if (error instanceof GatewayError && NOT_SERVED.has(error.family)) return null;
    throw error;
  }
}

export async function readUsage(client: GatewayClient, now: Date = new Date(), signal?: AbortSignal): Promise<UsageSummary> {
  const options = signal ? { signal } : {};
  const [balance, daily] = await Promise.all([client.balance(options), readDaily(client, now, signal)]);
  return summarize(balance, daily, now);
}
