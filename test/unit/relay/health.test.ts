import assert from 'node:assert/strict';
import { ChannelHealth, FAILURES_TO_OPEN } from '../../../src/gateway/relay/health.ts';
import { relayChannel } from '../../support/channels.ts';

describe('channel health (circuit breaker)', () => {
  const a = relayChannel({ name: 'a' });
  const b = relayChannel({ name: 'b' });
  const names = (list: { name: string }[]) => list.map((c) => c.name);

  it(`skips a channel after ${FAILURES_TO_OPEN} failures in a row, for a cool-down that doubles; a success brings it back`, () => {
    const lines: string[] = [];
    const health = new ChannelHealth((line) => lines.push(line));
    for (let i = 0; i < FAILURES_TO_OPEN - 1; i++) health.failed(a, 'HTTP 500', 0);
    assert.deepEqual(names(health.usable([a, b], 1)), ['a', 'b'], 'not yet');
    health.failed(a, 'HTTP 500', 0);
    assert.deepEqual(names(health.usable([a, b], 1)), ['b']);
    assert.match(lines.at(-1)!, /channel "a" failed 3 times in a row \(last: HTTP 500\): skipped for 30 s/);
    assert.deepEqual(names(health.usable([a, b], 30_001)), ['a', 'b'], 'half-open once the cool-down is over');
    health.failed(a, 'timeout', 30_001);
    assert.deepEqual(names(health.usable([a, b], 30_002 + 59_000)), ['b'], 'the failed probe doubles the cool-down');
    assert.deepEqual(names(health.usable([a, b], 30_001 + 60_001)), ['a', 'b']);
    health.succeeded(a);
    assert.equal(health.view(a.id), null);
    assert.match(lines.at(-1)!, /channel "a" answers again/);
  });

  it('never leaves a request without a channel: when all cool down, the first to recover leads', () => {
    const health = new ChannelHealth();
    for (let i = 0; i < FAILURES_TO_OPEN; i++) health.failed(b, 'x', 0);
    for (let i = 0; i < FAILURES_TO_OPEN; i++) health.failed(a, 'x', 10);
    assert.deepEqual(names(health.usable([a, b], 20)), ['b', 'a']);
  });
});
