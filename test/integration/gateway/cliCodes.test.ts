// `model-gateway code ...` and `model-gateway invitation ...` (issue 10), in process through main(argv, io) as the binary runs it, on a
// real SQLite folder beside a running gateway, and on PostgreSQL with --database: codes printed once
// (one per line, alone on standard output), listed without them, disabled by id or batch; bad input is
// a clear error, a non-zero exit and nothing made; a code redeemed over HTTP is listed as used, by whom;
// making and disabling are in the audit log as the command line's (actor cli), a refusal is not; and no
// code is ever found in `code list`, `logs`, the audit log, the database file's bytes or PostgreSQL's rows.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { newRedemptionCode } from '../../../src/gateway/accounts/codes.ts';
import { besideGateway, runCli, type CliRun } from './serveProcess.ts';
import type { RunningGateway } from '../../../src/gateway/server.ts';
import { openStore } from '../../../src/gateway/store/index.ts';
import { assertError } from '../../support/answer.ts';
import { poll } from '../../support/poll.ts';
import { freshDatabase } from '../../support/postgres.ts';
import { consoleAgent, makeUser } from './consoleAgent.ts';

const CODE = /^MGC(-[0-9A-HJKMNP-TV-Z]{4}){5}$/;
const INVITATION = /^MGI(-[0-9A-HJKMNP-TV-Z]{4}){5}$/;

const run = (env: NodeJS.ProcessEnv, args: string[]): Promise<CliRun> => runCli(args, env);

const lines = (text: string) => text.split('\n').filter(Boolean);

describe('model-gateway code', () => {
  describe('on a SQLite folder, beside a running gateway', () => {
    let dir: string;
    let gw: RunningGateway;
    const cli = (...args: string[]) => run({}, ['--data', dir, ...args]);
    besideGateway((d, g) => {
      dir = d;
      gw = g;
    });

    it('create prints the codes alone on standard output, one per line, and what was made on standard error', async () => {
      const made = await cli('code', 'create', '--value', '5', '--count', '3', '--batch', 'spring', '--expires', '2099-12-31');
      assert.equal(made.code, 0, made.stderr);
      const codes = lines(made.stdout);
      assert.equal(codes.length, 3);
      for (const c of codes) assert.match(c, CODE);
      assert.match(made.stderr, /^3 codes of \$5\.00 made in batch "spring", ids 1\.\.3, expiring 2099-12-31T00:00:00\.000Z\. They are shown this once: store them now\.\n$/);
      const one = await cli('code', 'create', '--value', '0.25');
      assert.equal(one.code, 0, one.stderr);
      assert.equal(lines(one.stdout).length, 1, 'one code by default');
      assert.match(one.stderr, /1 code of \$0\.25 made, ids 4\.\.4, never expiring/);
    });

    it('list shows id, batch, value, status and dates, never a code; filters by batch and status', async () => {
      const all = await cli('code', 'list');
      assert.equal(all.code, 0, all.stderr);
      const rows = lines(all.stdout).map((l) => l.split('\t'));
      assert.deepEqual(rows.map((r) => r.slice(0, 4)), [['4', '-', '$0.25', 'unused'], ['3', 'spring', '$5.00', 'unused'], ['2', 'spring', '$5.00', 'unused'], ['1', 'spring', '$5.00', 'unused']]);
      assert.deepEqual(rows[1]!.slice(4), ['redeemed_by=-', rows[1]![5]!, 'created_by=cli', 'redeemed=-', 'expires=2099-12-31T00:00:00.000Z']);
      assert.match(rows[1]![5]!, /^created=\d{4}-\d\d-\d\dT/);
      assert.equal(lines((await cli('code', 'list', '--batch', 'spring')).stdout).length, 3);
      assert.equal(lines((await cli('code', 'list', '--status', 'used')).stdout).length, 0);
      assert.equal(lines((await cli('code', 'list', '--limit', '2')).stdout).length, 2);
    });

    it('refuses bad input with a clear error and exit status 2, making nothing', async () => {
      const before = (await cli('code', 'list')).stdout;
      for (const [args, words] of [
        [['code', 'create'], /--value \(USD\) is required/],
        [['code', 'create', '--value', '0'], /more than \$0/],
        [['code', 'create', '--value=-1'], /not an amount in USD/],
        [['code', 'create', '--value', '1.0000001'], /more than 6 decimals/],
        [['code', 'create', '--value', 'abc'], /not an amount in USD/],
        [['code', 'create', '--value', '1000000001'], /more than the most allowed/],
        [['code', 'create', '--value', '1', '--count', '0'], /--count must be a whole number from 1 to 1000/],
        [['code', 'create', '--value', '1', '--count', '1001'], /--count must be a whole number from 1 to 1000/],
        [['code', 'create', '--value', '1', '--count', 'x'], /--count must be a whole number/],
        [['code', 'create', '--value', '1', '--batch', 'bad name'], /--batch must be 1 to 64 letters/],
        [['code', 'create', '--value', '1', '--expires', '2001-01-01'], /--expires is in the past/],
        [['code', 'create', '--value', '1', '--expires', 'tomorrow'], /--expires must be an ISO-8601 date/],
        [['code', 'create', '--value', '1', '--rpm', '5'], /code create does not take --rpm/],
        [['code', 'create', 'MGC-0000-0000-0000-0000-0000', '--value', '1'], /code create takes no arguments/],
        [['code', 'list', '--status', 'lost'], /--status must be one of unused, used, expired, disabled/],
        [['code', 'disable'], /code disable takes one code ID, or --batch NAME/],
        [['code', 'disable', '1', '--batch', 'spring'], /code disable takes one code ID, or --batch NAME/],
        [['code', 'disable', 'x'], /code ID must be a whole number/],
        [['code', 'redeem', 'x'], /unknown command: code redeem/],
      ] as const) {
        const r = await cli(...args);
        assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
        assert.match(r.stderr, words, args.join(' '));
        assert.equal(r.stdout, '', `${args.join(' ')} printed nothing`);
      }
      assert.equal((await cli('code', 'list')).stdout, before, 'nothing made or changed');
    });

    it('disable stops unused codes by id or batch (exit 1 for none), and a code redeemed over HTTP is listed as used, by whom', async () => {
      const made = lines((await cli('code', 'create', '--value', '2', '--count', '2', '--batch', 'summer')).stdout);
      const store = openStore({ dataDir: dir });
      try {
        await makeUser(store, 'ada', 0);
      } finally {
        await store.close();
      }
      const ada = consoleAgent(gw);
      assert.equal((await ada.signIn('ada')).status, 200);
      const redeemed = await ada.post('/api/console/account/redeem', { code: made[0] });
      assert.equal(redeemed.status, 200, redeemed.text);
      assert.equal(redeemed.json.balance.micro_usd, 2_000_000);

      assert.equal((await cli('code', 'disable', '--batch', 'summer')).stdout, '1 code disabled in batch "summer"\n');
      assert.equal((await cli('code', 'disable', '1')).stdout, '1 code disabled (id 1)\n');
      assert.equal((await cli('code', 'disable', '1')).stdout, '0 codes disabled (id 1): already used or disabled\n');
      const missing = await cli('code', 'disable', '999');
      assert.deepEqual([missing.code, missing.stderr], [1, 'model-gateway: no redemption code with id 999\n']);
      assert.equal((await cli('code', 'disable', '--batch', 'winter')).code, 1);
      assertError(await ada.post('/api/console/account/redeem', { code: made[1] }), 400, 'redemption_code_invalid');

      const summer = lines((await cli('code', 'list', '--batch', 'summer')).stdout).map((l) => l.split('\t'));
      assert.deepEqual(summer.map((r) => [r[3], r[4]]), [['disabled', 'redeemed_by=-'], ['used', 'redeemed_by=ada/ada']]);
      assert.match(summer[1]![7]!, /^redeemed=\d{4}-/);
      assert.equal(lines((await cli('code', 'list', '--status', 'disabled')).stdout).length, 2);
      const shown = await cli('account', 'show', 'ada');
      assert.match(shown.stdout, /balance \$2\.00/);

      const audit = openStore({ dataDir: dir });
      try {
        const rows = (await audit.listAudit({ limit: 1000 })).filter((r) => r.action.startsWith('code.'));
        assert.ok(rows.every((r) => r.actor === 'cli'), 'the command line acts as cli');
        assert.deepEqual(rows.slice(0, 4).map((r) => [r.action, r.target, r.details]), [
          ['code.disable', 'code 1', { id: 1 }], ['code.disable', 'code 1', { id: 1 }], ['code.disable', 'summer', { batch: 'summer' }],
          ['code.create', 'summer', { batch: 'summer', count: 2, value_micro_usd: 2_000_000, value: '$2.00', expires_at: null }],
        ], 'newest first; the refused disables (no such id or batch) are not recorded');
        assert.deepEqual(rows.filter((r) => r.action === 'code.create').map((r) => r.target), ['summer', '(no batch)', 'spring'], 'a refused create is not recorded');
      } finally {
        await audit.close();
      }
    });

    it('invitation create|list|disable: codes printed once; a sign-up over HTTP with one is listed as used, by whom; audited as cli', async () => {
      assert.equal((await cli('settings', 'set', 'sign_up', 'invitation')).code, 0);
      const made = await cli('invitation', 'create', '--count', '2', '--batch', 'team');
      assert.equal(made.code, 0, made.stderr);
      const codes = lines(made.stdout);
      assert.equal(codes.length, 2);
      for (const c of codes) assert.match(c, INVITATION);
      assert.match(made.stderr, /^2 invitations made in batch "team", ids \d+\.\.\d+, never expiring\. They are shown this once: store them now\.\n$/);
      const refusedValue = await cli('invitation', 'create', '--value', '5');
      assert.deepEqual([refusedValue.code, refusedValue.stdout], [2, ''], 'an invitation carries no money');
      assert.match(refusedValue.stderr, /invitation create does not take --value/);
      const past = await cli('invitation', 'create', '--expires', '2001-01-01');
      assert.deepEqual([past.code, past.stdout], [2, '']);
      assert.match(past.stderr, /--expires is in the past \(2001-01-01T00:00:00\.000Z\): the codes would be born expired/);

      const visitor = consoleAgent(gw);
      const signedUp = await poll('the setting applied', async () => {
        const answer = await visitor.post('/api/console/signup', { name: 'grace', password: 'a long enough password', invitation_code: codes[0] });
        return answer.status === 201 ? answer : undefined;
      }, 5000, 50);
      assert.equal(signedUp.status, 201);
      assert.equal((await cli('invitation', 'disable', '--batch', 'team')).stdout, '1 invitation disabled in batch "team"\n');
      const missing = await cli('invitation', 'disable', '999');
      assert.equal(missing.code, 1);
      const rows = lines((await cli('invitation', 'list', '--batch', 'team')).stdout).map((l) => l.split('\t'));
      assert.deepEqual(rows.map((r) => r.slice(1, 4)), [['team', 'disabled', 'used_by=-'], ['team', 'used', 'used_by=grace']]);
      assert.deepEqual(rows[1]!.slice(5), ['created_by=cli', rows[1]![6]!, 'expires=never']);
      assert.match(rows[1]![6]!, /^used=\d{4}-/);
      assert.ok(!codes.some((c) => JSON.stringify(rows).includes(c.slice(4))), 'never the codes');
      assert.equal(lines((await cli('code', 'list', '--batch', 'team')).stdout).length, 0, 'not redemption codes');
      const store = openStore({ dataDir: dir });
      try {
        const audit = (await store.listAudit({ limit: 1000 })).filter((r) => r.action.startsWith('invitation.'));
        assert.deepEqual(audit.map((r) => [r.actor, r.action, r.target]), [['cli', 'invitation.disable', 'team'], ['cli', 'invitation.create', 'team']]);
      } finally {
        await store.close();
      }
    });

    it('no code is ever in `code list`, `logs`, the audit log or the database file (its bytes and its WAL)', async () => {
      const made = lines((await cli('code', 'create', '--value', '1', '--count', '5', '--batch', 'autumn')).stdout);
      const ada = consoleAgent(gw);
      assert.equal((await ada.signIn('ada')).status, 200);
      assert.equal((await ada.post('/api/console/account/redeem', { code: made[0] })).status, 200);
      const wrong = newRedemptionCode();
      made.push(wrong);
      assertError(await ada.post('/api/console/account/redeem', { code: wrong }), 400, 'redemption_code_invalid');
      const store = openStore({ dataDir: dir });
      let audit: string;
      try {
        audit = JSON.stringify(await store.listAudit({ limit: 1000 }));
      } finally {
        await store.close();
      }
      const listed = (await cli('code', 'list')).stdout + audit;
      // The refused redemption is logged (without its body), by the gateway's log writer, in batches.
      const logs = await poll('the refusal logged', async () => {
        const out = (await cli('logs', '--json', '--limit', '1000')).stdout;
        return out.includes('/api/console/account/redeem') ? out : undefined;
      }, 5000, 50);
      const bytes = ['gateway.db', 'gateway.db-wal'].map((f) => join(dir, f)).filter((f) => existsSync(f)).map((f) => readFileSync(f).toString('latin1'));
      for (const code of made) {
        for (const form of [code, code.slice(4), code.replace(/-/g, '')]) {
          assert.ok(!listed.includes(form) && !logs.includes(form), `${form} shown`);
          assert.ok(!bytes.some((b) => b.includes(form)), `${form} in the database file`);
        }
      }
    });
  });

  it('works on PostgreSQL with --database URL, keeping only hashes there too', async () => {
    const url = await freshDatabase();
    const env = { MODEL_GATEWAY_SECRET_KEY: randomBytes(32).toString('base64') };
    const made = await run(env, ['code', 'create', '--value', '1.5', '--count', '4', '--batch', 'pg', '--database', url]);
    assert.equal(made.code, 0, made.stderr);
    const codes = lines(made.stdout);
    assert.equal(codes.length, 4);
    assert.equal((await run(env, ['code', 'disable', '2', '--database', url])).stdout, '1 code disabled (id 2)\n');
    const listed = await run(env, ['code', 'list', '--batch', 'pg', '--database', url]);
    assert.deepEqual(lines(listed.stdout).map((l) => l.split('\t').slice(0, 4)), [['4', 'pg', '$1.50', 'unused'], ['3', 'pg', '$1.50', 'unused'], ['2', 'pg', '$1.50', 'disabled'], ['1', 'pg', '$1.50', 'unused']]);
    const bad = await run(env, ['code', 'create', '--value', '0', '--database', url]);
    assert.equal(bad.code, 2);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const rows = JSON.stringify((await client.query('SELECT * FROM redemption_codes')).rows);
      assert.equal((await client.query('SELECT count(*)::int AS n FROM redemption_codes')).rows[0].n, 4);
      for (const code of codes) assert.ok(!rows.includes(code) && !rows.includes(code.slice(4)) && !listed.stdout.includes(code), code);
      const audit = (await client.query('SELECT actor, action, target FROM audit_log ORDER BY id')).rows;
      assert.deepEqual(audit, [{ actor: 'cli', action: 'code.create', target: 'pg' }, { actor: 'cli', action: 'code.disable', target: 'code 2' }], 'with the codes, in their transactions');
      assert.ok(!JSON.stringify((await client.query('SELECT * FROM audit_log')).rows).includes(codes[0]!.slice(4)));
    } finally {
      await client.end();
    }
  });
});

