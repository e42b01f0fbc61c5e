// The failed sign-in throttle on a test clock: free failures, then a doubling wait that is capped and
// forgotten; a lock does not grow while it holds; an address the user signed in from before is not
// held by the name's lock, so an attacker elsewhere cannot lock the real user out.
import assert from 'node:assert/strict';
import { FIRST_WAIT_MS, FREE_FAILURES_PER_ADDRESS, FREE_FAILURES_PER_NAME, MAX_WAIT_MS, SignInThrottle } from '../../../src/gateway/accounts/signInThrottle.ts';

describe('SignInThrottle', () => {
  let now: number;
  let throttle: SignInThrottle;
  beforeEach(() => {
    now = 1_000_000_000;
    throttle = new SignInThrottle(() => now);
  });
  const failTimes = (n: number, name: string, address: string) => {
    for (let i = 0; i < n; i++) throttle.failed(name, address);
  };

  it('allows the free failures, then waits FIRST_WAIT_MS, doubling up to MAX_WAIT_MS', () => {
    failTimes(FREE_FAILURES_PER_NAME - 1, 'ada', 'a1');
    assert.equal(throttle.wait('ada', 'a1'), 0);
    throttle.failed('ada', 'a1');
    assert.equal(throttle.wait('ada', 'a1'), FIRST_WAIT_MS);
    assert.equal(throttle.wait('ada', 'other-address'), FIRST_WAIT_MS, 'the name is held from every address');
    const waits: number[] = [];
    for (let i = 0; i < 12; i++) {
      now += throttle.wait('ada', 'a1');
      throttle.failed('ada', 'a1');
      waits.push(throttle.wait('ada', 'a1'));
    }
    assert.deepEqual(waits.slice(0, 3), [2 * FIRST_WAIT_MS, 4 * FIRST_WAIT_MS, 8 * FIRST_WAIT_MS]);
    assert.equal(Math.max(...waits), MAX_WAIT_MS, 'capped');
  });

  it('an address the user signed in from is not held by the name lock an attacker caused elsewhere', () => {
    throttle.succeeded('ada', 'home');
    failTimes(50, 'ada', `attacker-${Math.random()}`);
    assert.ok(throttle.wait('ada', 'somewhere-new') > 0);
    assert.equal(throttle.wait('ada', 'home'), 0);
  });

  it('holds an address after its own free failures, whatever names it tries', () => {
    for (let i = 0; i < FREE_FAILURES_PER_ADDRESS; i++) throttle.failed(`name-${i}`, 'sprayer');
    assert.equal(throttle.wait('fresh-name', 'sprayer'), FIRST_WAIT_MS);
    assert.equal(throttle.wait('fresh-name', 'someone-else'), 0);
  });

  it('forgets failures an hour after the last one; a success forgets the name', () => {
    failTimes(FREE_FAILURES_PER_NAME - 1, 'ada', 'a1');
    now += 61 * 60_000;
    throttle.failed('ada', 'a1');
    assert.equal(throttle.wait('ada', 'a1'), 0, 'old failures no longer count');
    failTimes(FREE_FAILURES_PER_NAME - 2, 'ada', 'a1');
    throttle.succeeded('ada', 'a1');
    throttle.failed('ada', 'a2');
    assert.equal(throttle.wait('ada', 'a2'), 0);
  });
});
