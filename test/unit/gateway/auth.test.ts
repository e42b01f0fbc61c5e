import assert from 'node:assert/strict';
import { parseAuthorization } from '../../../src/gateway/auth.ts';
import { displayPrefix, generateKey, hashKey } from '../../../src/gateway/keys.ts';
import { ConcurrencyLimiter, RateLimiter } from '../../../src/gateway/ratelimit.ts';

describe('auth header parsing', () => {
  it('classifies every malformed header', () => {
    assert.deepEqual(parseAuthorization(undefined), { ok: false, code: 'missing_api_key' });
    assert.deepEqual(parseAuthorization(''), { ok: false, code: 'missing_api_key' });
    assert.deepEqual(parseAuthorization('Bearer'), { ok: false, code: 'missing_api_key' });
    assert.deepEqual(parseAuthorization('Bearer    '), { ok: false, code: 'missing_api_key' });
    assert.deepEqual(parseAuthorization('Basic abc'), { ok: false, code: 'invalid_auth_header' });
    assert.deepEqual(parseAuthorization('sk-abc'), { ok: false, code: 'invalid_auth_header' });
    assert.deepEqual(parseAuthorization('Bearer  sk-abc'), { ok: false, code: 'api_key_whitespace' });
    assert.deepEqual(parseAuthorization('Bearer sk-abc '), { ok: false, code: 'api_key_whitespace' });
    assert.deepEqual(parseAuthorization('Bearer sk-abc\n'), { ok: false, code: 'api_key_whitespace' });
    assert.deepEqual(parseAuthorization('Bearer sk-abc'), { ok: true, secret: 'sk-abc' });
    assert.deepEqual(parseAuthorization('bearer sk-abc'), { ok: true, secret: 'sk-abc' });
  });
});

describe('keys', () => {
  it('are sk- plus ≥ 32 random url-safe characters, hashed with SHA-256, shown by a short prefix', () => {
    const a = generateKey();
    const b = generateKey();
    assert.match(a, /^sk-[A-Za-z0-9_-]{32,}$/);
    assert.notEqual(a, b);
    assert.match(hashKey(a), /^[0-9a-f]{64}$/);
    assert.equal(hashKey(a), hashKey(a));
    assert.equal(displayPrefix(a), `${a.slice(0, 7)}…`);
  });
});

describe('limits', () => {
  it('rate limiter allows rpm requests per minute and says how long to wait', () => {
    const limiter = new RateLimiter();
    const t0 = 1_000_000;
    for (let i = 0; i < 3; i++) assert.equal(limiter.take(1, 3, t0), 0);
    const wait = limiter.take(1, 3, t0);
    assert.ok(wait >= 1 && wait <= 20, `wait ${wait}`);
    assert.equal(limiter.take(2, 3, t0), 0, 'per key');
    assert.equal(limiter.take(1, 3, t0 + 20_000), 0, 'refills over time');
  });

  it('concurrency limiter counts in-flight requests per key', () => {
    const limiter = new ConcurrencyLimiter();
    assert.equal(limiter.acquire(1, 2), true);
    assert.equal(limiter.acquire(1, 2), true);
    assert.equal(limiter.acquire(1, 2), false);
    limiter.release(1);
    assert.equal(limiter.acquire(1, 2), true);
    assert.equal(limiter.active(1), 2);
  });
});
