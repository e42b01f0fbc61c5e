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
    assert.equal(throttle.wait('ADA', 'other-address'), FIRST_WAIT_MS, 'in any case, as users are found');
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

  it('counts an IPv6 address as its /64: rotating addresses in one network share its tries and sign-ups', () => {
    for (let i = 0; i < FREE_FAILURES_PER_ADDRESS; i++) throttle.failed(`name-${i}`, `2001:db8:1:2::${(i + 1).toString(16)}`);
    assert.equal(throttle.wait('fresh-name', '2001:db8:1:2:ffff::9'), FIRST_WAIT_MS, 'another address of the same /64');
    assert.equal(throttle.wait('fresh-name', '2001:db8:1:3::1'), 0, 'the next /64 is another client');
    for (let i = 0; i < FREE_FAILURES_PER_ADDRESS; i++) throttle.triedFrom(`2001:db8:9:9::${(i + 1).toString(16)}`);
    assert.equal(throttle.waitFrom('2001:db8:9:9:abcd::1'), FIRST_WAIT_MS, 'sign-ups from one /64 are held together');
    throttle.succeeded('ada', '2001:db8:5:5::1');
    failTimes(FREE_FAILURES_PER_NAME, 'ada', '198.51.100.7');
    assert.equal(throttle.wait('ada', '2001:db8:5:5::2'), 0, 'the network ada signed in from is hers, whichever of its addresses');
    assert.equal(throttle.wait('someone', '::ffff:198.51.100.7'), 0, 'an IPv4-mapped address is the IPv4 one (free failures per address not used up)');
    failTimes(FREE_FAILURES_PER_ADDRESS - FREE_FAILURES_PER_NAME, 'bob', '198.51.100.7');
    assert.equal(throttle.wait('someone', '::ffff:198.51.100.7'), FIRST_WAIT_MS, 'held as the IPv4 address it is');
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

  it('begin() holds a try as pending: tries made together are held like tries made one after another', () => {
    const begun: number[] = [];
    for (let i = 0; i < FREE_FAILURES_PER_NAME + 3; i++) begun.push(throttle.begin('ada', 'a1'));
    assert.deepEqual(begun, [...Array(FREE_FAILURES_PER_NAME).fill(0), FIRST_WAIT_MS, FIRST_WAIT_MS, FIRST_WAIT_MS], 'refused ones are not counted: the wait does not grow');
    for (let i = 0; i < FREE_FAILURES_PER_NAME; i++) throttle.end('ada', 'a1', 'failed');
    assert.equal(throttle.wait('ada', 'a2'), FIRST_WAIT_MS, 'once judged wrong, they are failures');
  });

  it('a try that ends right or unjudged leaves no count behind, and never locks anything again', () => {
    for (let i = 0; i < FREE_FAILURES_PER_NAME - 1; i++) throttle.failed('ada', 'a1');
    assert.equal(throttle.begin('ada', 'a1'), 0);
    assert.equal(throttle.wait('ada', 'a2'), FIRST_WAIT_MS, 'while it is checked, it counts');
    throttle.end('ada', 'a1', 'not_judged');
    assert.equal(throttle.wait('ada', 'a2'), 0, 'not judged (the gateway could not check it): as if never tried');
    // An address past its free failures, long ago: a right sign-in from it must not lock it again.
    for (let i = 0; i < FREE_FAILURES_PER_ADDRESS + 5; i++) throttle.failed(`name-${i}`, 'office');
    now += MAX_WAIT_MS + 1;
    assert.equal(throttle.begin('ada', 'office'), 0);
    throttle.end('ada', 'office', 'right');
    assert.equal(throttle.wait('bob', 'office'), 0, 'a right password locks nobody out');
    assert.equal(throttle.begin('bob', 'office'), 0);
    throttle.end('bob', 'office', 'right');
    assert.equal(throttle.wait('carol', 'office'), 0);
    throttle.end('nobody', 'nowhere', 'not_judged');
    assert.equal(throttle.wait('nobody', 'nowhere'), 0, 'ending what was never begun changes nothing');
  });
});
