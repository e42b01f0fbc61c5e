// The logs pages' reads (issue 10) behave the same in every store (memory, SQLite, PostgreSQL): every
// account's rows or one's, by request id, newest first or after an id oldest first; one row in full; the
// highest id. And what a live view relies on: polling with the last id seen, while several writers (two
// processes on SQLite's file, instances on PostgreSQL) write batches at once, sees every row exactly once.
import assert from 'node:assert/strict';
import type { RequestLog, Store, StoredLog } from '../../../src/gateway/store/types.ts';
import { describeEachStore, type StoreUnderTest } from '../../support/stores.ts';

function log(overrides: Partial<RequestLog>): RequestLog {
  return {
    time: Date.now(), requestId: `r-${Math.random()}`, method: 'POST', path: '/v1/chat/completions', accountId: null, keyId: null, keyName: null,
    model: 'm', channel: 'c', status: 200, errorCode: null, promptTokens: 1, completionTokens: 1, usageEstimated: false, cost: 0,
    latencyMs: 1, firstByteMs: null, stream: false, ...overrides,
  };
}

const ids = (rows: readonly StoredLog[]): string[] => rows.map((l) => l.requestId);

describeEachStore("the logs pages' reads in the Store", (current) => {
  let store: Store;
  let another: StoreUnderTest['another'];
  beforeEach(() => ({ store, another } = current()));

  it('lists every account or one, by request id, newest first or oldest first after an id; one row in full; the highest id', async () => {
    const team = await store.createAccount('team', 1_000_000);
    const other = await store.createAccount('other', 1_000_000);
    assert.equal(await store.requestLogs.maxId(), 0, 'no rows yet');
    await store.write({
      logs: [
        log({ requestId: 'a', accountId: team.id, keyName: 'k' }),
        log({ requestId: 'b', accountId: other.id }),
        log({ requestId: 'anon', status: 401, errorCode: 'invalid_api_key', model: null }),
        log({
          requestId: 'c', accountId: team.id, status: 502, errorCode: 'upstream_error', completionCap: 64, attempts: '[{"channel":"x","code":"upstream_timeout","detail":"slow","ms":12}]',
          upstreamModel: 'vendor/m-2025', userAgent: 'OpenAI/Python 1.51.0', clientIp: '203.0.113.9', channel: 'y',
        }),
        log({ requestId: 'd', accountId: team.id }),
      ],
      keysUsed: new Map(),
    });
    const all = await store.requestLogs.list({ limit: 10 });
    assert.deepEqual(ids(all), ['d', 'c', 'anon', 'b', 'a'], 'every account, and rows without one');
    assert.deepEqual(all.map((l) => l.accountName), ['team', 'team', null, 'other', 'team']);
    assert.equal(await store.requestLogs.maxId(), all[0]!.id);
    assert.deepEqual(ids(await store.requestLogs.list({ limit: 10, accountId: team.id })), ['d', 'c', 'a']);
    assert.deepEqual(ids(await store.requestLogs.list({ limit: 10, requestId: 'b' })), ['b']);
    assert.deepEqual(ids(await store.requestLogs.list({ limit: 10, requestId: 'b', accountId: team.id })), [], "another account's request id finds nothing");
    assert.deepEqual(ids(await store.requestLogs.list({ limit: 10, requestId: 'B' })), [], 'exact, case and all');

    const a = all.at(-1)!.id;
    assert.deepEqual(ids(await store.requestLogs.list({ limit: 2, afterId: a })), ['b', 'anon'], 'after an id: oldest first');
    assert.deepEqual(ids(await store.requestLogs.list({ limit: 2, afterId: a, accountId: team.id })), ['c', 'd']);
    assert.deepEqual(ids(await store.requestLogs.list({ limit: 10, afterId: 0, ok: false })), ['anon', 'c']);
    assert.deepEqual(ids(await store.requestLogs.list({ limit: 10, afterId: all[0]!.id })), [], 'nothing after the newest');
    assert.deepEqual(ids(await store.requestLogs.list({ limit: 10, afterId: a, beforeId: all[0]!.id })), ['b', 'anon', 'c'], 'between two ids');

    const c = (await store.requestLogs.get(all[1]!.id))!;
    assert.deepEqual(
      [c.requestId, c.accountName, c.status, c.errorCode, c.completionCap, c.attempts, c.upstreamModel, c.userAgent, c.clientIp, c.channel],
      ['c', 'team', 502, 'upstream_error', 64, '[{"channel":"x","code":"upstream_timeout","detail":"slow","ms":12}]', 'vendor/m-2025', 'OpenAI/Python 1.51.0', '203.0.113.9', 'y'],
    );
    const d = (await store.requestLogs.get(all[0]!.id))!;
    assert.deepEqual([d.upstreamModel, d.userAgent, d.clientIp, d.completionCap], [null, null, null, null], 'not given: null');
    assert.equal(await store.requestLogs.get(all[0]!.id + 1000), null);
  });

  it('a poll from the last id seen, while several writers write at once, sees every row exactly once and in id order', async () => {
    // Other processes on the same data where the store has them (SQLite's file, PostgreSQL's database). The rows
    // have no account, so the writers' transactions share no row (a debited account, a tally's) that would
    // queue them anyway: only the store's own ordering of ids keeps a poll from skipping one.
    const more = another;
    const writers: Store[] = more ? await Promise.all(Array.from({ length: 5 }, () => more())) : [store];
    const seen: number[] = [];
    let cursor = 0;
    let writing = true;
    const poll = async (): Promise<void> => {
      const rows = await store.requestLogs.list({ limit: 25, afterId: cursor });
      for (const row of rows) seen.push(row.id);
      if (rows.length > 0) cursor = rows.at(-1)!.id;
    };
    const polling = (async () => {
      while (writing) await poll();
    })();
    const written = await Promise.all(writers.map(async (writer, w) => {
      let n = 0;
      for (let batch = 0; batch < 40; batch++) {
        // Sizes from 1 to 150: a long INSERT and a short one overlap, the short one committing first.
        const size = 1 + ((batch * 37 + w * 11) % 150);
        await writer.write({ logs: Array.from({ length: size }, (_, i) => log({ requestId: `w${w}-${batch}-${i}`, model: `m${w}` })), keysUsed: new Map() });
        n += size;
      }
      return n;
    }));
    writing = false;
    await polling;
    for (let rows = -1; rows !== seen.length;) {
      rows = seen.length;
      await poll();
    }
    for (const writer of writers) if (writer !== store) await writer.close();
    const total = written.reduce((a, b) => a + b, 0);
    assert.equal(new Set(seen).size, seen.length, 'no row twice');
    assert.deepEqual(seen, [...seen].sort((x, y) => x - y), 'in id order');
    assert.equal(seen.length, total, `every row once: ${seen.length} of ${total}`);
    assert.deepEqual(seen, (await store.requestLogs.list({ limit: 100_000, afterId: 0 })).map((l) => l.id));
  });
}, { timeoutMs: 60_000 });
