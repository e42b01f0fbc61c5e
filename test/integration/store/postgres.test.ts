// What the PostgreSQL store does beyond the shared conformance suite: migrations once under a lock and
// refused from a newer version, money rules in the database itself, channel keys sealed and the
// secret key's absence told, changes of another connection seen through NOTIFY or the periodic
// re-read, and the password kept out of every message. (Balance leases: postgresLeases.test.ts.)
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openAnyStore } from '../../../src/gateway/store/index.ts';
import { POSTGRES_MIGRATIONS } from '../../../src/gateway/store/postgresMigrations.ts';
import { RECHECK_MS } from '../../../src/gateway/store/postgresChanges.ts';
import { StoreError, type RequestLog, type Store } from '../../../src/gateway/store/types.ts';
import { main } from '../../../src/gateway/cli.ts';
import { newChannel } from '../../support/channels.ts';
import { poll } from '../../support/poll.ts';
import { freshDatabase, TEST_DATABASE_PASSWORD } from '../../support/postgres.ts';

const secretEnv = (): NodeJS.ProcessEnv => ({ MODEL_GATEWAY_SECRET_KEY: randomBytes(32).toString('base64') });
const storeError = (code: string, text?: RegExp) => (error: unknown) => error instanceof StoreError && error.code === code && (!text || text.test(error.message));

/** Raw SQL on the database, as an operator with psql would run it. */
async function sql(url: string, text: string, params: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text, params);
  } finally {
    await client.end();
  }
}

function log(accountId: number, cost: number): RequestLog {
  return {
    time: Date.now(), requestId: `r-${Math.random()}`, method: 'POST', path: '/v1/chat/completions', accountId, keyId: null, keyName: null,
    model: 'm', channel: 'c', status: 200, errorCode: null, promptTokens: 1, completionTokens: 1, usageEstimated: false, cost,
    latencyMs: 12.6, firstByteMs: 3.4, stream: false,
  };
}

/** A database written by an older version: the migrations up to `version`, an account `team` (7 micro-USD) with user `ada`, and `extra` SQL. */
async function databaseAtSchema(version: number, ...extra: string[]): Promise<string> {
  const url = await freshDatabase();
  await sql(url, 'CREATE TABLE schema_version (version INTEGER NOT NULL)');
  for (const m of POSTGRES_MIGRATIONS.filter((m) => m.version <= version)) {
    await sql(url, m.sql);
    await sql(url, 'INSERT INTO schema_version (version) VALUES ($1)', [m.version]);
  }
  await sql(url, "INSERT INTO accounts (name, balance, created_at) VALUES ('team', 7, 1)");
  await sql(url, "INSERT INTO users (name, account_id, admin, password_hash, created_at) SELECT 'ada', id, TRUE, 'x', 1 FROM accounts");
  for (const statement of extra) await sql(url, statement);
  return url;
}

describe('the PostgreSQL store', () => {
  const opened: Store[] = [];
  const open = async (url: string, env: NodeJS.ProcessEnv = secretEnv()): Promise<Store> => {
    const store = await openAnyStore({ databaseUrl: url, env });
    opened.push(store);
    return store;
  };
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
  });

  it('migrates once when several open a new database together, and refuses a database of a newer version', async () => {
    const url = await freshDatabase();
    await Promise.all([open(url), open(url), open(url), open(url)]);
    const versions = POSTGRES_MIGRATIONS.map((m) => m.version);
    assert.deepEqual(versions.slice(0, 8), [1, 2, 3, 4, 5, 6, 7, 8], "contiguous to 8: 6 redemption codes, 7 the audit log, 8 keys' own limits");
    assert.ok(versions.every((v, i) => i === 0 || v > versions[i - 1]!) && versions.includes(10), `each once, in order, 10 admin access tokens: ${versions.join(', ')}`);
    assert.deepEqual((await sql(url, 'SELECT version FROM schema_version ORDER BY version')).rows, POSTGRES_MIGRATIONS.map((m) => ({ version: m.version })));
    await sql(url, 'INSERT INTO schema_version (version) VALUES (999)');
    await assert.rejects(open(url), storeError('invalid', new RegExp(`newer Model Gateway \\(schema 999; this version knows up to ${POSTGRES_MIGRATIONS.at(-1)!.version}\\)`)));
  });

  it('brings a database at schema 7 to admin access tokens (10), its audit rows kept and naming no token', async () => {
    const url = await databaseAtSchema(7, "INSERT INTO audit_log (time, actor, action, target) VALUES (1, 'cli', 'account.topup', 'team')");
    const store = await open(url);
    assert.deepEqual((await sql(url, 'SELECT version FROM schema_version ORDER BY version')).rows.map((r) => r.version), POSTGRES_MIGRATIONS.map((m) => m.version));
    assert.deepEqual((await store.listAudit({ limit: 10 })).map((r) => [r.actor, r.action, r.viaToken]), [['cli', 'account.topup', null]]);
    const [ada] = await store.listUsers();
    const token = await store.adminTokens.create({ name: 'script', hash: 'f'.repeat(64), prefix: 'mgt-ffff…', createdBy: ada!.id, expiresAt: null });
    assert.deepEqual(await store.adminTokens.list(), [token]);
  });

  it("brings a database at schema 5 to the latest (redemption codes, the audit log, keys' own limits), its rows kept", async () => {
    const url = await databaseAtSchema(5);
    const store = await open(url);
    assert.deepEqual((await sql(url, 'SELECT version FROM schema_version ORDER BY version')).rows.map((r) => r.version), POSTGRES_MIGRATIONS.map((m) => m.version));
    const [ada] = await store.listUsers();
    assert.deepEqual([ada!.name, ada!.lastSignInAt, (await store.getAccount('team'))!.balance], ['ada', null, 7]);
    const [code] = await store.createCodes([{ hash: 'e'.repeat(64), value: 5, batch: null, expiresAt: null, createdBy: ada!.id }], { actor: 'ada', action: 'code.create', target: '(no batch)' });
    assert.equal((await store.redeemCode(code!.hash, { accountId: ada!.accountId, userId: ada!.id }, Date.now()))!.account.balance, 12);
    assert.deepEqual((await store.listAudit({ limit: 10 })).map((r) => r.action), ['code.create']);
  });

  it('keeps money exact and bounded in the database: an overdrawing batch is refused whole, a balance past the ceiling too', async () => {
    const url = await freshDatabase();
    const store = await open(url);
    const account = await store.createAccount('team', 1_000);
    await store.write({ logs: [log(account.id, 400), log(account.id, 300)], keysUsed: new Map() });
    await assert.rejects(store.write({ logs: [log(account.id, 200), log(account.id, 200)], keysUsed: new Map() }), storeError('invalid', /below \$0/));
    const after = (await store.getAccount('team'))!;
    assert.deepEqual([after.balance, after.totalSpent, (await store.listLogs(10)).length], [300, 700, 2], 'the refused batch left no log and no debit');
    assert.deepEqual((await store.listLogs(1)).map((l) => [l.latencyMs, l.firstByteMs]), [[13, 3.4]]);
    await assert.rejects(sql(url, "UPDATE accounts SET balance = 1000000000000001 WHERE name = 'team'"), /accounts_balance_range/);
  });

  it('writes a batch whose text holds a NUL or half a surrogate pair (which PostgreSQL text cannot) with U+FFFD in its place, instead of refusing every charge in it', async () => {
    const url = await freshDatabase();
    const store = await open(url);
    const account = await store.createAccount('team', 1_000);
    // Each alone in its batch: one unholdable text must not stand for another.
    await store.write({ logs: [{ ...log(account.id, 100), model: 'a\u0000b', userAgent: 'ua\u0000', attempts: '[{"detail":"x\u0000"}]' }], keysUsed: new Map() });
    await store.write({ logs: [{ ...log(account.id, 50), userAgent: 'ua \uD800', attempts: '[{"detail":"x\uDC00"}]' }], keysUsed: new Map() });
    const awkward = { keyName: 'NULL', upstreamModel: '', userAgent: 'a "quoted", {braced} \\ back\\', clientIp: ' ', attempts: '[{"detail":"say \\"hi\\""}]' };
    await store.write({ logs: [{ ...log(account.id, 0), path: '/v1/\\u0000\uD83D\uDE00', ...awkward }], keysUsed: new Map() });
    const [kept, half, nul] = await store.listLogs(10);
    assert.deepEqual([nul!.model, nul!.userAgent, nul!.attempts], ['a\uFFFDb', 'ua\uFFFD', '[{"detail":"x\uFFFD"}]']);
    assert.deepEqual([half!.userAgent, half!.attempts], ['ua \uFFFD', '[{"detail":"x\uFFFD"}]']);
    assert.equal(kept!.path, '/v1/\\u0000\uD83D\uDE00', 'a backslash before "u0000" and a whole pair are text PostgreSQL holds: kept');
    assert.deepEqual({ keyName: kept!.keyName, upstreamModel: kept!.upstreamModel, userAgent: kept!.userAgent, clientIp: kept!.clientIp, attempts: kept!.attempts }, awkward, 'quotes, backslashes, braces, commas, "NULL" and empty text kept as sent');
    assert.equal((await store.getAccount('team'))!.balance, 850, 'both charges settled');
    const tally = await sql(url, "SELECT model FROM usage_hourly WHERE account_id <> 0 ORDER BY model");
    assert.deepEqual(tally.rows.map((r: { model: string }) => r.model), ['a\uFFFDb', 'm']);
  });

  it('seals channel keys, and says so when MODEL_GATEWAY_SECRET_KEY is missing for a database that holds some', async () => {
    const url = await freshDatabase();
    const env = secretEnv();
    const store = await open(url, env);
    await store.addChannel(newChannel({ name: 'up', apiKey: 'sk-channel-plain-text-never' }));
    const stored = (await sql(url, "SELECT api_key FROM channels WHERE name = 'up'")).rows[0].api_key as string;
    assert.ok(stored.startsWith('v1:') && !stored.includes('sk-channel-plain-text-never'), stored);
    assert.equal((await (await open(url, env)).listChannels())[0]!.apiKey, 'sk-channel-plain-text-never');
    await assert.rejects(open(url, {}), storeError('invalid', /holds channel keys.*MODEL_GATEWAY_SECRET_KEY/));
    const keyless = await open(await freshDatabase(), {});
    await assert.rejects(keyless.addChannel(newChannel({ apiKey: 'sk-x' })), storeError('invalid', /MODEL_GATEWAY_SECRET_KEY/));
    await keyless.addChannel(newChannel({ name: 'echo', type: 'echo', apiKey: null }));
  });

  it('seals a channel URL holding a secret (query value, proxy password), written, edited or left plain; a keyless database refuses to store one and to open one', async () => {
    const url = await freshDatabase();
    const env = secretEnv();
    const store = await open(url, env);
    await store.addChannel(newChannel({ name: 'gem', baseUrl: 'https://up.example/v1?key=AIza-query-secret-1', apiKey: null }));
    await store.updateChannel('gem', { proxy: 'http://ops:proxy-pass-2@proxy.example:3128' });
    await store.addChannel(newChannel({ name: 'plain', baseUrl: 'https://up.example/v1', apiKey: null }));
    const raw = async () => (await sql(url, 'SELECT name, base_url, proxy FROM channels ORDER BY id')).rows as { name: string; base_url: string; proxy: string | null }[];
    const rows = await raw();
    assert.ok(!JSON.stringify(rows).includes('secret-1') && !JSON.stringify(rows).includes('pass-2'), JSON.stringify(rows));
    assert.equal(rows[1]!.base_url, 'https://up.example/v1');
    await sql(url, "UPDATE channels SET base_url = 'https://up.example/v1?key=legacy-secret-3' WHERE name = 'plain'");
    const reopened = await open(url, env);
    assert.deepEqual((await reopened.listChannels()).map((c) => [c.baseUrl, c.proxy]), [
      ['https://up.example/v1?key=AIza-query-secret-1', 'http://ops:proxy-pass-2@proxy.example:3128'],
      ['https://up.example/v1?key=legacy-secret-3', null],
    ]);
    assert.ok(!JSON.stringify(await raw()).includes('legacy-secret-3'), 'sealed on open');
    await assert.rejects(open(url, {}), storeError('invalid', /MODEL_GATEWAY_SECRET_KEY/));
    const keyless = await open(await freshDatabase(), {});
    await assert.rejects(keyless.addChannel(newChannel({ baseUrl: 'https://up.example/v1?key=secret-value', apiKey: null })), storeError('invalid', /the base URL of channel "[^"]+" holds a secret.*MODEL_GATEWAY_SECRET_KEY/));
  });

  it("sees another connection's admin change through NOTIFY at once, and one without a notification at the next re-read", async () => {
    const url = await freshDatabase();
    const env = secretEnv();
    const serving = await open(url, env);
    const cli = await open(url, env);
    serving.changedSinceLastCheck();
    // The listening connection is up once LISTEN has run: wait for it in pg_stat_activity.
    await poll('the change feed to listen', async () => (await sql(url, "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %'")).rows[0].n === 1, 5000, 20);
    serving.changedSinceLastCheck();
    assert.equal(serving.changedSinceLastCheck(), false);

    await cli.createAccount('team', 0);
    const started = Date.now();
    await poll('the notified change', () => serving.changedSinceLastCheck(), 2000, 5);
    assert.ok(Date.now() - started < RECHECK_MS / 2, `seen after ${Date.now() - started} ms: through the notification, not the re-read`);

    // A change whose notification is lost: only the version moves.
    assert.equal(serving.changedSinceLastCheck(), false);
    await sql(url, 'UPDATE gateway_changes SET version = version + 1');
    const bumped = Date.now();
    await poll('the re-read change', () => serving.changedSinceLastCheck(), RECHECK_MS * 3, 5);
    assert.ok(Date.now() - bumped <= RECHECK_MS * 2 + 200, `seen after ${Date.now() - bumped} ms`);
  });

  it("sees another connection's redemption through NOTIFY at once, as a top-up; a refused one sends nothing", async () => {
    const url = await freshDatabase();
    const env = secretEnv();
    const serving = await open(url, env);
    const cli = await open(url, env);
    const team = await cli.createAccount('team', 0);
    const [code] = await cli.createCodes([{ hash: 'c'.repeat(64), value: 5, batch: null, expiresAt: null, createdBy: null }]);
    serving.changedSinceLastCheck();
    await poll('the change feed to listen', async () => (await sql(url, "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %'")).rows[0].n === 1, 5000, 20);
    await poll('the account seen', () => serving.changedSinceLastCheck(), RECHECK_MS * 3, 5);
    assert.equal(serving.changedSinceLastCheck(), false);

    const version = async () => Number((await sql(url, 'SELECT version FROM gateway_changes')).rows[0].version);
    const before = await version();
    assert.ok(await cli.redeemCode(code!.hash, { accountId: team.id, userId: null }, Date.now()));
    const started = Date.now();
    await poll('the notified redemption', () => serving.changedSinceLastCheck(), 2000, 5);
    assert.ok(Date.now() - started < RECHECK_MS / 2, `seen after ${Date.now() - started} ms: through the notification, not the re-read`);
    assert.equal(await version(), before + 1, 'the change version bumped in the redemption\'s transaction');
    assert.equal(await cli.redeemCode(code!.hash, { accountId: team.id, userId: null }, Date.now()), null);
    await cli.createCodes([{ hash: 'd'.repeat(64), value: 5, batch: null, expiresAt: null, createdBy: null }]);
    assert.equal(await version(), before + 1, 'a refused redemption and a new code change nothing the instances cache');
  });

  it('never prints the database password in a CLI failure', async () => {
    const url = await freshDatabase();
    // Every CLI command takes --database; a failure names the database without the password.
    let err = '';
    const io = { out: () => undefined, err: (line: string) => void (err += line) };
    const unreachable = url.replace(/:(\d+)\//, ':1/');
    assert.equal(await main(['account', 'show', 'team', '--database', unreachable], io, {}), 1);
    assert.match(err, /postgres:\/\/postgres@127\.0\.0\.1:1\//);
    assert.ok(!err.includes(TEST_DATABASE_PASSWORD), err);
    err = '';
    assert.equal(await main(['account', 'show', 'team'], io, { MODEL_GATEWAY_DATABASE_URL: `mysql://u:${TEST_DATABASE_PASSWORD}@h/db` }), 1);
    assert.match(err, /MODEL_GATEWAY_DATABASE_URL must be a PostgreSQL URL/);
    assert.ok(!err.includes(TEST_DATABASE_PASSWORD), err);
  });
});
