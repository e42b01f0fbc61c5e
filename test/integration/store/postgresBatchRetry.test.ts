// A log batch that reached PostgreSQL but whose answer was lost (the connection cut right after the
// batch's call was sent, by a TCP proxy between the store and the server: the call is its own transaction,
// so it commits) is retried, as the log writer retries it: whole, with its id. It must be applied once
// (docs/multi-instance.md, "Logs").
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, connect, type Server, type Socket } from 'node:net';
import pg from 'pg';
import { poll } from '../../support/poll.ts';
import { openAnyStore } from '../../../src/gateway/store/index.ts';
import type { RequestLog, Store } from '../../../src/gateway/store/types.ts';
import { freshDatabase } from '../../support/postgres.ts';

/** PostgreSQL's Sync message, which ends an extended-protocol exchange: the server commits a call that is its own transaction there. */
const SYNC = Buffer.from([0x53, 0, 0, 0, 4]);

/**
 * Forwards to `target`; once armed, the messages of the first call of mg_write_batch go through up to their
 * Sync (they may come in several chunks), and then the connection is cut: no answer reaches the store.
 */
async function answerCutter(target: URL): Promise<{ url: string; arm(): void; cuts: () => number; close(): Promise<void> }> {
  let armed = false;
  let cuts = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    let cutting = false;
    upstream.on('data', (d) => {
      if (!cutting) client.write(d);
    });
    client.on('data', (d: Buffer) => {
      if (armed && d.includes('mg_write_batch')) {
        armed = false;
        cutting = true;
        cuts++;
      }
      if (!cutting) upstream.write(d);
      else if (!d.subarray(-SYNC.length).equals(SYNC)) upstream.write(d);
      else {
        upstream.end(d); // the server reads the call up to its Sync (and commits it), then the end of the connection
        client.destroy(); // the store never hears the answer
      }
    });
    const both = (): void => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', () => upstream.end());
    upstream.on('close', both);
    client.on('error', both);
    upstream.on('error', both);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  const url = new URL(target.href);
  url.host = `127.0.0.1:${port}`;
  return {
    url: url.href, arm: () => (armed = true), cuts: () => cuts,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

function log(accountId: number, cost: number): RequestLog {
  return {
    time: Date.now(), requestId: `r-${randomUUID()}`, method: 'POST', path: '/v1/chat/completions', accountId, keyId: null, keyName: null,
    model: 'm', channel: 'c', status: 200, errorCode: null, promptTokens: 1, completionTokens: 1, usageEstimated: false, cost,
    latencyMs: 12, firstByteMs: 3, stream: false,
  };
}

describe('PostgreSQL log batches: a retry after a lost answer to a committed batch', function () {
  this.timeout(30_000);
  let store: Store | undefined;
  let proxy: Awaited<ReturnType<typeof answerCutter>> | undefined;
  afterEach(async () => {
    await store?.close();
    await proxy?.close();
  });

  it('applies the batch once: one set of log rows, one debit', async () => {
    const direct = await freshDatabase();
    proxy = await answerCutter(new URL(direct));
    store = await openAnyStore({ databaseUrl: proxy.url, env: { MODEL_GATEWAY_SECRET_KEY: randomBytes(32).toString('base64') }, log: () => undefined });
    const account = await store.createAccount('team', 1000);
    const batch = { id: randomUUID(), logs: [log(account.id, 300), log(account.id, 200)], keysUsed: new Map<number, number>() };

    proxy.arm();
    await assert.rejects(store.write(batch), 'the first write hears no answer to its call');
    assert.equal(proxy.cuts(), 1);
    const read = async (): Promise<{ rows: number; balance: number; spent: number }> => {
      const client = new pg.Client({ connectionString: direct });
      await client.connect();
      try {
        const { rows } = await client.query(`SELECT (SELECT count(*) FROM request_logs)::int AS rows, balance::float8 AS balance, total_spent::float8 AS spent FROM accounts WHERE id = $1`, [account.id]);
        return rows[0] as { rows: number; balance: number; spent: number };
      } finally {
        await client.end();
      }
    };
    // The commit did land: the case this test is about, not a write that never happened. The server finishes the
    // call after the client's connection is gone, so it is waited for (a read at once raced it in one CI run).
    assert.deepEqual(await poll('the cut call\'s commit', async () => {
      const now = await read();
      return now.rows > 0 ? now : undefined;
    }, 10_000, 20), { rows: 2, balance: 500, spent: 500 });

    await store.write(batch);
    assert.deepEqual(await read(), { rows: 2, balance: 500, spent: 500 }, 'the retry changed nothing');
    await store.write({ id: randomUUID(), logs: [log(account.id, 100)], keysUsed: new Map() });
    assert.deepEqual(await read(), { rows: 3, balance: 400, spent: 600 }, 'a new batch is applied');
  });
});
