// `model-gateway settings ...` (issue 10), in process through main(argv, io) as the binary runs it: on a
// real SQLite folder beside a running gateway (which applies a change at once: its sign-in page says
// so), and on PostgreSQL with --database. show prints each setting (a default marked), set and unset
// change one, recorded in the audit log as the command line's; a bad name or value is a usage error
// (exit 2) that changes nothing.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { RunningGateway } from '../../../src/gateway/server.ts';
import { openAnyStore, openStore } from '../../../src/gateway/store/index.ts';
import { poll } from '../../support/poll.ts';
import { freshDatabase } from '../../support/postgres.ts';
import { consoleAgent } from './consoleAgent.ts';
import { besideGateway, runCli } from './serveProcess.ts';

const DEFAULTS = ['sign_up\toff\t(default)', 'new_user_balance\t$0.00\t(default)', 'log_retention_days\t90\t(default)', 'notice\t-\t(default)'];
const lines = (text: string) => text.split('\n').filter(Boolean);

describe('model-gateway settings', () => {
  describe('on a SQLite folder, beside a running gateway', () => {
    let dir: string;
    let gw: RunningGateway;
    const cli = (...args: string[]) => runCli(['--data', dir, ...args]);
    besideGateway((d, g) => {
      dir = d;
      gw = g;
    });

    it('show prints every setting, a default marked; set and unset change one, and the running gateway applies it at once', async () => {
      const shown = await cli('settings', 'show');
      assert.equal(shown.code, 0, shown.stderr);
      assert.deepEqual(lines(shown.stdout), DEFAULTS);

      const set = await cli('settings', 'set', 'sign_up', 'invitation');
      assert.deepEqual([set.code, set.stdout, set.stderr], [0, 'sign_up\tinvitation\n', '']);
      assert.equal((await cli('settings', 'set', 'new_user_balance', '1.25')).stdout, 'new_user_balance\t$1.25\n');
      assert.equal((await cli('settings', 'set', 'log_retention_days', '0')).stdout, 'log_retention_days\t0\n');
      assert.equal((await cli('settings', 'set', 'notice', 'Closed on "Sunday"')).stdout, 'notice\t"Closed on \\"Sunday\\""\n');
      const session = await poll('the running gateway applying the change', async () => {
        const answer = (await consoleAgent(gw).get('/api/console/session')).json;
        return answer.sign_up === 'invitation' ? answer : undefined;
      }, 2000, 10);
      assert.equal(session.notice, 'Closed on "Sunday"');

      const json = await cli('settings', 'show', '--json');
      assert.deepEqual(JSON.parse(json.stdout), { sign_up: 'invitation', new_user_balance_micro_usd: 1_250_000, log_retention_days: 0, notice: 'Closed on "Sunday"', defaults: [] });
      assert.equal((await cli('settings', 'unset', 'notice')).stdout, 'notice\t-\t(default)\n');
      assert.equal((await cli('settings', 'set', 'notice', '')).stdout, 'notice\t-\t(default)\n', 'an empty notice is none');
      const store = openStore({ dataDir: dir });
      try {
        const audit = await store.listAudit({ action: 'settings.change', limit: 10 });
        assert.deepEqual(audit.map((r) => [r.actor, r.target, r.details]).reverse(), [
          ['cli', 'sign_up', { sign_up: 'invitation' }], ['cli', 'new_user_balance', { new_user_balance_micro_usd: 1_250_000, new_user_balance: '$1.25' }],
          ['cli', 'log_retention_days', { log_retention_days: 0 }], ['cli', 'notice', { notice: 'Closed on "Sunday"' }], ['cli', 'notice', { notice: null }], ['cli', 'notice', { notice: null }],
        ]);
      } finally {
        await store.close();
      }
    });

    it('a bad name or value is a usage error (exit 2) that changes nothing', async () => {
      const before = (await cli('settings', 'show')).stdout;
      for (const args of [
        ['set', 'colour', 'blue'], ['set', 'sign_up', 'sometimes'], ['set', 'new_user_balance', '-1'], ['set', 'new_user_balance', '0.0000001'],
        ['set', 'log_retention_days', '36501'], ['set', 'log_retention_days', 'forever'], ['set', 'notice', 'x'.repeat(501)], ['set', 'notice', 'bell\u0007'], ['set', 'notice', 'rtl\u202eevil'], ['set', 'notice', 'c1\u0085x'],
        ['set', 'sign_up'], ['unset'], ['show', 'extra'], ['reset', 'sign_up'],
      ]) {
        const run = await cli('settings', ...args);
        assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
        // A value starting with "-" is refused by the option parser itself, with the usage.
        assert.match(run.stderr, /^model-gateway: .+(Run "model-gateway --help" for usage\.|Usage: model-gateway)/s);
      }
      assert.equal((await cli('settings', 'set', 'sign_up', 'open', '--json')).code, 2, 'set takes no --json');
      assert.equal((await cli('settings', 'show')).stdout, before);
    });
  });

  it('on PostgreSQL with --database: the same commands, on the database', async () => {
    const url = await freshDatabase();
    const env = { MODEL_GATEWAY_SECRET_KEY: randomBytes(32).toString('base64') };
    const cli = (...args: string[]) => runCli(['--database', url, ...args], env);
    assert.deepEqual(lines((await cli('settings', 'show')).stdout), DEFAULTS);
    assert.equal((await cli('settings', 'set', 'sign_up', 'open')).code, 0);
    assert.deepEqual(lines((await cli('settings', 'show')).stdout), ['sign_up\topen', ...DEFAULTS.slice(1)]);
    const store = await openAnyStore({ databaseUrl: url, env });
    try {
      assert.deepEqual(await store.settings.read(), { sign_up: 'open' });
      assert.deepEqual((await store.listAudit({ limit: 10 })).map((r) => [r.actor, r.action]), [['cli', 'settings.change']]);
    } finally {
      await store.close();
    }
  });
});
