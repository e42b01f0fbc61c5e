// `model-gateway token ...` (issue 10), in process through main(argv, io) as the binary runs it, on a
// real SQLite folder beside a running gateway, and on PostgreSQL with --database: `create` prints the
// token alone on standard output, once, and it manages the running gateway at once; `list` never shows
// it; `revoke` stops it at its next request; bad input is a clear error, a non-zero exit and nothing
// made; making and revoking are in the audit log as the command line's (actor cli); no token is in the
// list, the audit log, the database file's bytes or PostgreSQL's rows.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import type { RunningGateway } from '../../../src/gateway/server.ts';
import { openAnyStore, openStore } from '../../../src/gateway/store/index.ts';
import { assertError } from '../../support/answer.ts';
import { freshDatabase } from '../../support/postgres.ts';
import { makeUser } from './consoleAgent.ts';
import { call } from './helpers.ts';
import { besideGateway, runCli } from './serveProcess.ts';

const TOKEN = /^mgt-[A-Za-z0-9_-]{43}$/;

/** The CLI in process, as the binary runs it. */
const run = (env: NodeJS.ProcessEnv, args: string[]) => runCli(args, env);

describe('model-gateway token', () => {
  describe('on a SQLite folder, beside a running gateway', () => {
    let dir: string;
    let gw: RunningGateway;
    const made: string[] = [];
    const cli = (...args: string[]) => run({}, ['--data', dir, ...args]);
    besideGateway(async (d, g) => {
      dir = d;
      gw = g;
      const store = openStore({ dataDir: dir });
      try {
        await makeUser(store, 'root', 0, true);
        await makeUser(store, 'ada', 0);
      } finally {
        await store.close();
      }
    });

    it('create prints the token alone on standard output; it manages the running gateway at once, as its admin', async () => {
      const r = await cli('token', 'create', 'deploy', '--admin-user', 'root', '--expires', '2099-12-31');
      assert.equal(r.code, 0, r.stderr);
      const token = r.stdout.trim();
      assert.match(token, TOKEN);
      assert.equal(r.stdout, `${token}\n`);
      assert.match(r.stderr, /^admin access token "deploy" \(mgt-\S{4}…, id 1\) made, acting as root, expiring 2099-12-31T00:00:00\.000Z\. It is shown this once/);
      made.push(token);
      const users = await call(gw, 'GET', '/api/console/admin/users', { key: token });
      assert.equal(users.status, 200, users.text);
      const topped = await call(gw, 'POST', '/api/console/admin/accounts/topup', { key: token, body: { account: 'ada', amount_usd: 3 } });
      assert.equal(topped.status, 200, topped.text);
    });

    it('list shows id, name, prefix, status and who it acts as, never the token', async () => {
      const listed = await cli('token', 'list');
      assert.equal(listed.code, 0, listed.stderr);
      const [row] = listed.stdout.trim().split('\n').map((l) => l.split('\t'));
      assert.deepEqual(row!.slice(0, 5), ['1', 'deploy', `${made[0]!.slice(0, 8)}…`, 'active', 'acts_as=root']);
      assert.match(row![8]!, /^last_used=\d{4}-/, 'its use over HTTP is recorded');
      assert.ok(!listed.stdout.includes(made[0]!.slice(8)));
    });

    it('refuses bad input with a clear error and a non-zero exit, making nothing', async () => {
      const before = (await cli('token', 'list')).stdout;
      for (const [args, status, words] of [
        [['token', 'create', 'x'], 2, /--admin-user is required/],
        [['token', 'create', '--admin-user', 'root'], 2, /token create takes one NAME/],
        [['token', 'create', 'bad name', '--admin-user', 'root'], 2, /token NAME must be 1 to 64 letters/],
        [['token', 'create', 'x', '--admin-user', 'root', '--expires', '2001-01-01'], 2, /--expires is in the past/],
        [['token', 'create', 'x', '--admin-user', 'nobody'], 1, /no user named "nobody"/],
        [['token', 'create', 'x', '--admin-user', 'ada'], 1, /"ada" is not an enabled admin/],
        [['token', 'create', 'deploy', '--admin-user', 'root'], 1, /named "deploy" exists already/],
        [['token', 'create', 'x', '--admin-user', 'root', '--value', '1'], 2, /token create does not take --value/],
        [['token', 'revoke'], 2, /token revoke takes one NAME/],
        [['token', 'revoke', 'nothing'], 1, /no admin access token named "nothing" that is not revoked/],
        [['token', 'rotate', 'deploy'], 2, /unknown command: token rotate/],
      ] as const) {
        const r = await cli(...args);
        assert.equal(r.code, status, `${args.join(' ')}: ${r.stderr}`);
        assert.match(r.stderr, words, args.join(' '));
        assert.equal(r.stdout, '', `${args.join(' ')} printed nothing`);
      }
      assert.equal((await cli('token', 'list')).stdout, before, 'nothing made or changed');
    });

    it('revoke stops the token at its next request; the name is free again; both are in the audit log as cli', async () => {
      const token = made[0]!;
      assert.equal((await cli('token', 'revoke', 'deploy')).stdout, `admin access token "deploy" (${token.slice(0, 8)}…) revoked: refused from its next request on\n`);
      assertError(await call(gw, 'GET', '/api/console/admin/users', { key: token }), 403, 'admin_token_revoked');
      assert.equal((await cli('token', 'revoke', 'deploy')).code, 1, 'nothing left to revoke under that name');
      const again = await cli('token', 'create', 'deploy', '--admin-user', 'root');
      assert.equal(again.code, 0, again.stderr);
      made.push(again.stdout.trim());
      const rows = (await cli('token', 'list')).stdout.trim().split('\n').map((l) => l.split('\t').slice(0, 4));
      assert.deepEqual(rows.map((r) => [r[0], r[1], r[3]]), [['1', 'deploy', 'revoked'], ['2', 'deploy', 'active']]);
      const store = openStore({ dataDir: dir });
      try {
        const audit = await store.listAudit({ limit: 100 });
        assert.deepEqual(audit.filter((r) => r.action.startsWith('token.')).map((r) => [r.actor, r.action, r.target, r.viaToken]), [
          ['cli', 'token.create', 'deploy', null], ['cli', 'token.revoke', 'deploy', null], ['cli', 'token.create', 'deploy', null],
        ]);
        assert.deepEqual(audit.find((r) => r.action === 'account.topup')!.viaToken, 'deploy', 'the top-up made with the token names it');
        const bytes = ['gateway.db', 'gateway.db-wal'].map((f) => join(dir, f)).filter((f) => existsSync(f)).map((f) => readFileSync(f).toString('latin1'));
        for (const token of made) {
          assert.ok(!JSON.stringify(audit).includes(token.slice(4)));
          assert.ok(!bytes.some((b) => b.includes(token.slice(4))), 'no token in the database file');
        }
      } finally {
        await store.close();
      }
    });
  });

  it('works on PostgreSQL with --database URL, keeping only the hash there too', async () => {
    const url = await freshDatabase();
    const env = { MODEL_GATEWAY_SECRET_KEY: randomBytes(32).toString('base64') };
    const pgStore = await openAnyStore({ databaseUrl: url, env });
    try {
      await makeUser(pgStore, 'root', 0, true);
    } finally {
      await pgStore.close();
    }
    const made = await run(env, ['token', 'create', 'pg-script', '--admin-user', 'root', '--database', url]);
    assert.equal(made.code, 0, made.stderr);
    const token = made.stdout.trim();
    assert.match(token, TOKEN);
    assert.equal((await run(env, ['token', 'revoke', 'pg-script', '--database', url])).code, 0);
    const listed = await run(env, ['token', 'list', '--database', url]);
    assert.deepEqual(listed.stdout.trim().split('\t').slice(1, 4), ['pg-script', `${token.slice(0, 8)}…`, 'revoked']);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const rows = JSON.stringify((await client.query('SELECT * FROM admin_tokens')).rows) + JSON.stringify((await client.query('SELECT * FROM audit_log')).rows);
      assert.ok(!rows.includes(token.slice(4)), 'no token in the database');
      assert.deepEqual((await client.query('SELECT actor, action, target FROM audit_log ORDER BY id')).rows.slice(-2), [
        { actor: 'cli', action: 'token.create', target: 'pg-script' }, { actor: 'cli', action: 'token.revoke', target: 'pg-script' },
      ]);
    } finally {
      await client.end();
    }
  });
});
