// The SQLite store: no plain-text keys on disk, logs survive a restart, changes by another process
// (the CLI on the same data folder) take effect on the server's next request, migrations run once.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createKey, keyNamed } from '../../../src/gateway/admin.ts';
import { startGateway } from '../../../src/gateway/server.ts';
import { openStore } from '../../../src/gateway/store/index.ts';
import { MIGRATIONS } from '../../../src/gateway/store/migrations.ts';
import { main } from '../../../src/gateway/cli.ts';
import { call, chatBody, startTestGateway, tempDir } from './helpers.ts';
import { assertError } from '../../support/answer.ts';
import { addChannelPricedFree, newChannel } from '../../support/channels.ts';

/** A data folder's database written by an older version: the migrations up to `version`, an account `team` ($7 micro-USD) with user `ada`, and `extra` SQL. */
function folderAtSchema(dir: string, version: number, ...extra: string[]): void {
  const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
  const db = new DatabaseSync(join(dir, 'gateway.db'));
  db.exec('CREATE TABLE schema_version (version INTEGER NOT NULL)');
  for (const m of MIGRATIONS.filter((m) => m.version <= version)) {
    db.exec(m.sql);
    db.prepare('INSERT INTO schema_version (version) VALUES (?)').run(m.version);
  }
  db.exec("INSERT INTO accounts (name, balance, created_at) VALUES ('team', 7, 1)");
  db.exec("INSERT INTO users (name, account_id, admin, password_hash, created_at) SELECT 'ada', id, 1, 'x', 1 FROM accounts");
  for (const statement of extra) db.exec(statement);
  db.close();
}

describe('gateway store', () => {
  it('never holds a key in plain text, ours or a channel\'s (database and WAL bytes scanned); owner-only files', async () => {
    const t = await startTestGateway({ issueKey: 'editor' });
    try {
      const extra = await createKey(t.admin(), { account: 'local', name: 'scan-me' });
      const channelKey = 'sk-upstream-Channel-Secret-0123456789';
      await addChannelPricedFree(t.admin(), newChannel({ name: 'sealed', baseUrl: 'http://127.0.0.1:9/v1', apiKey: channelKey, models: { sealed: 'sealed' } }));
      assert.equal((await t.admin().listChannels()).find((c) => c.name === 'sealed')!.apiKey, channelKey, 'read back as it was given');
      const secrets = [t.key, t.gw.issuedKey!, extra.secret, channelKey];
      for (const secret of secrets.slice(0, 3)) assert.equal((await call(t.gw, 'GET', '/v1/models', { key: secret })).status, 200);
      const mode = (file: string) => statSync(join(t.dir, file)).mode & 0o777;
      for (const file of ['gateway.db', 'gateway.db-wal', 'secret.key', 'gateway.lock']) assert.equal(mode(file).toString(8), '600', `${file} is the owner's only`);
      assert.equal((statSync(t.dir).mode & 0o077).toString(8), '0', 'the data folder is the owner\'s only');
      const scan = (): void => {
        const files = readdirSync(t.dir).filter((f) => f.startsWith('gateway.db'));
        assert.ok(files.some((f) => f.endsWith('-wal')), 'the WAL file is scanned too');
        for (const file of files) {
          const bytes = readFileSync(join(t.dir, file));
          for (const secret of secrets) {
            assert.equal(bytes.indexOf(secret), -1, `${file} holds a secret`);
            assert.equal(bytes.indexOf(secret.slice(3)), -1, `${file} holds a secret's body`);
          }
        }
      };
      scan();
      await t.gw.stop();
      scan();
    } finally {
      await t.close();
    }
  });

  it('issueKey replaces the named key with a fresh one on every start', async () => {
    const dir = tempDir();
    try {
      const first = await startGateway({ dataDir: dir, port: 0, issueKey: 'vscode' });
      const old = first.issuedKey!;
      assert.match(old, /^sk-[A-Za-z0-9_-]{32,}$/);
      assert.equal((await call(first, 'POST', '/v1/chat/completions', { key: old, body: chatBody() })).status, 200);
      await first.stop();
      const second = await startGateway({ dataDir: dir, port: 0, issueKey: 'vscode' });
      try {
        assert.notEqual(second.issuedKey, old);
        assertError(await call(second, 'GET', '/v1/models', { key: old }), 401, 'invalid_api_key');
        assert.equal((await call(second, 'GET', '/v1/models', { key: second.issuedKey! })).status, 200);
        assert.equal(second.bootstrapKey, undefined);
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('logs and balances survive a restart', async () => {
    const dir = tempDir();
    try {
      const first = await startGateway({ dataDir: dir, port: 0, bootstrap: true });
      const key = first.bootstrapKey!;
      const ids: string[] = [];
      for (let i = 0; i < 10; i++) ids.push((await call(first, 'POST', '/v1/chat/completions', { key, body: chatBody('echo', `hi ${i}`) })).headers.get('x-request-id')!);
      ids.push((await call(first, 'GET', '/nowhere')).headers.get('x-request-id')!);
      ids.push((await call(first, 'GET', '/v1/models')).headers.get('x-request-id')!);
      const balance = (await call(first, 'GET', '/v1/dashboard/billing/subscription', { key })).json.balance_usd;
      await first.stop();

      const second = await startGateway({ dataDir: dir, port: 0, bootstrap: true });
      try {
        assert.equal(second.bootstrapKey, undefined, 'no second bootstrap');
        assert.equal((await call(second, 'GET', '/v1/dashboard/billing/subscription', { key })).json.balance_usd, balance);
      } finally {
        await second.stop();
      }
      const store = openStore({ dataDir: dir });
      try {
        const logs = await store.listLogs(1000);
        for (const id of ids) assert.ok(logs.some((l) => l.requestId === id), `log ${id} kept`);
        const unauth = logs.find((l) => l.requestId === ids[11])!;
        assert.equal(unauth.status, 401);
        assert.equal(unauth.errorCode, 'missing_api_key');
        assert.equal(unauth.keyName, null);
        const chat = logs.find((l) => l.requestId === ids[0])!;
        assert.equal(chat.keyName, 'default');
        assert.equal(chat.accountName, 'local');
        assert.equal(chat.model, 'echo');
        assert.equal(chat.channel, 'echo');
        assert.equal(chat.status, 200);
        assert.ok(chat.promptTokens > 0 && chat.completionTokens > 0 && chat.cost > 0);
        const keys = await store.listKeys();
        assert.ok(keys.find((k) => k.name === 'default')!.lastUsedAt! > 0, 'last use recorded');
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a change made through another connection takes effect on the next request', async () => {
    const t = await startTestGateway();
    try {
      const admin = t.admin();
      await admin.createAccount('changes', 0);
      const { secret } = await createKey(admin, { account: 'changes', name: 'changes-key' });
      assertError(await call(t.gw, 'POST', '/v1/chat/completions', { key: secret, body: chatBody() }), 403, 'insufficient_balance');
      await admin.topUp('changes', 1_000_000);
      assert.equal((await call(t.gw, 'POST', '/v1/chat/completions', { key: secret, body: chatBody() })).status, 200);

      assertError(await call(t.gw, 'POST', '/v1/chat/completions', { key: secret, body: chatBody('echo2') }), 404, 'model_not_found');
      await addChannelPricedFree(admin, newChannel({ name: 'echo-two', type: 'echo', apiKey: null, models: { echo2: 'echo2' } }));
      assert.equal((await call(t.gw, 'POST', '/v1/chat/completions', { key: secret, body: chatBody('echo2') })).status, 200);

      await admin.setKeyStatus((await keyNamed(admin, 'changes-key')).id, 'disabled');
      assertError(await call(t.gw, 'GET', '/v1/models', { key: secret }), 403, 'key_disabled');
      await admin.deleteKey((await keyNamed(admin, 'changes-key')).id);
      assertError(await call(t.gw, 'GET', '/v1/models', { key: secret }), 401, 'invalid_api_key');
    } finally {
      await t.close();
    }
  });

  it('a price written around the CLI that no request could be charged by (negative) is refused by the store itself; the gateway serves on', async () => {
    const t = await startTestGateway();
    try {
      assert.equal((await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: chatBody('echo') })).status, 200);
      const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
      const db = new DatabaseSync(join(t.dir, 'gateway.db'));
      try {
        assert.throws(() => db.exec("UPDATE models SET input_price = -5000000, output_price = -9000000000000 WHERE name = 'echo'"), /must be whole micro-USD from 0/);
      } finally {
        db.close();
      }
      assert.equal((await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: chatBody('echo', 'hi', { max_tokens: 5 }) })).status, 200, 'its price as it was');
    } finally {
      await t.close();
    }
  });

  it('runs each migration once and records the schema version', async () => {
    const dir = tempDir();
    try {
      for (let i = 0; i < 2; i++) {
        const store = openStore({ dataDir: dir });
        await store.close();
      }
      const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
      const db = new DatabaseSync(join(dir, 'gateway.db'));
      const rows = db.prepare('SELECT version FROM schema_version ORDER BY version').all().map((r) => Number(r.version));
      assert.equal((db.prepare('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode, 'wal');
      db.close();
      assert.deepEqual(rows, MIGRATIONS.map((m) => m.version));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("brings a folder at schema 13 to the latest (14 redemption codes, 15 the audit log, 16 keys' own limits), its rows kept", async () => {
    const dir = tempDir();
    try {
      const known = MIGRATIONS.map((m) => m.version);
      assert.deepEqual(known.slice(0, 16), Array.from({ length: 16 }, (_, i) => i + 1), 'contiguous to 16');
      assert.ok(known.every((v, i) => i === 0 || v > known[i - 1]!), `each once, in order: ${known.join(', ')}`);
      assert.ok(known.includes(18), '18: admin access tokens');
      folderAtSchema(dir, 13);
      const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
      const store = openStore({ dataDir: dir });
      try {
        const [ada] = await store.listUsers();
        assert.deepEqual([ada!.name, ada!.lastSignInAt, (await store.getAccount('team'))!.balance], ['ada', null, 7]);
        const [code] = await store.createCodes([{ hash: 'e'.repeat(64), value: 5, batch: null, expiresAt: null, createdBy: ada!.id }], { actor: 'ada', action: 'code.create', target: '(no batch)' });
        assert.equal((await store.redeemCode(code!.hash, { accountId: ada!.accountId, userId: ada!.id }, Date.now()))!.account.balance, 12);
        assert.deepEqual((await store.listAudit({ limit: 10 })).map((r) => r.action), ['code.create']);
      } finally {
        await store.close();
      }
      const check = new DatabaseSync(join(dir, 'gateway.db'));
      const versions = check.prepare('SELECT version FROM schema_version ORDER BY version').all().map((r) => Number(r.version));
      check.close();
      assert.deepEqual(versions, MIGRATIONS.map((m) => m.version));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('brings a folder at schema 15 to admin access tokens (18), its audit rows kept and naming no token', async () => {
    const dir = tempDir();
    try {
      folderAtSchema(dir, 15, "INSERT INTO audit_log (time, actor, action, target, details) VALUES (1, 'cli', 'account.topup', 'team', NULL)");
      const store = openStore({ dataDir: dir });
      try {
        assert.deepEqual((await store.listAudit({ limit: 10 })).map((r) => [r.actor, r.action, r.viaToken]), [['cli', 'account.topup', null]]);
        const [ada] = await store.listUsers();
        const token = await store.adminTokens.create({ name: 'script', hash: 'f'.repeat(64), prefix: 'mgt-ffff…', createdBy: ada!.id, expiresAt: null });
        assert.deepEqual(await store.adminTokens.list(), [token]);
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('channel keys an older version stored in plain text are sealed on open; another secret key cannot open them: read as none, and said', async () => {
    const dir = tempDir();
    try {
      const store = openStore({ dataDir: dir });
      await store.addChannel(newChannel({ name: 'old', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'placeholder' }));
      await store.close();
      const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
      const db = new DatabaseSync(join(dir, 'gateway.db'));
      db.exec("UPDATE channels SET api_key = 'sk-legacy-plain-text-key' WHERE name = 'old'");
      db.close();
      const reopened = openStore({ dataDir: dir });
      assert.equal((await reopened.listChannels())[0]!.apiKey, 'sk-legacy-plain-text-key');
      await reopened.close();
      const raw = new DatabaseSync(join(dir, 'gateway.db'));
      const stored = String((raw.prepare("SELECT api_key FROM channels WHERE name = 'old'").get() as { api_key: string }).api_key);
      raw.close();
      assert.match(stored, /^v1:/);
      assert.ok(!stored.includes('legacy'));
      const otherKey = Buffer.alloc(32, 7).toString('base64');
      const elsewhere = openStore({ dataDir: dir, env: { MODEL_GATEWAY_SECRET_KEY: otherKey } });
      try {
        // Read as none, and said: the store still opens and lists (a folder restored without its secret.key works on).
        const [old] = await elsewhere.listChannels();
        assert.deepEqual([old!.apiKey, old!.unreadable], [null, ['the key']]);
      } finally {
        await elsewhere.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a channel URL holding a secret (a password, a query value) is sealed at rest, written, edited or left plain by an older version; one without stays readable', async () => {
    const dir = tempDir();
    try {
      const store = openStore({ dataDir: dir });
      await store.addChannel(newChannel({ name: 'gem', baseUrl: 'https://up.example/v1?key=AIza-query-secret-1', apiKey: null, proxy: 'http://user:proxy-pass-2@proxy.example:3128' }));
      await store.addChannel(newChannel({ name: 'plain', baseUrl: 'https://up.example/v1?v=1', apiKey: null }));
      await store.updateChannel('plain', { proxy: 'http://ops:proxy-pass-3@proxy.example:3128' });
      await store.close();
      const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
      const raw = () => {
        const db = new DatabaseSync(join(dir, 'gateway.db'));
        try {
          return db.prepare('SELECT name, base_url, proxy FROM channels ORDER BY id').all() as { name: string; base_url: string; proxy: string | null }[];
        } finally {
          db.close();
        }
      };
      const rows = raw();
      assert.ok(!JSON.stringify(rows).includes('secret-1') && !JSON.stringify(rows).includes('pass-2') && !JSON.stringify(rows).includes('pass-3'), JSON.stringify(rows));
      assert.match(rows[0]!.base_url, /^v1:/);
      assert.equal(rows[1]!.base_url, 'https://up.example/v1?v=1', 'a short query value is no secret: left readable');
      // As an older version stored it: plain, then sealed on the next open.
      const db = new DatabaseSync(join(dir, 'gateway.db'));
      db.exec("UPDATE channels SET base_url = 'https://up.example/v1?api-key=legacy-secret-4' WHERE name = 'plain'");
      db.close();
      const reopened = openStore({ dataDir: dir });
      try {
        const channels = await reopened.listChannels();
        assert.deepEqual(channels.map((c) => [c.baseUrl, c.proxy]), [
          ['https://up.example/v1?key=AIza-query-secret-1', 'http://user:proxy-pass-2@proxy.example:3128'],
          ['https://up.example/v1?api-key=legacy-secret-4', 'http://ops:proxy-pass-3@proxy.example:3128'],
        ]);
      } finally {
        await reopened.close();
      }
      assert.ok(!JSON.stringify(raw()).includes('legacy-secret-4'), 'sealed on open');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('integrity: what cannot be read is refused by name, never silently replaced', () => {
    let dir: string;
    beforeEach(() => (dir = tempDir()));
    afterEach(() => rmSync(dir, { recursive: true, force: true }));
    const sql = (statement: string): void => {
      const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
      const db = new DatabaseSync(join(dir, 'gateway.db'));
      db.exec(statement);
      db.close();
    };
    const cliRun = async (...args: string[]) => {
      let out = '';
      let err = '';
      const code = await main(['--data', dir, ...args], { out: (l) => void (out += `${l}\n`), err: (l) => void (err += `${l}\n`) }, {});
      return { code, out, err };
    };

    it('a store written by a newer version: refused with what to do, and left as it was', async () => {
      await openStore({ dataDir: dir }).close();
      sql('INSERT INTO schema_version (version) VALUES (999)');
      assert.throws(() => openStore({ dataDir: dir }), /written by a newer Model Gateway \(schema 999; this version knows up to \d+\)/);
      const run = await cliRun('account', 'show', 'local');
      assert.equal(run.code, 1);
      assert.match(run.err, /newer Model Gateway/);
      await assert.rejects(startGateway({ dataDir: dir, port: 0 }), /newer Model Gateway/);
    });

    it('a zero-length database file is an error, not a new install', async () => {
      writeFileSync(join(dir, 'gateway.db'), '');
      assert.throws(() => openStore({ dataDir: dir }), /is empty \(0 bytes\).*Restore it from a backup/);
      assert.equal(statSync(join(dir, 'gateway.db')).size, 0, 'nothing was written over it');
    });

    it('a damaged database file is named, with what to do, not only in SQLite\'s words', async () => {
      const store = openStore({ dataDir: dir });
      await store.close();
      const file = join(dir, 'gateway.db');
      const bytes = readFileSync(file);
      bytes.write('this is not the header of a database', 0);
      writeFileSync(file, bytes);
      for (const name of ['gateway.db-wal', 'gateway.db-shm']) rmSync(join(dir, name), { force: true });
      const run = await cliRun('account', 'show', 'local');
      assert.equal(run.code, 1);
      assert.match(run.err, /gateway\.db is damaged \(SQLite: file is not a database\)\. Restore it from a backup \(model-gateway backup makes one\), or move it away/);
    });

    it('a row with unreadable JSON is named, with how to repair it', async () => {
      const store = openStore({ dataDir: dir });
      const channel = await store.addChannel(newChannel({ name: 'damaged', baseUrl: 'http://127.0.0.1:9/v1' }));
      await store.close();
      sql(`UPDATE channels SET models = '{"m": ' WHERE id = ${channel.id}`);
      const run = await cliRun('channel', 'list');
      assert.equal(run.code, 1);
      assert.match(run.err, new RegExp(`channels row where id = ${channel.id} \\("damaged"\\) has an unreadable models: .*UPDATE channels SET models`));
    });

    it('backup: a consistent copy while the gateway serves, that opens as the same gateway; never over an existing file', async () => {
      const t = await startTestGateway();
      try {
        for (let i = 0; i < 5; i++) assert.equal((await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: chatBody() })).status, 200);
        const target = join(dir, 'copy.db');
        let out = '';
        const code = await main(['--data', t.dir, 'backup', target], { out: (l) => void (out += l), err: () => undefined }, {});
        assert.equal(code, 0);
        assert.match(out, /To restore: stop the gateway, copy/);
        assert.match(out, /sealed with .*secret\.key: keep a copy of that file/);
        assert.equal((statSync(target).mode & 0o777).toString(8), '600', 'the copy holds hashes and sealed keys: the owner\'s only');
        let said = '';
        assert.equal(await main(['--data', t.dir, 'backup', join(dir, 'no-such-folder', 'x.db')], { out: () => undefined, err: (l) => void (said += l) }, {}), 1);
        assert.match(said, /no-such-folder does not exist: create the folder first/);
        const live = t.admin();
        const copyDir = join(dir, 'restored');
        mkdirSync(copyDir);
        copyFileSync(target, join(copyDir, 'gateway.db'));
        const copy = openStore({ dataDir: copyDir });
        try {
          const logged = (await copy.listLogs(100)).length;
          assert.ok(logged <= (await live.listLogs(100)).length && logged >= 0);
          assert.deepEqual((await copy.listKeys()).map((k) => k.hash), (await live.listKeys()).map((k) => k.hash));
          const account = (await copy.getAccount('local'))!;
          const spent = (await copy.listLogs(100)).reduce((sum, l) => sum + l.cost, 0);
          assert.equal(account.totalSpent, spent, 'the copy is consistent: its logs add up to its balance');
        } finally {
          await copy.close();
        }
        assert.equal(await main(['--data', t.dir, 'backup', target], { out: () => undefined, err: () => undefined }, {}), 1, 'an existing file is never overwritten');
      } finally {
        await t.close();
      }
    });
  });

  it('runs in memory when asked, with the same behaviour', async () => {
    const gw = await startGateway({ inMemory: true, port: 0, bootstrap: true });
    try {
      assert.equal(gw.storeKind, 'memory');
      assert.equal((await call(gw, 'POST', '/v1/chat/completions', { key: gw.bootstrapKey!, body: chatBody() })).status, 200);
      assertError(await call(gw, 'GET', '/v1/models', { key: 'sk-nope' }), 401, 'invalid_api_key');
    } finally {
      await gw.stop();
    }
  });
});
