// Device sign-in requests in memory (RFC 8628): user codes, the single answer, slow_down, expiry and
// the bounds on how many wait. The HTTP side is in test/integration/gateway/deviceSignIn.test.ts.
import assert from 'node:assert/strict';
import {
  DEVICE_CODE_LIFETIME_MS, DeviceGrants, MAX_PENDING, MAX_PENDING_PER_SOURCE, POLL_INTERVAL_SECONDS, SLOW_DOWN_STEP_SECONDS,
} from '../../../src/gateway/accounts/deviceGrants.ts';
import { newUserCode, normalizeUserCode } from '../../../src/gateway/accounts/userCode.ts';

function started(grants: DeviceGrants, source = '127.0.0.1') {
  const result = grants.start('VS Code on lab-pc', source);
  assert.ok(result.started);
  return result;
}

describe('device sign-in user codes', () => {
  it('are XXXX-XXXX from consonants without I, O or U, and read back however they are typed', () => {
    for (let i = 0; i < 200; i++) {
      const code = newUserCode();
      assert.match(code, /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
      assert.equal(normalizeUserCode(code.toLowerCase().replace('-', ' ')), code);
    }
    assert.equal(normalizeUserCode('bcdf ghjk'), 'BCDF-GHJK');
    assert.equal(normalizeUserCode('BCDF-GHJ'), null, 'too short');
    assert.equal(normalizeUserCode('ABCD-EFGH'), null, 'vowels are never in a code');
  });
});

describe('device sign-in requests', () => {
  let now: number;
  let grants: DeviceGrants;
  beforeEach(() => {
    now = 1_000_000;
    grants = new DeviceGrants(() => now);
  });

  it('answers pending, then the approval once: a second poll does not find it', () => {
    const { deviceCode, userCode } = started(grants);
    assert.deepEqual(grants.poll(deviceCode), { state: 'pending' });
    assert.ok(grants.decide(userCode, { approved: true, userId: 1, accountId: 2, models: null }));
    now += POLL_INTERVAL_SECONDS * 1000;
    const polled = grants.poll(deviceCode);
    assert.equal(polled.state, 'approved');
    assert.deepEqual(polled.state === 'approved' && polled.decision, { approved: true, userId: 1, accountId: 2, models: null });
    assert.deepEqual(grants.poll(deviceCode), { state: 'unknown' });
    assert.equal(grants.size, 0);
  });

  it('takes one answer per code: a second decision (approve or deny, by anyone) changes nothing', () => {
    const { deviceCode, userCode } = started(grants);
    assert.ok(grants.decide(userCode, { approved: true, userId: 1, accountId: 1, models: ['echo'] }));
    assert.equal(grants.pending(userCode), null);
    assert.equal(grants.decide(userCode, { approved: true, userId: 2, accountId: 2, models: null }), false);
    assert.equal(grants.decide(userCode, { approved: false }), false);
    const polled = grants.poll(deviceCode);
    assert.ok(polled.state === 'approved' && polled.decision.userId === 1 && polled.decision.accountId === 1);
  });

  it('answers a denial once, then forgets the request', () => {
    const { deviceCode, userCode } = started(grants);
    assert.ok(grants.decide(userCode, { approved: false }));
    assert.deepEqual(grants.poll(deviceCode), { state: 'denied' });
    assert.deepEqual(grants.poll(deviceCode), { state: 'unknown' });
  });

  it('says slow_down to a poll sooner than the interval, and the interval grows by 5 s each time, for good', () => {
    const { deviceCode } = started(grants);
    assert.deepEqual(grants.poll(deviceCode), { state: 'pending' });
    now += 1000;
    assert.deepEqual(grants.poll(deviceCode), { state: 'slow_down', intervalSeconds: POLL_INTERVAL_SECONDS + SLOW_DOWN_STEP_SECONDS });
    now += (POLL_INTERVAL_SECONDS + SLOW_DOWN_STEP_SECONDS) * 1000 - 1;
    assert.deepEqual(grants.poll(deviceCode), { state: 'slow_down', intervalSeconds: POLL_INTERVAL_SECONDS + 2 * SLOW_DOWN_STEP_SECONDS });
    now += (POLL_INTERVAL_SECONDS + 2 * SLOW_DOWN_STEP_SECONDS) * 1000;
    assert.deepEqual(grants.poll(deviceCode), { state: 'pending' });
  });

  it('expires after ten minutes: expired_token once, and the code can no longer be approved', () => {
    const { deviceCode, userCode } = started(grants);
    now += DEVICE_CODE_LIFETIME_MS;
    assert.equal(grants.pending(userCode), null);
    assert.equal(grants.decide(userCode, { approved: true, userId: 1, accountId: 1, models: null }), false);
    assert.deepEqual(grants.poll(deviceCode), { state: 'expired' });
    assert.deepEqual(grants.poll(deviceCode), { state: 'unknown' });
  });

  it('holds at most MAX_PENDING_PER_SOURCE per address and MAX_PENDING in all, with a retry time; expired ones make room', () => {
    for (let i = 0; i < MAX_PENDING_PER_SOURCE; i++) started(grants, '10.0.0.1');
    const refused = grants.start('flood', '10.0.0.1');
    assert.deepEqual(refused, { started: false, full: 'source', retryAfterSeconds: DEVICE_CODE_LIFETIME_MS / 1000 });
    started(grants, '10.0.0.2');
    for (let i = grants.size; i < MAX_PENDING; i++) started(grants, `10.1.${Math.floor(i / 200)}.${i % 200}`);
    assert.equal(grants.size, MAX_PENDING);
    const full = grants.start('one more', '10.9.9.9');
    assert.equal(full.started === false && full.full, 'all');
    now += DEVICE_CODE_LIFETIME_MS;
    started(grants, '10.0.0.1');
    assert.equal(grants.size, 1, 'expired requests went when a new one came');
  });

  it('counts an IPv6 source as its /64: rotating addresses in one network cannot fill the pool', () => {
    for (let i = 0; i < MAX_PENDING_PER_SOURCE; i++) started(grants, `2001:db8:7:7::${(i + 1).toString(16)}`);
    const refused = grants.start('flood', '2001:db8:7:7:ffff:ffff:ffff:1');
    assert.equal(refused.started === false && refused.full, 'source');
    started(grants, '2001:db8:7:8::1');
  });
});
