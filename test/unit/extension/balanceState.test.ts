import assert from 'node:assert/strict';
import { AuthenticationError, ConnectionError, InvalidResponseError, NotFoundError, PermissionDeniedError, RateLimitError, ServerError, TimeoutError } from '../../../src/client/index.ts';
import {
  BACKOFF,
  backoffMs,
  isFailure,
  isWarning,
  nextRefreshMs,
  softRefreshAllowed,
  statusText,
  tooltipMarkdown,
  viewOfBalance,
  viewOfError,
} from '../../../src/extension/statusBar/balanceState.ts';
import type { Balance } from '../../../src/contract/index.ts';

const healthy: Balance = { remainingUsd: 9.9996, usedUsd: 0.0004, limitUsd: 10, unlimited: false };
const mid = () => 0.5; // jitter factor 1.0

describe('extension balance state', () => {
  it('shows the balance, unlimited, and a small chat cost as a visible change', () => {
    assert.equal(statusText(viewOfBalance(healthy, 0)), '$(credit-card) $9.9996');
    assert.notEqual(statusText(viewOfBalance({ ...healthy, remainingUsd: 9.9992 }, 0)), statusText(viewOfBalance(healthy, 0)));
    assert.equal(statusText(viewOfBalance({ remainingUsd: null, usedUsd: 1, limitUsd: null, unlimited: true }, 0)), '$(credit-card) Unlimited');
  });

  it('has a quiet not-configured state', () => {
    const view = { kind: 'unconfigured', missing: ['apiKey'] } as const;
    assert.equal(statusText(view), '$(credit-card) Gateway: not configured');
    assert.equal(isWarning(view), false);
    assert.equal(nextRefreshMs(view, 60, 0), null);
  });

  it('warns when exhausted (numbers or a 403 insufficient balance) or when the key is refused', () => {
    const empty = viewOfBalance({ ...healthy, remainingUsd: 0 }, 0);
    assert.equal(empty.kind, 'exhausted');
    assert.equal(isWarning(empty), true);
    assert.equal(isFailure(empty), false, 'an empty account is a reading, not a failure');
    const refusedBalance = viewOfError(new PermissionDeniedError({ status: 403, condition: 'insufficient_balance' }), healthy, 0);
    assert.equal(refusedBalance.kind, 'exhausted');
    const refused = viewOfError(new AuthenticationError({ status: 401 }), null, 0);
    assert.equal(refused.kind, 'refused');
    assert.equal(statusText(refused), '$(credit-card) Gateway: key refused');
    assert.equal(isWarning(refused), true);
    assert.equal(viewOfError(new PermissionDeniedError({ status: 403, condition: 'key_disabled' }), null, 0).kind, 'refused');
  });

  it('keeps the last balance on a transient error, and marks gateways without billing as unavailable', () => {
    const error = viewOfError(new ConnectionError({ detail: 'ECONNREFUSED' }), healthy, 0);
    assert.equal(error.kind, 'error');
    assert.equal(statusText(error), '$(credit-card) $9.9996 $(warning)');
    assert.equal(statusText(viewOfError(new ConnectionError({}), null, 0)), '$(credit-card) Gateway: unreachable');
    const none = viewOfError(new NotFoundError({ status: 404 }), null, 0);
    assert.equal(none.kind, 'unavailable');
    assert.equal(nextRefreshMs(none, 60, 0), BACKOFF.maxMs);
  });

  it('says "unreachable" only when nothing answered: a gateway that answered 429, 5xx or a web page was reached', () => {
    assert.equal(statusText(viewOfError(new TimeoutError({}), null, 0)), '$(credit-card) Gateway: unreachable');
    for (const answered of [new RateLimitError({ status: 429 }), new ServerError({ status: 502 }), new InvalidResponseError({ status: 200, code: 'html_response' })]) {
      const view = viewOfError(answered, null, 0);
      assert.equal(view.kind, 'error');
      assert.equal(statusText(view), '$(credit-card) Gateway: balance not read', answered.name);
      assert.match(tooltipMarkdown(view, 'https://gw'), /The balance could not be read:/);
    }
  });

  it('refreshes on the interval when healthy, and backs off exponentially (capped) on failures', () => {
    const ok = viewOfBalance(healthy, 0);
    const error = viewOfError(new ConnectionError({}), null, 0);
    assert.equal(nextRefreshMs(ok, 60, 0), 60_000);
    assert.equal(nextRefreshMs(ok, 0, 0), null, 'periodic refresh off');
    const delays = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => nextRefreshMs(error, 10, n, mid)!);
    for (let i = 1; i < delays.length; i++) assert.ok(delays[i]! >= delays[i - 1]!, 'never shorter after another failure');
    assert.equal(delays[0], BACKOFF.firstMs);
    assert.equal(delays.at(-1), BACKOFF.maxMs);
    assert.equal(nextRefreshMs(error, 600, 1, mid), 600_000, 'never faster than the interval');
    // Jitter stays within ±20%.
    assert.ok(backoffMs(3, () => 0) >= 0.8 * 60_000 && backoffMs(3, () => 0.999) <= 1.2 * 60_000);
  });

  it('holds back unrequested refreshes during a backoff', () => {
    assert.equal(softRefreshAllowed(0, 1000, 5000), true);
    assert.equal(softRefreshAllowed(2, 1000, 5000), false);
    assert.equal(softRefreshAllowed(2, 6000, 5000), true);
  });

  it('puts remaining, used, limit, base URL and last refresh in the tooltip', () => {
    const md = tooltipMarkdown(viewOfBalance(healthy, Date.UTC(2026, 0, 1)), 'https://gw.example');
    assert.match(md, /Remaining: \*\*\$9\.9996\*\*/);
    assert.match(md, /Used: \$0\.0004/);
    assert.match(md, /Limit: \$10\.00\n/);
    assert.match(md, /https:\/\/gw\.example/);
    assert.match(md, /Last refresh/);
  });
});
