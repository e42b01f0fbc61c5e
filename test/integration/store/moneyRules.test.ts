// Money the database itself refuses (issue 11 item 6, moneyRules.ts): written straight into the SQLite file or
// the PostgreSQL database (as sqlite3 or psql would), a balance, total, price or spending limit that is not whole
// micro-USD, below its least or past its ceiling is refused, so no path can brick the gateway with it; the gateway's
// own writes (top-ups, debits, prices, limits) still land. A debit past the balance is refused whole on every store
// and the log writer still writes the rows, with the charges the account cannot pay withheld. And a database whose
// rows already break a rule is not upgraded: it is refused with the rows named and the repair, and opens once repaired.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { MAX_BALANCE_MICRO, MAX_PRICE_MICRO } from '../../../src/contract/index.ts';
import { Ledger } from '../../../src/gateway/accounts/ledger.ts';
import { CHARGE_WITHHELD } from '../../../src/gateway/logChargesWithheld.ts';
import { LogWriter } from '../../../src/gateway/logs.ts';
import { Serial } from '../../../src/gateway/serial.ts';
import { openAnyStore, openStore } from '../../../src/gateway/store/index.ts';
import { MIGRATIONS } from '../../../src/gateway/store/migrations.ts';
import { POSTGRES_MIGRATIONS } from '../../../src/gateway/store/postgresMigrations.ts';
import { OverdrawnBatch, StoreError, type AccountRecord, type RequestLog } from '../../../src/gateway/store/types.ts';
import { freshDatabase } from '../../support/postgres.ts';
import { describeEachStore } from '../../support/stores.ts';
import { tempDir } from '../gateway/helpers.ts';

function log(accountId: number, cost: number, requestId = `r-${Math.random()}`): RequestLog {
  return {
    time: Date.now(), requestId, method: 'POST', path: '/v1/chat/completions', accountId, keyId: null, keyName: null, model: 'm', channel: 'c',
    status: 200, errorCode: null, promptTokens: 1, completionTokens: 1, usageEstimated: false, cost, latencyMs: 1, firstByteMs: 0.5, stream: false, completionCap: null,
  };
}

const REFUSED = /refused|must be whole|check constraint|invalid input syntax|out of range/i;

describeEachStore('money the store refuses itself', (current, name) => {
  if (name !== 'memory') it('refuses every balance, total, price and spending limit that is not whole micro-USD in bounds, written straight into the database', async () => {
    const { store } = current();
    const raw = current().raw!;
    // The same statement on both: SQLite's ? or PostgreSQL's $n.
    const run = (sql: string, params: unknown[]) => raw(name === 'sqlite' ? sql.replace(/\$\d/g, '?') : sql, params);
    const team = await store.createAccount('team', 1_000);
    await store.setModel({ name: 'gpt', kind: 'chat', inputPrice: 1, outputPrice: 2, imagePrice: null, contextLength: null, toolCalling: null });
    const key = await store.createKey({ accountId: team.id, name: 'k', hash: 'h'.repeat(64), prefix: 'sk-h', models: null, expiresAt: null, rpm: 0, concurrency: 0 });

    const refused: [string, unknown[]][] = [
      ['UPDATE accounts SET balance = $1', [-5]], ['UPDATE accounts SET balance = $1', [1.5]], ['UPDATE accounts SET balance = $1', [MAX_BALANCE_MICRO + 1]],
      ['UPDATE accounts SET total_spent = $1', [-1]], ['UPDATE accounts SET total_spent = $1', [0.5]],
      ['INSERT INTO accounts (name, balance, created_at) VALUES ($1, $2, 1)', ['debtor', -100]],
      ['INSERT INTO accounts (name, balance, created_at) VALUES ($1, $2, 1)', ['fraction', 2.5]],
      ['UPDATE models SET input_price = $1', [9e18]], ['UPDATE models SET input_price = $1', [0.5]], ['UPDATE models SET output_price = $1', [-1]],
      ['UPDATE models SET input_price = $1', [MAX_PRICE_MICRO + 1]], ['UPDATE models SET image_price = $1', [-1]],
      ['UPDATE models SET cached_input_price = $1', [1.5]], ['UPDATE models SET cache_write_price = $1', [MAX_PRICE_MICRO + 1]],
      ['UPDATE models SET image_prices = $1', ['{"hd":1e20}']], ['UPDATE models SET image_prices = $1', ['{"hd":1.5}']],
      ['UPDATE models SET image_prices = $1', ['{"hd":-1}']], ['UPDATE models SET image_prices = $1', ['{"hd":"5"}']],
      ['UPDATE models SET image_prices = $1', ['[1]']], ['UPDATE models SET image_prices = $1', ['not json']],
      ["INSERT INTO models (name, input_price, output_price, kind) VALUES ('huge', $1, 1, 'chat')", [9e18]],
      ['UPDATE api_keys SET spend_limit = $1', [1.5]], ['UPDATE api_keys SET spend_limit = $1', [0]], ['UPDATE api_keys SET spend_limit = $1', [MAX_BALANCE_MICRO + 1]],
    ];
    for (const [sql, params] of refused) await assert.rejects(run(sql, params), REFUSED, `${sql} ${JSON.stringify(params)}`);

    // Nothing changed, and what is in bounds is taken.
    assert.deepEqual([(await store.getAccount('team'))!.balance, (await store.getAccount('debtor'))], [1_000, null]);
    assert.deepEqual((await store.listModels()).map((m) => [m.name, m.inputPrice, m.outputPrice, m.imagePrices ?? null]), [['gpt', 1, 2, null]]);
    await run('UPDATE accounts SET balance = $1, total_spent = $2', [MAX_BALANCE_MICRO, Number.MAX_SAFE_INTEGER]);
    await run('UPDATE models SET input_price = $1, output_price = 0, image_prices = $2', [MAX_PRICE_MICRO, '{"hd":1000000000000,"1024x1792":0}']);
    await run('UPDATE api_keys SET spend_limit = $1', [MAX_BALANCE_MICRO]);
    assert.deepEqual([(await store.getAccount('team'))!.balance, (await store.listModels())[0]!.imagePrices, (await store.listKeys()).find((k) => k.id === key.id)!.spendLimit],
      [MAX_BALANCE_MICRO, { hd: MAX_PRICE_MICRO, '1024x1792': 0 }, MAX_BALANCE_MICRO]);
  });

  it("the gateway's own writes land: top-ups, debits, prices with image variants, spending limits", async () => {
    const { store } = current();
    const team = await store.createAccount('team', 0);
    await store.topUp('team', 5_000);
    await store.write({ logs: [log(team.id, 4_000), log(team.id, 1_000)], keysUsed: new Map() });
    assert.deepEqual([(await store.getAccount('team'))!.balance, (await store.getAccount('team'))!.totalSpent], [0, 5_000], 'to $0 exactly');
    await store.setModel({ name: 'img', kind: 'image', inputPrice: 0, outputPrice: 0, imagePrice: 40_000, imagePrices: { hd: 80_000 }, contextLength: null, toolCalling: null });
    await store.setModel({ name: 'img', kind: 'image', inputPrice: 0, outputPrice: 0, imagePrice: MAX_PRICE_MICRO, imagePrices: { hd: 0 }, contextLength: null, toolCalling: null });
    assert.deepEqual((await store.listModels()).map((m) => [m.imagePrice, m.imagePrices]), [[MAX_PRICE_MICRO, { hd: 0 }]]);
    const key = await store.createKey({ accountId: team.id, name: 'k', hash: 'a'.repeat(64), prefix: 'sk-a', models: null, expiresAt: null, rpm: 0, concurrency: 0, limits: { spendLimit: 1 } });
    assert.equal((await store.listKeys()).find((k) => k.id === key.id)!.spendLimit, 1);
  });

  it('a batch whose debits pass the balance is refused whole, saying what the account can pay', async () => {
    const { store } = current();
    const team = await store.createAccount('team', 1_000);
    await store.write({ logs: [log(team.id, 400)], keysUsed: new Map() });
    const refusal = await store.write({ logs: [log(team.id, 500), log(team.id, 200)], keysUsed: new Map() }).then(() => null, (error: unknown) => error);
    assert.ok(refusal instanceof OverdrawnBatch, String(refusal));
    assert.deepEqual([...refusal.payable], [[team.id, 600]]);
    assert.deepEqual([(await store.getAccount('team'))!.balance, (await store.listLogs(10)).length], [600, 1], 'nothing of it written');
  });

  if (name !== 'memory') it('the log writer still writes an overdrawing batch: the rows land, what the account cannot pay withheld, the balance at $0', async () => {
    const { store } = current();
    const team = await store.createAccount('team', 1_000);
    const ledger = new Ledger();
    ledger.load([team]);
    const failures: unknown[] = [];
    const notices: string[] = [];
    const writer = new LogWriter(store, ledger, new Serial(), (error) => failures.push(error), (line) => notices.push(line));
    const charged = (account: AccountRecord, cost: number) => ledger.settle(ledger.reserve(account.id, () => ({ amount: cost, maxCompletionTokens: null }))!.reservation, cost);
    const costs = [charged(team, 300), charged(team, 500)];
    // The operator takes money away by hand meanwhile (sqlite3 or psql): the settled charges no longer fit.
    await current().raw!('UPDATE accounts SET balance = 600');
    writer.record(log(team.id, costs[0]!, 'first'), null);
    writer.record(log(team.id, costs[1]!, 'second'), null);
    await writer.close();
    assert.deepEqual(failures, [], 'no batch failed');
    assert.equal(writer.durable, true);
    const rows = await store.listLogs(10);
    assert.deepEqual(rows.map((l) => [l.requestId, l.cost, l.errorCode]).sort(), [['first', 300, null], ['second', 300, CHARGE_WITHHELD]]);
    assert.deepEqual([(await store.getAccount('team'))!.balance, (await store.getAccount('team'))!.totalSpent], [0, 600], 'the logged costs are the balance decrease');
    assert.ok(notices.some((line) => line.includes('could not pay $0.0002')), notices.join('\n'));
  });
}, { timeoutMs: 60_000 });

const refusedNaming = (where: RegExp, ...rows: RegExp[]) => (error: unknown) =>
  error instanceof StoreError && where.test(error.message) && rows.every((r) => r.test(error.message)) && /Repair each row .*UPDATE \w+ SET \w+ = \.\.\. WHERE/.test(error.message);

describe('a database whose money already breaks the rules is not upgraded: refused, naming the rows and the repair', function () {
  this.timeout(60_000);

  it('SQLite (schema 26 to 27): refused and left at 26; opens once the rows are repaired, the rest kept', async () => {
    const dir = tempDir();
    try {
      const file = `${dir}/gateway.db`;
      const db = new DatabaseSync(file);
      db.exec('CREATE TABLE schema_version (version INTEGER NOT NULL)');
      for (const m of MIGRATIONS.filter((m) => m.version < 27)) {
        db.exec(m.sql);
        db.prepare('INSERT INTO schema_version (version) VALUES (?)').run(m.version);
      }
      db.exec(`INSERT INTO accounts (name, balance, created_at) VALUES ('team', 1.5, 1), ('debtor', -5, 1), ('fine', 7, 1);
        INSERT INTO models (name, input_price, output_price) VALUES ('pricey', 9000000000000000000, 1), ('pics', 1, 1);
        UPDATE models SET image_prices = '{"hd":1e20}' WHERE name = 'pics';`);
      db.close();
      assert.throws(() => openStore({ dataDir: dir }), refusedNaming(/gateway\.db holds values this version's store refuses \(schema 27\)/,
        /the accounts row where id = 1 holds 1\.5 in balance; it must be a whole number from 0 to 1000000000000000/,
        /the accounts row where id = 2 holds -5 in balance/, /the models row where name = 'pricey' holds 9000000000000000000 in input_price/,
        /the models row where name = 'pics' holds \{"hd":1e20\} in image_prices; it must be a JSON object of whole numbers/));
      const after = new DatabaseSync(file);
      assert.equal((after.prepare('SELECT MAX(version) AS v FROM schema_version').get() as { v: number }).v, 26, 'left as it was');
      after.exec(`UPDATE accounts SET balance = 2 WHERE id = 1; UPDATE accounts SET balance = 0 WHERE id = 2;
        UPDATE models SET input_price = 1000000 WHERE name = 'pricey'; UPDATE models SET image_prices = NULL WHERE name = 'pics'`);
      after.close();
      const store = openStore({ dataDir: dir });
      try {
        assert.deepEqual(await Promise.all(['debtor', 'fine', 'team'].map(async (n) => (await store.getAccount(n))!.balance)), [0, 7, 2]);
        await assert.rejects(store.topUp('fine', MAX_BALANCE_MICRO), StoreError);
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('PostgreSQL (schema 19 to 21): refused and left at 19; opens once the rows are repaired', async () => {
    const url = await freshDatabase();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query('CREATE TABLE schema_version (version INTEGER NOT NULL)');
      for (const m of POSTGRES_MIGRATIONS.filter((m) => m.version < 20)) {
        await client.query(m.sql);
        await client.query('INSERT INTO schema_version (version) VALUES ($1)', [m.version]);
      }
      await client.query(`INSERT INTO models (name, input_price, output_price, image_prices) VALUES
        ('pricey', 9000000000000000000, 1, NULL), ('cheap', 1, -1, NULL), ('pics', 1, 1, '{"hd":1e20}'), ('garbled', 1, 1, 'not json'), ('fine', 1, 1, '{"hd":5}')`);
      const env = { MODEL_GATEWAY_SECRET_KEY: Buffer.alloc(32, 7).toString('base64') };
      await assert.rejects(openAnyStore({ databaseUrl: url, env }), refusedNaming(/holds values this version's store refuses \(schema 21\)/,
        /the models row where name = 'pricey' holds 9000000000000000000 in input_price/, /the models row where name = 'cheap' holds -1 in output_price/,
        /the models row where name = 'pics' holds \{"hd": 1e20\}|the models row where name = 'pics' holds \{"hd":1e20\}/, /the models row where name = 'garbled' holds not json in image_prices/));
      assert.equal((await client.query('SELECT MAX(version) AS v FROM schema_version')).rows[0].v, 20, 'the price check (20) went in; the rules (21) did not');
      await client.query(`UPDATE models SET input_price = 1000000 WHERE name = 'pricey'; UPDATE models SET output_price = 0 WHERE name = 'cheap';
        UPDATE models SET image_prices = NULL WHERE name IN ('pics', 'garbled')`);
      const store = await openAnyStore({ databaseUrl: url, env });
      try {
        assert.deepEqual((await store.listModels()).map((m) => [m.name, m.inputPrice, m.imagePrices ?? null]),
          [['cheap', 1, null], ['fine', 1, { hd: 5 }], ['garbled', 1, null], ['pics', 1, null], ['pricey', 1_000_000, null]]);
        await assert.rejects(client.query("UPDATE models SET input_price = 9000000000000000000 WHERE name = 'fine'"), /models_input_price_range/);
      } finally {
        await store.close();
      }
    } finally {
      await client.end();
    }
  });
});
