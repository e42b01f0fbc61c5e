// The rules of keys' own limits (issue 10): IP allow-list entries read strictly (IPv4, IPv6, CIDR ranges
// written with their first address), matched by node:net's BlockList; the client's address (X-Forwarded-For
// only behind a trusted proxy); spending periods on UTC boundaries; key_usage of a batch.
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { clientAddress } from '../../../src/gateway/http/clientAddress.ts';
import { changedLimits, DEFAULT_LIMITS } from '../../../src/gateway/keyLimitChanges.ts';
import { buildAllowList } from '../../../src/gateway/routes/ipAllowList.ts';
import { DAY_MS, parseAllowEntry, parseAllowList, periodEnd, periodStartDay, usageOf } from '../../../src/gateway/store/keySettings.ts';
import { StoreError, type RequestLog } from '../../../src/gateway/store/types.ts';

const refused = (pattern: RegExp) => (error: unknown) => error instanceof StoreError && error.code === 'invalid' && pattern.test(error.message);

describe('IP allow-list entries', () => {
  it('reads IPv4 and IPv6 addresses and CIDR ranges, IPv6 in every written form', () => {
    assert.deepEqual(parseAllowEntry('203.0.113.7'), { address: '203.0.113.7', family: 'ipv4', prefix: 32 });
    assert.deepEqual(parseAllowEntry('10.0.0.0/8'), { address: '10.0.0.0', family: 'ipv4', prefix: 8 });
    assert.deepEqual(parseAllowEntry('0.0.0.0/0'), { address: '0.0.0.0', family: 'ipv4', prefix: 0 });
    assert.deepEqual(parseAllowEntry('2001:DB8::/32'), { address: '2001:db8::', family: 'ipv6', prefix: 32 });
    assert.deepEqual(parseAllowEntry('::1'), { address: '::1', family: 'ipv6', prefix: 128 });
    assert.deepEqual(parseAllowEntry('::/0'), { address: '::', family: 'ipv6', prefix: 0 });
    assert.deepEqual(parseAllowEntry('fe80::/10'), { address: 'fe80::', family: 'ipv6', prefix: 10 });
    assert.deepEqual(parseAllowEntry('2001:db8:0:0:0:0:0:0/48'), { address: '2001:db8:0:0:0:0:0:0', family: 'ipv6', prefix: 48 });
    assert.deepEqual(parseAllowEntry('::ffff:192.0.2.0/120'), { address: '::ffff:192.0.2.0', family: 'ipv6', prefix: 120 });
    assert.deepEqual(parseAllowEntry('2001:db8:1234:5600::/56'), { address: '2001:db8:1234:5600::', family: 'ipv6', prefix: 56 });
  });

  it('refuses anything loose, saying what is wrong; a range with host bits names its first address', () => {
    for (const bad of ['', 'localhost', '1.2.3', '01.2.3.4', '1.2.3.4 ', ' 1.2.3.4', '1.2.3.4:80', '[::1]', 'fe80::1%eth0', '1::2::3', '2001:db8::g'] as const) {
      assert.throws(() => parseAllowEntry(bad), refused(/is not an IPv4 or IPv6 address or CIDR range/), JSON.stringify(bad));
    }
    for (const bad of ['1.2.3.4/', '1.2.3.4/33', '10.0.0.0/08', '10.0.0.0/-1', '10.0.0.0/x', '::/129', '::1/1.5']) {
      assert.throws(() => parseAllowEntry(bad), refused(/prefix length after "\/" must be a whole number from 0 to (32|128)/), bad);
    }
    assert.throws(() => parseAllowEntry('10.1.2.3/8'), refused(/first address, 10\.0\.0\.0\/8$/));
    assert.throws(() => parseAllowEntry('192.168.1.77/24'), refused(/192\.168\.1\.0\/24$/));
    assert.throws(() => parseAllowEntry('2001:db8::1/32'), refused(/first address, 2001:db8::\/32$/));
    assert.throws(() => parseAllowEntry('2001:db8:ffff::/33'), refused(/2001:db8:8000::\/33$/));
    assert.throws(() => parseAllowEntry('fe80::1:0:0:1/64'), refused(/fe80::\/64$/));
    assert.throws(() => parseAllowEntry('::ffff:192.0.2.9/120'), refused(/::ffff:c000:200\/120$/));
  });

  it('a list holds 1 to 100 entries', () => {
    assert.deepEqual(parseAllowList(['127.0.0.2', 'FE80::/10']), ['127.0.0.2', 'fe80::/10']);
    assert.throws(() => parseAllowList([]), refused(/at least one address/));
    assert.throws(() => parseAllowList(new Array(101).fill('1.2.3.4')), refused(/at most 100/));
    assert.equal(parseAllowList(new Array(100).fill('1.2.3.4')).length, 100);
  });

  it('matches addresses in the list and its ranges, IPv4 also when a dual-stack socket writes it as IPv6', () => {
    const list = buildAllowList(['127.0.0.2', '10.0.0.0/8', '2001:db8::/32', '::1']);
    for (const yes of ['127.0.0.2', '::ffff:127.0.0.2', '10.255.0.1', '2001:db8:ffff::5', '::1']) assert.equal(list.allows(yes), true, yes);
    for (const no of ['127.0.0.1', '::ffff:127.0.0.1', '11.0.0.1', '2001:db9::1', '::2', 'unknown', '']) assert.equal(list.allows(no), false, no);
  });
});

describe("the client's address", () => {
  const req = (remoteAddress: string | undefined, forwarded?: string | string[]) =>
    ({ socket: { remoteAddress }, headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded } }) as unknown as IncomingMessage;
  it("is the socket's unless the gateway is behind a trusted proxy", () => {
    assert.equal(clientAddress(req('127.0.0.1', '203.0.113.9'), false), '127.0.0.1');
    assert.equal(clientAddress(req(undefined), false), 'unknown');
  });
  it("behind one: the last X-Forwarded-For address (the proxy's own), else the socket's", () => {
    assert.equal(clientAddress(req('10.0.0.1', '198.51.100.1, 203.0.113.9'), true), '203.0.113.9');
    assert.equal(clientAddress(req('10.0.0.1', ['198.51.100.1', '2001:db8::1']), true), '2001:db8::1');
    assert.equal(clientAddress(req('10.0.0.1', '203.0.113.9, garbage'), true), '10.0.0.1');
    assert.equal(clientAddress(req('10.0.0.1'), true), '10.0.0.1');
  });
});

describe('spending periods', () => {
  const at = Date.UTC(2026, 1, 28, 23, 59, 59, 999);
  it('start on the UTC day or month, or at the beginning for a total', () => {
    assert.equal(periodStartDay('total', at), 0);
    assert.equal(periodStartDay('day', at) * DAY_MS, Date.UTC(2026, 1, 28));
    assert.equal(periodStartDay('month', at) * DAY_MS, Date.UTC(2026, 1, 1));
  });
  it('end at the next UTC midnight or first of the month; a total never', () => {
    assert.equal(periodEnd('day', at), Date.UTC(2026, 2, 1));
    assert.equal(periodEnd('month', at), Date.UTC(2026, 2, 1));
    assert.equal(periodEnd('month', Date.UTC(2026, 11, 31, 12)), Date.UTC(2027, 0, 1));
    assert.equal(periodEnd('total', at), null);
  });
});

describe('limits as people give them', () => {
  it('money exactly in decimal USD, "none" as null, each absent limit kept', () => {
    const set = changedLimits(DEFAULT_LIMITS, { spendLimitUsd: '2.5', spendPeriod: 'month', tpm: 1000, allowIps: [' 10.0.0.0/8 '] });
    assert.deepEqual(set, { rpm: 1200, concurrency: 64, tpm: 1000, rpd: 0, spendLimit: 2_500_000, spendPeriod: 'month', allowIps: ['10.0.0.0/8'] });
    assert.deepEqual(changedLimits(set, { rpd: 5 }), { ...set, rpd: 5 });
    assert.deepEqual(changedLimits(set, { spendLimitUsd: null, allowIps: null }), { ...set, spendLimit: null, allowIps: null });
    assert.equal(changedLimits(set, { spendLimitUsd: 0.000001 }).spendLimit, 1);
    for (const bad of ['0', '-1', '1.0000001', 'ten', '1e3', '1000000001']) assert.throws(() => changedLimits(set, { spendLimitUsd: bad }), refused(/spending limit/), bad);
  });
});

describe("a batch's key usage", () => {
  const log = (keyId: number | null, time: number, cost: number, errorCode: string | null = null) => ({ keyId, time, cost, errorCode }) as RequestLog;
  it('per key and UTC day of each log, in key and day order; requests refused by rate limits or the IP list not counted', () => {
    const day = 20_000;
    assert.deepEqual(usageOf([
      log(2, day * DAY_MS + 5, 3), log(1, (day + 1) * DAY_MS, 7), log(1, day * DAY_MS, 1), log(1, day * DAY_MS + 9, 0, 'rate_limited'),
      log(1, day * DAY_MS + 10, 0, 'ip_not_allowed'), log(1, day * DAY_MS + 11, 2, 'upstream_error'), log(null, day * DAY_MS, 4),
    ]), [
      { keyId: 1, day, requests: 2, spent: 3 }, { keyId: 1, day: day + 1, requests: 1, spent: 7 }, { keyId: 2, day, requests: 1, spent: 3 },
    ]);
  });
});
