// The logs pages' filters without an index (model, status, time range, request id) on SQLite, whose reads
// block the gateway's one thread: scanned a window of ids at a time with a turn of the event loop between
// windows, so looking up one request id among many rows never holds up the requests being served, and
// every page is the page one query would give. Pruning old rows goes by windows of ids the same way.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { LogFilter } from '../../../src/gateway/store/logQuery.ts';
import { openStore } from '../../../src/gateway/store/index.ts';
import { SqlRequestLogs } from '../../../src/gateway/store/requestLogs.ts';
import type { Row } from '../../../src/gateway/store/sqlRows.ts';
import type { RequestLog, Store } from '../../../src/gateway/store/types.ts';
import { tempDir } from '../gateway/helpers.ts';

const { DatabaseSync } = process.getBuiltinModule('node:sqlite');

/** More rows than three of the store's windows (20,000 ids each). */
const ROWS = 65_000;
const START = Date.UTC(2026, 0, 1);

function row(i: number, accountId: number): RequestLog {
  return {
    time: START + i * 1000, requestId: i === 5 ? 'needle' : `r-${i}`, method: 'POST', path: '/v1/chat/completions', accountId, keyId: null, keyName: null,
    model: i % 9_000 === 3 ? 'rare' : 'common', channel: 'c', status: i % 7_000 === 11 ? 502 : 200, errorCode: null, promptTokens: 1, completionTokens: 1,
    usageEstimated: false, cost: 0, latencyMs: 1, firstByteMs: null, stream: false,
  };
}

describe('request logs: a filter without an index, scanned in windows on SQLite', () => {
  let dir: string;
  let store: Store;
  let oneQuery: SqlRequestLogs;
  let accounts: number[];
  let close: () => void;

  before(async function () {
    this.timeout(60_000);
    dir = tempDir();
    store = openStore({ dataDir: dir });
    accounts = [(await store.createAccount('a', 0)).id, (await store.createAccount('b', 0)).id];
    for (let from = 0; from < ROWS; from += 5_000) {
      await store.write({ logs: Array.from({ length: 5_000 }, (_, k) => row(from + k, accounts[(from + k) % 3 === 0 ? 1 : 0]!)), keysUsed: new Map() });
    }
    // The same class over another connection without windows: one query per page, what the pages must equal.
    const db = new DatabaseSync(join(dir, 'gateway.db'), { readOnly: true });
    close = () => db.close();
    oneQuery = new SqlRequestLogs(async (sql, params) => db.prepare(sql).all(...params) as Row[], () => '?');
  });

  after(async () => {
    close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds one request id among 65,000 rows, letting the event loop turn while it reads', async () => {
    let turned = false;
    const listing = store.requestLogs.list({ requestId: 'needle', limit: 50 });
    setImmediate(() => (turned = true));
    const found = await listing;
    assert.deepEqual(found.map((l) => [l.requestId, l.time]), [['needle', START + 5_000]]);
    assert.ok(turned, 'a callback queued after the lookup began ran before it ended');

    turned = false;
    const plain = store.requestLogs.list({ accountId: accounts[0]!, limit: 50 });
    setImmediate(() => (turned = true));
    assert.equal((await plain).length, 50);
    assert.equal(turned, false, 'a page an index answers is one query, no window');
  });

  it('gives, page by page and in both orders, the rows one query gives', async () => {
    const filters: LogFilter[] = [
      { model: 'rare', limit: 3 },
      { ok: false, limit: 4 },
      { accountId: accounts[1]!, model: 'rare', limit: 2 },
      { since: START + 10_000_000, until: START + 50_000_000, ok: false, limit: 2 },
      { requestId: 'nobody', limit: 10 },
      { model: 'common', limit: 5 },
    ];
    for (const filter of filters) {
      const pages = async (logs: SqlRequestLogs, ascending: boolean): Promise<number[][]> => {
        const out: number[][] = [];
        let cursor: number | undefined = ascending ? 0 : undefined;
        for (let page = 0; page < 6; page++) {
          const rows = await logs.list({ ...filter, ...(ascending ? { afterId: cursor } : cursor === undefined ? {} : { beforeId: cursor }) });
          out.push(rows.map((l) => l.id));
          if (rows.length < filter.limit) break;
          cursor = rows.at(-1)!.id;
        }
        return out;
      };
      for (const ascending of [false, true]) {
        const windowed = await pages(store.requestLogs as SqlRequestLogs, ascending);
        assert.deepEqual(windowed, await pages(oneQuery, ascending), `${JSON.stringify(filter)} ${ascending ? 'oldest' : 'newest'} first`);
        if (filter.requestId === undefined) assert.ok(windowed.flat().length > 0, `${JSON.stringify(filter)} matches rows`);
      }
    }
  });

  // Last: it deletes the older half of the rows.
  it('prunes the rows older than a time in windows from the oldest, the event loop turning between, and keeps every younger one', async () => {
    let turned = false;
    const pruning = store.pruneLogs(START + 30_000 * 1000);
    setImmediate(() => (turned = true));
    assert.equal(await pruning, 30_000);
    assert.ok(turned, 'a callback queued after pruning began ran before it ended');
    const oldest = await oneQuery.list({ afterId: 0, limit: 1 });
    assert.equal(oldest[0]!.time, START + 30_000 * 1000, 'the first row kept is the first one not older');
    assert.equal((await oneQuery.list({ until: START + 30_000 * 1000, limit: 10 })).length, 0);
    assert.equal(await store.pruneLogs(START + 30_000 * 1000), 0, 'nothing left to prune');
  });
});
