import assert from 'node:assert/strict';
import { MAX_RETRY_DELAY_MS, retryDelayMs, shouldRetry } from '../../../src/client/retry.ts';
import { retryAfterMs } from '../../../src/contract/index.ts';
import { AbortError, ConnectionError, TimeoutError, errorFromResponse } from '../../../src/client/errors.ts';

describe('client retry rules', () => {
  it('retries 408, 409, 429 and 5xx statuses only', () => {
    for (const status of [408, 409, 429, 500, 502, 503, 504]) assert.equal(shouldRetry(status), true, String(status));
    for (const status of [200, 400, 401, 403, 404, 413, 422]) assert.equal(shouldRetry(status), false, String(status));
  });

  it('retries connection failures and timeouts, never a user abort', () => {
    assert.equal(shouldRetry(new ConnectionError({})), true);
    assert.equal(shouldRetry(new TimeoutError({})), true);
    assert.equal(shouldRetry(new AbortError({})), false);
    assert.equal(shouldRetry(new Error('plain')), false);
    assert.equal(shouldRetry(undefined), false);
  });

  it('retries typed errors by what the body says, not only the status', () => {
    assert.equal(shouldRetry(errorFromResponse(503, { error: { message: 'busy', type: 'one_api_error' } })), true);
    assert.equal(shouldRetry(errorFromResponse(429, { error: { message: 'Too many requests', type: 'x_error' } })), true);
    // OpenAI's "insufficient_quota" is a 429 that waiting cannot fix.
    assert.equal(shouldRetry(errorFromResponse(429, { error: { message: 'You exceeded your current quota', type: 'insufficient_quota', code: 'insufficient_quota' } })), false);
    // new-api's "no channel for this model" is a 503 that waiting cannot fix.
    assert.equal(shouldRetry(errorFromResponse(503, { error: { message: '当前分组 default 下对于模型 gpt-x 无可用渠道', type: 'new_api_error' } })), false);
    assert.equal(shouldRetry(errorFromResponse(408, { error: { message: 'timeout', type: 'x_error' } })), true);
    assert.equal(shouldRetry(errorFromResponse(401, { error: { message: '无效的令牌', type: 'one_api_error' } })), false);
  });

  it('reads retry-after-ms, Retry-After seconds and Retry-After HTTP dates', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    assert.equal(retryAfterMs({ 'retry-after-ms': '250' }, now), 250);
    assert.equal(retryAfterMs({ 'Retry-After': '3' }, now), 3000);
    assert.equal(retryAfterMs({ 'retry-after': 'Wed, 01 Jan 2025 00:00:05 GMT' }, now), 5000);
    assert.equal(retryAfterMs({ 'retry-after': 'Tue, 31 Dec 2024 23:00:00 GMT' }, now), 0);
    assert.equal(retryAfterMs(new Headers({ 'retry-after': '1.5' }), now), 1500);
    assert.equal(retryAfterMs({ 'retry-after': 'soon' }, now), null);
    assert.equal(retryAfterMs({}, now), null);
    assert.equal(retryAfterMs(undefined, now), null);
  });

  it('waits what the server asks for, up to a minute', () => {
    assert.equal(retryDelayMs(1, { 'retry-after-ms': '120' }), 120);
    assert.equal(retryDelayMs(3, { 'retry-after': '2' }), 2000);
    const ignored = retryDelayMs(1, { 'retry-after': '3600' }, { random: () => 0 });
    assert.equal(ignored, 500);
  });

  it('backs off exponentially with jitter, capped', () => {
    assert.equal(retryDelayMs(1, undefined, { random: () => 0 }), 500);
    assert.equal(retryDelayMs(2, undefined, { random: () => 0 }), 1000);
    assert.equal(retryDelayMs(3, undefined, { random: () => 0 }), 2000);
    assert.equal(retryDelayMs(20, undefined, { random: () => 0 }), MAX_RETRY_DELAY_MS);
    assert.equal(retryDelayMs(2, undefined, { random: () => 0.999999 }) > 750, true);
    assert.equal(retryDelayMs(2, undefined, { random: () => 0.999999 }) < 1000, true);
  });
});
