// `model-gateway migrate --from DATA_FOLDER --database URL` through the bundled CLI (dist/cli.cjs): a SQLite
// folder that served traffic copied into an empty database of the run's test PostgreSQL, then
// `serve --database` on it answers with the same keys (their creators kept), admin access tokens, balances and logs; a non-empty
// target and a missing MODEL_GATEWAY_SECRET_KEY are refused, the latter before anything is written.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { cliSuite } from '../../support/cliSuite.ts';
import { freshDatabase, TEST_DATABASE_PASSWORD } from '../../support/postgres.ts';
import { toAccount, toAdminToken, toAnyCode, toKey, toLog, toModel, toUser, type Row } from '../../../src/gateway/store/sqlRows.ts';
import { toAudit } from '../../../src/gateway/store/audit.ts';
import { assertError } from '../../support/answer.ts';
import { call, chatBody, tempDir } from './helpers.ts';
import { openStore } from '../../../src/gateway/store/index.ts';
import { ROOT, serveProcess } from './serveProcess.ts';
import { consoleAgent } from './consoleAgent.ts';
import type { KeyRecord, ModelRecord, UserRecord } from '../../../src/gateway/store/types.ts';

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The real CLI in its own process. */
function cli(env: NodeJS.ProcessEnv, args: string[], input?: string): Run {
  const r = spawnSync(process.execPath, [resolve(ROOT, 'dist/cli.cjs'), ...args], { env, encoding: 'utf8', ...(input !== undefined ? { input } : {}) });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function ok(env: NodeJS.ProcessEnv, args: string[], input?: string): string {
  const r = cli(env, args, input);
  assert.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** Every row of the tables migrate copies, read through the stores' mappers, in id order (models by name). */
const TABLES: Record<string, (r: Row) => unknown> = {
  accounts: toAccount, users: toUser, api_keys: toKey, models: toModel, request_logs: (r: Row) => toLog({ ...r, account_name: null }), redemption_codes: toAnyCode,
  audit_log: toAudit, admin_tokens: toAdminToken,
  gateway_settings: (r: Row) => ({ name: r.name, value: JSON.parse(String(r.value)) as unknown, updatedAt: Number(r.updated_at) }),
};
const order = (table: string): string => (table === 'models' || table === 'gateway_settings' ? 'name' : 'id');

function sqliteRows(dir: string): Record<string, unknown[]> {
  const db = new DatabaseSync(join(dir, 'gateway.db'), { readOnly: true });
  try {
    return Object.fromEntries(Object.entries(TABLES).map(([t, map]) => [t, (db.prepare(`SELECT * FROM ${t} ORDER BY ${order(t)}`).all() as Row[]).map(map)]));
  } finally {
    db.close();
  }
}

/** The channels' stored secret columns, as the database holds them. */
async function channelColumns(url: string): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>('SELECT base_url, api_key, proxy FROM channels')).rows;
  } finally {
    await client.end();
  }
}

async function postgresRows(url: string): Promise<Record<string, unknown[]>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const out: Record<string, unknown[]> = {};
    for (const [t, map] of Object.entries(TABLES)) out[t] = (await client.query<Row>(`SELECT * FROM ${t} ORDER BY ${order(t)}`)).rows.map(map);
    return out;
  } finally {
    await client.end();
  }
}

async function tablesIn(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Number((await client.query<Row>(`SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = 'public'`)).rows[0]!.n);
  } finally {
    await client.end();
  }
}

const micro = (usd: string): number => Math.round(Number(usd) * 1e6);
function accountShow(out: string): { balance: number; spent: number } {
  const [, balance, spent] = /balance \$([\d.]+), spent \$([\d.]+)/.exec(out)!;
  return { balance: micro(balance!), spent: micro(spent!) };
}

describe('migrate --from DATA_FOLDER --database URL: a SQLite gateway into PostgreSQL', function () {
  this.timeout(90_000);
  const suite = cliSuite();

  it('copies a folder with traffic; serve --database answers with the same keys, balances and logs; a non-empty target and a missing secret key are refused', async () => {
    const upstream = suite.upstream();
    const dir = suite.dir();
    // The folder seals channel keys with its own secret.key (no MODEL_GATEWAY_SECRET_KEY while it serves).
    const base: NodeJS.ProcessEnv = { ...process.env, MODEL_GATEWAY_ECHO_DELAY_MS: '0' };
    delete base['MODEL_GATEWAY_SECRET_KEY'];
    delete base['MODEL_GATEWAY_DATABASE_URL'];
    const onFolder: NodeJS.ProcessEnv = { ...base, MODEL_GATEWAY_DATA: dir };
    const local = await serveProcess([], onFolder);
    let key: string;
    let expiring: string;
    let disabled: string;
    let adminToken: string;
    let invitation: string;
    try {
      // Its base URL carries a secret too (some providers take a key in the query): sealed at rest on both sides.
      ok(onFolder, ['channel', 'add', '--name', 'up', '--base-url', `${upstream.url}?key=upstream-query-secret-2`, '--api-key', 'sk-upstream-secret-1', '--models', 'gpt-x']);
      ok(onFolder, ['model', 'price', 'gpt-x', '--input', '3', '--output', '7', '--cached-input', '0.3', '--cache-write', '3.75', '--context', '128000', '--tools', 'yes', '--default-max-tokens', '4096', '--max-output', '16384']);
      ok(onFolder, ['model', 'price', 'pic', '--kind', 'image', '--per-image', '0.04', '--per-image', '1024x1792=0.08', '--per-image', 'hd=0.12']);
      ok(onFolder, ['account', 'create', 'team', '--balance', '1']);
      ok(onFolder, ['user', 'create', 'ana', '--account', 'team'], 'correct-horse-battery-9\n');
      key = ok(onFolder, ['key', 'create', '--account', 'team', '--name', 'team-key', '--models', 'gpt-x', '--rpm', '500', '--concurrency', '7']).trim();
      expiring = ok(onFolder, ['key', 'create', '--account', 'team', '--name', 'later', '--expires', '2099-01-01T00:00:00Z']).trim();
      disabled = ok(onFolder, ['key', 'create', '--account', 'team', '--name', 'off']).trim();
      ok(onFolder, ['key', 'disable', 'off']);
      // A key ana makes in the console remembers her (api_keys.user_id): it goes across with the rest.
      const ana = consoleAgent(local.gw);
      assert.equal((await ana.signIn('ana', 'correct-horse-battery-9')).status, 200);
      assert.equal((await ana.post('/api/console/keys', { name: 'ana-key' })).status, 201);
      ok(onFolder, ['code', 'create', '--value', '0.5', '--count', '3', '--batch', 'moving', '--expires', '2099-01-01']);
      ok(onFolder, ['code', 'disable', '2']);
      ok(onFolder, ['user', 'create', 'boss', '--admin'], 'correct-horse-battery-9\n');
      adminToken = ok(onFolder, ['token', 'create', 'deploy', '--admin-user', 'boss']).trim();
      ok(onFolder, ['token', 'create', 'old', '--admin-user', 'boss']);
      ok(onFolder, ['token', 'revoke', 'old']);
      ok(onFolder, ['settings', 'set', 'sign_up', 'invitation']);
      ok(onFolder, ['settings', 'set', 'new_user_balance', '0.25']);
      const invited = await call(local.gw, 'POST', '/api/console/admin/invitations', { key: adminToken, body: { count: 2, batch: 'moving' } });
      assert.equal(invited.status, 201, invited.text);
      invitation = invited.json.codes[0].code;
      const answers = [];
      for (let i = 0; i < 12; i++) answers.push(await call(local.gw, 'POST', '/v1/chat/completions', { key: i % 3 === 0 ? expiring : key, body: chatBody('gpt-x', `question ${i}`) }));
      assert.deepEqual(answers.map((a) => a.status), Array(12).fill(200), answers.map((a) => a.text).join('\n'));
      assert.equal((await call(local.gw, 'GET', '/v1/models', { key: 'sk-not-a-key' })).status, 401);
      // Not while the folder's gateway serves: it would go on charging after the copy.
      const busyUrl = await freshDatabase();
      const busy = cli({ ...base, MODEL_GATEWAY_DATA: tempDir(), MODEL_GATEWAY_SECRET_KEY: randomBytes(32).toString('base64') }, ['migrate', '--from', dir, '--database', busyUrl]);
      assert.equal(busy.status, 2, busy.stderr);
      assert.match(busy.stderr, new RegExp(`another Model Gateway \\(pid ${local.child.pid}, at .*\\) is serving .*: stop it before migrating`));
      assert.equal(await tablesIn(busyUrl), 0, 'nothing was written to the database');
      local.child.kill('SIGTERM');
      assert.equal(await local.exited, 0, local.output());
    } finally {
      local.child.kill('SIGKILL');
    }
    const before = accountShow(ok(onFolder, ['account', 'show', 'team']));
    assert.ok(before.spent > 0 && before.balance + before.spent === 1_000_000, `the folder's account: ${JSON.stringify(before)}`);
    const folderLogs = ok(onFolder, ['logs', '--json', '--limit', '1000']);
    const folderKeys = ok(onFolder, ['key', 'list']);
    const folderModels = ok(onFolder, ['model', 'list']);
    const folderCodes = ok(onFolder, ['code', 'list']);
    const folderTokens = ok(onFolder, ['token', 'list']);
    const folderSettings = ok(onFolder, ['settings', 'show']);
    const folderRows = sqliteRows(dir);
    assert.ok(folderRows['request_logs']!.length >= 13, 'the folder logged its traffic');

    const url = await freshDatabase();
    const secret = randomBytes(32).toString('base64');
    const onDatabase: NodeJS.ProcessEnv = { ...base, MODEL_GATEWAY_DATA: tempDir(), MODEL_GATEWAY_SECRET_KEY: secret };

    // No MODEL_GATEWAY_SECRET_KEY: refused before anything is written (not even the schema).
    const noKey = cli(base, ['migrate', '--from', dir, '--database', url]);
    assert.equal(noKey.status, 1, noKey.stderr);
    assert.match(noKey.stderr, /MODEL_GATEWAY_SECRET_KEY is not set/);
    assert.equal(await tablesIn(url), 0, 'nothing was written to the database');

    const migrated = cli({ ...onDatabase, MODEL_GATEWAY_DATABASE_URL: url }, ['migrate', '--from', dir]);
    assert.equal(migrated.status, 0, migrated.stderr);
    // The bootstrap's account "local", key "default", channel "echo" and models are copied with the test's own.
    const n = (t: string): number => folderRows[t]!.length;
    assert.match(migrated.stdout, new RegExp(`  ${n('accounts')} accounts \\(balances \\$[\\d.]+, spent \\$[\\d.]+ in all\\), ${n('users')} users, ${n('api_keys')} keys, 2 channels .*, ${n('models')} models, ${n('request_logs')} request logs, 5 redemption and invitation codes, 2 admin access tokens, ${n('audit_log')} audit log rows, 2 settings`));
    assert.deepEqual([n('accounts'), n('users'), n('api_keys'), n('models'), n('redemption_codes'), n('admin_tokens'), n('gateway_settings')], [3, 2, 5, 6, 5, 2, 2]);
    assert.equal((folderRows['models'] as ModelRecord[]).find((m) => m.name === 'gpt-x')!.maxOutputTokens, 16_384, 'the maximum output goes across with the model');
    assert.equal((folderRows['models'] as ModelRecord[]).find((m) => m.name === 'echo')!.imageInput, true, "echo's image input goes across with it (compared below)");
    const creators = new Map((folderRows['api_keys'] as KeyRecord[]).map((k) => [k.name, k.userId]));
    assert.deepEqual([creators.get('ana-key'), creators.get('team-key')], [(folderRows['users'] as UserRecord[]).find((u) => u.name === 'ana')!.id, null], "ana's key is hers, the CLI's nobody's");
    const actions = folderRows['audit_log']!.map((r) => (r as { action: string }).action);
    for (const action of ['user.create', 'code.create', 'code.disable', 'token.create', 'token.revoke', 'settings.change', 'invitation.create']) assert.ok(actions.includes(action), `the CLI's ${action} is in the copied audit log`);
    assert.ok(!(migrated.stdout + migrated.stderr).includes(TEST_DATABASE_PASSWORD), 'the database password is never printed');

    // Every row of every copied table, ids included, read back through the stores' mappers: the same.
    assert.deepEqual(await postgresRows(url), folderRows);
    const onPg = { ...onDatabase, MODEL_GATEWAY_DATABASE_URL: url };
    assert.equal(ok(onPg, ['logs', '--json', '--limit', '1000']), folderLogs);
    assert.equal(ok(onPg, ['key', 'list']), folderKeys);
    assert.equal(ok(onPg, ['model', 'list']), folderModels);
    assert.equal(ok(onPg, ['code', 'list']), folderCodes);
    assert.equal(ok(onPg, ['token', 'list']), folderTokens);
    assert.equal(ok(onPg, ['settings', 'show']), folderSettings);
    assert.deepEqual(accountShow(ok(onPg, ['account', 'show', 'team'])), before);

    // A second migrate into the now non-empty database: refused, and nothing changes.
    const again = cli(onPg, ['migrate', '--from', dir]);
    assert.equal(again.status, 1, again.stderr);
    assert.match(again.stderr, /is not empty/);
    assert.ok(!again.stderr.includes(TEST_DATABASE_PASSWORD));
    assert.deepEqual(await postgresRows(url), folderRows);

    // serve --database on the copy: the same keys answer (the channel key opened under the new secret),
    // the disabled key stays refused, and the money adds up across the folder's traffic and the new.
    const served = await serveProcess(['--database', url], onDatabase);
    try {
      const upstreamBefore = upstream.requests.length;
      const answers = [];
      for (const k of [key, key, expiring]) answers.push(await call(served.gw, 'POST', '/v1/chat/completions', { key: k, body: chatBody('gpt-x', 'after the move') }));
      assert.deepEqual(answers.map((a) => a.status), [200, 200, 200], answers.map((a) => a.text).join('\n'));
      assert.equal(upstream.requests.length, upstreamBefore + 3);
      assert.equal(upstream.requests.at(-1)!.headers.authorization, 'Bearer sk-upstream-secret-1', 'the channel key, sealed again, opens');
      assert.equal(upstream.requests.at(-1)!.path, '/v1/chat/completions?key=upstream-query-secret-2', 'and so does its base URL');
      const stored = JSON.stringify(await channelColumns(url));
      assert.ok(!stored.includes('upstream-query-secret-2') && !stored.includes('sk-upstream-secret-1'), stored);
      assertError(await call(served.gw, 'POST', '/v1/chat/completions', { key: disabled, body: chatBody('gpt-x') }), 403, 'key_disabled');
      // The admin access token made on the folder manages the gateway on the database: its hash went across.
      const users = await call(served.gw, 'GET', '/api/console/admin/users', { key: adminToken });
      assert.equal(users.status, 200, users.text);
      assert.deepEqual(users.json.data.map((u: { name: string }) => u.name), ['ana', 'boss']);
      // The settings and the invitations went across: a sign-up with one is served, with the balance the setting gives.
      const signedUp = await call(served.gw, 'POST', '/api/console/signup', { headers: { origin: served.gw.url }, body: { name: 'newbie', password: 'correct-horse-battery-9', invitation_code: invitation } });
      assert.equal(signedUp.status, 201, signedUp.text);
      assert.match(ok(onPg, ['account', 'show', 'newbie']), /balance \$0\.25,/);
      served.child.kill('SIGTERM');
      assert.equal(await served.exited, 0, served.output());
    } finally {
      served.child.kill('SIGKILL');
    }
    const after = accountShow(ok(onPg, ['account', 'show', 'team']));
    const logs = ok(onPg, ['logs', '--json', '--limit', '1000']).trim().split('\n').map((l) => JSON.parse(l) as { id: number; accountName: string | null; cost: number });
    const charged = logs.filter((l) => l.accountName === 'team').reduce((sum, l) => sum + l.cost, 0);
    assert.equal(logs.length, folderRows['request_logs']!.length + 4, 'the new logs (three served, one refused) land after the copied ones');
    assert.ok(logs.every((l, i) => i === 0 || l.id > logs[i - 1]!.id), 'new log ids follow the copied ones');
    assert.ok(after.spent > before.spent);
    assert.equal(after.spent, charged, 'spent equals every logged charge, the folder\'s and the new, to the micro-USD');
    assert.equal(1_000_000 - after.balance, charged, 'the balance fell by exactly the logged charges');
  });

  it('copies a log row whose model holds a NUL (SQLite keeps one; PostgreSQL text cannot) with U+FFFD in its place', async () => {
    const dir = tempDir();
    const store = openStore({ dataDir: dir });
    try {
      const account = await store.createAccount('team', 1_000);
      await store.write({ logs: [{ time: Date.now(), requestId: 'r-nul', method: 'POST', path: '/v1/chat/completions', accountId: account.id, keyId: null, keyName: null,
        model: 'a\u0000b', channel: 'c', status: 404, errorCode: 'model_not_found', promptTokens: 0, completionTokens: 0, usageEstimated: false, cost: 0,
        latencyMs: 1, firstByteMs: null, stream: false }], keysUsed: new Map() });
    } finally {
      await store.close();
    }
    const url = await freshDatabase();
    const migrated = cli({ ...process.env, MODEL_GATEWAY_DATA: tempDir(), MODEL_GATEWAY_SECRET_KEY: randomBytes(32).toString('base64') }, ['migrate', '--from', dir, '--database', url]);
    assert.equal(migrated.status, 0, migrated.stderr);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      assert.deepEqual((await client.query<Row>(`SELECT model FROM request_logs WHERE request_id = 'r-nul'`)).rows, [{ model: 'a\uFFFDb' }]);
    } finally {
      await client.end();
    }
  });
});
