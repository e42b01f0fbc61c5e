// `model-gateway serve --database URL` as users run it: the bundled CLI (dist/cli.cjs, built here from
// the current source) in its own process on the run's test PostgreSQL, a fake upstream behind it, and
// the admin commands through main(argv) on MODEL_GATEWAY_DATABASE_URL while it serves.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { cliSuite } from '../../support/cliSuite.ts';
import { freshDatabase, TEST_DATABASE_PASSWORD } from '../../support/postgres.ts';
import { call, chatBody } from './helpers.ts';
import { assertError } from '../../support/answer.ts';
import { cliWith, serveProcess as serve } from './serveProcess.ts';

describe('serve --database: the gateway on PostgreSQL', function () {
  this.timeout(60_000);
  const suite = cliSuite();

  it('answers through the upstream; the balance falls by exactly the logged charges; a CLI top-up while serving applies to the next request', async () => {
    const upstream = suite.upstream();
    const dir = suite.dir();
    const url = await freshDatabase();
    // --data points at an empty folder: on PostgreSQL nothing may be written there.
    const env: NodeJS.ProcessEnv = { ...process.env, MODEL_GATEWAY_DATA: dir, MODEL_GATEWAY_SECRET_KEY: randomBytes(32).toString('base64'), MODEL_GATEWAY_ECHO_DELAY_MS: '0' };
    const cli = (...args: string[]): Promise<string> => cliWith({ ...env, MODEL_GATEWAY_DATABASE_URL: url }, ...args);
    const served = await serve(['--database', url], env);
    try {
      assert.match(served.output(), /store: postgres, database: postgres:\/\/postgres@127\.0\.0\.1:\d+\/gateway_/);
      await cli('channel', 'add', '--name', 'up', '--base-url', upstream.url, '--api-key', 'sk-upstream-secret-1', '--models', 'gpt-x');
      await cli('model', 'price', 'gpt-x', '--input', '3', '--output', '7');
      await cli('account', 'create', 'team', '--balance', '0');
      const key = (await cli('key', 'create', '--account', 'team', '--name', 'team-key')).trim();

      const ask = () => call(served.gw, 'POST', '/v1/chat/completions', { key, body: chatBody('gpt-x') });
      assertError(await ask(), 403, 'insufficient_balance');
      await cli('account', 'topup', 'team', '0.01');
      const first = await ask();
      assert.equal(first.status, 200, 'the top-up applies to the very next request');
      assert.equal(upstream.requests.at(-1)!.headers.authorization, 'Bearer sk-upstream-secret-1', 'the sealed channel key opened for the upstream');

      const answers = await Promise.all(Array.from({ length: 40 }, ask));
      const served200 = answers.filter((a) => a.status === 200).length;
      assert.ok(served200 > 0, `some requests served: ${answers.map((a) => a.status).join(',')}`);
      // The rest refused for money, never served unpaid: spent (403) or held by requests in flight (429).
      for (const a of answers) if (a.status !== 200) assert.match(`${a.status} ${a.text}`, /^(403 .*insufficient_balance|429 .*balance_in_use)/);

      served.child.kill('SIGTERM');
      assert.equal(await served.exited, 0, served.output());
      const show = await cli('account', 'show', 'team');
      const [, balance, spent] = /balance \$([\d.]+), spent \$([\d.]+)/.exec(show)!;
      const logs = (await cli('logs', '--json', '--limit', '1000')).trim().split('\n').map((line) => JSON.parse(line) as { keyName: string | null; cost: number; status: number });
      const mine = logs.filter((l) => l.keyName === 'team-key');
      const charged = mine.reduce((sum, l) => sum + l.cost, 0);
      assert.equal(mine.length, 2 + answers.length, 'one log row per request');
      assert.equal(mine.filter((l) => l.status === 200).length, 1 + served200);
      assert.ok(charged > 0);
      assert.equal(Math.round(Number(spent) * 1e6), charged, 'spent equals the logged charges to the micro-USD');
      assert.equal(10_000 - Math.round(Number(balance) * 1e6), charged, 'the balance fell by exactly the logged charges');
      assert.ok(Math.round(Number(balance) * 1e6) >= 0);
      assert.ok(!served.output().includes(TEST_DATABASE_PASSWORD), 'the password is never printed');
    } finally {
      served.child.kill('SIGKILL');
    }
  });
});
