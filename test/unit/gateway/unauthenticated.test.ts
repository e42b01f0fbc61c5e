import assert from 'node:assert/strict';
import { UnauthenticatedSampler } from '../../../src/gateway/unauthenticated.ts';
import { networkOf } from '../../../src/gateway/store/keySettings.ts';

describe('requests without a key: sampled per network and minute, and for all sources together', () => {
  it('counts an IPv6 address by its /64 and an IPv4-mapped one as IPv4', () => {
    assert.equal(networkOf('2001:db8:1:2:3:4:5:6'), '2001:db8:1:2::/64');
    assert.equal(networkOf('2001:db8:1:2::ffff'), '2001:db8:1:2::/64');
    assert.equal(networkOf('::ffff:203.0.113.7'), '203.0.113.7');
    assert.equal(networkOf('203.0.113.7'), '203.0.113.7');
  });

  it('a client spreading over its /64 gets one sample, not one per address', () => {
    const lines: string[] = [];
    const sampler = new UnauthenticatedSampler((l) => lines.push(l), 10);
    const now = Date.UTC(2026, 0, 1, 12, 0, 5);
    let logged = 0;
    for (let i = 0; i < 500; i++) if (sampler.admit(`2001:db8:1:2::${i.toString(16)}`, now)) logged++;
    assert.equal(logged, 10);
    sampler.flush();
    assert.match(lines.join('\n'), /500 requests without a valid key from 2001:db8:1:2::\/64/);
  });

  it('many sources together log at most 1,000 rows a minute; the rest are counted and said', () => {
    const lines: string[] = [];
    const sampler = new UnauthenticatedSampler((l) => lines.push(l), 10);
    const now = Date.UTC(2026, 0, 1, 12, 0, 5);
    let logged = 0;
    for (let i = 0; i < 3000; i++) if (sampler.admit(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, now)) logged++;
    assert.equal(logged, 1000);
    sampler.flush();
    assert.match(lines.join('\n'), /3000 requests without a valid key in the minute .*: the first 1000 of all sources are in the request log/);
  });
});
