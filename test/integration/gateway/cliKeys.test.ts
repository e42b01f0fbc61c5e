// `model-gateway key ...` with keys' own limits (issue 10), in process through main(argv, io) as the binary
// runs it, on a real SQLite folder beside a running gateway: create with every limit, list and show them (with
// what the key spent in its period), change some with `key limits` (the others kept, the running gateway uses
// them at its next request), refuse bad input with a clear error and nothing changed; and `serve --trust-proxy`
// as a process of its own, where a key's IP list reads the proxy's X-Forwarded-For.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import type { RunningGateway } from '../../../src/gateway/server.ts';
import { openStore } from '../../../src/gateway/store/index.ts';
import { formatUsd } from '../../../src/contract/index.ts';
import { assertError } from '../../support/answer.ts';
import { poll } from '../../support/poll.ts';
import { call, chatBody, tempDir } from './helpers.ts';
import { besideGateway, cliWith, ROOT, runCli, serveProcess, type CliRun } from './serveProcess.ts';

describe('model-gateway key, with limits of its own', () => {
  let dir: string;
  let gw: RunningGateway;
  const cli = (...args: string[]): Promise<CliRun> => runCli(['--data', dir, ...args]);
  besideGateway((d, g) => {
    dir = d;
    gw = g;
  });

  it('create takes every limit; list and show give them back, show with the spending of the period and the reset time', async () => {
    const made = await cli('key', 'create', '--account', 'local', '--name', 'capped', '--rpm', '30', '--tpm', '5000', '--rpd', '100',
      '--spend-limit', '0.001', '--spend-period', 'day', '--allow-ip', '127.0.0.1,10.0.0.0/8', '--allow-ip', '2001:db8::/32');
    assert.equal(made.code, 0, made.stderr);
    const secret = made.stdout.trim();
    assert.match(secret, /^sk-/);
    const listed = await cli('key', 'list');
    assert.match(listed.stdout, /^capped\tsk-.{4}…\tenabled\taccount=local\tmodels=all\texpires=never\tlast_used=never\trpm=30\tconcurrency=64\ttpm=5000\trpd=100\tspend=\$0\.001\/day\tallow_ips=127\.0\.0\.1,10\.0\.0\.0\/8,2001:db8::\/32$/m);

    const answer = await call(gw, 'POST', '/v1/chat/completions', { key: secret, body: chatBody() });
    assert.equal(answer.status, 200);
    const cost = Number(answer.headers.get('x-gateway-cost'));
    const shown = await poll('key show with the request written', async () => {
      const run = await cli('key', 'show', 'capped');
      return run.stdout.includes('requests_today\t1') ? run : undefined;
    }, 2000, 20);
    const fields = Object.fromEntries(shown.stdout.trim().split('\n').map((line) => line.split('\t') as [string, string]));
    assert.ok(cost > 0);
    assert.equal(fields['spent_this_day'], formatUsd(cost));
    assert.deepEqual([fields['spend_limit'], fields['tpm'], fields['rpd'], fields['allow_ips']], ['$0.001 (day)', '5000', '100', '127.0.0.1,10.0.0.0/8,2001:db8::/32']);
    assert.match(fields['resets']!, /^\d{4}-\d{2}-\d{2}T00:00:00\.000Z$/);
  });

  it('key limits changes only the limits given, at once for the running gateway; "none" removes a spending limit or an IP list', async () => {
    const secret = (await cli('key', 'create', '--account', 'local', '--name', 'later')).stdout.trim();
    assert.equal((await cli('key', 'limits', 'later', '--spend-limit', '0.00001')).code, 0);
    assertError(await call(gw, 'POST', '/v1/chat/completions', { key: secret, body: chatBody() }), 403, 'key_spend_limit_reached');
    const changed = await cli('key', 'limits', 'later', '--account', 'local', '--spend-limit', 'none', '--allow-ip', '127.0.0.2', '--rpd', '7');
    assert.equal(changed.code, 0, changed.stderr);
    assert.equal(changed.stdout, 'key "later" limits: rpm=1200 concurrency=64 tpm=none rpd=7 spend=none allow_ips=127.0.0.2\n');
    const blocked = await call(gw, 'POST', '/v1/chat/completions', { key: secret, body: chatBody() });
    assertError(blocked, 403, 'ip_not_allowed');
    assert.match(blocked.json.error.message, /came from 127\.0\.0\.1\./);
    assert.equal((await cli('key', 'limits', 'later', '--allow-ip', 'none')).code, 0);
    assert.equal((await call(gw, 'POST', '/v1/chat/completions', { key: secret, body: chatBody() })).status, 200);
    assert.match((await cli('key', 'show', 'later')).stdout, /^rpd\t7$/m, 'what was not given again was kept');
    // Each change is in the audit log, by the CLI, with the limits it set.
    const store = openStore({ dataDir: dir });
    try {
      const rows = (await store.listAudit({ limit: 10, action: 'key.limits' })).reverse();
      assert.deepEqual(rows.map((r) => [r.actor, r.target]), new Array(3).fill(['cli', 'later (account local)']));
      assert.deepEqual(rows[1]!.details, { rpm: 1200, concurrency: 64, tpm: 0, rpd: 7, spend_limit_micro_usd: null, spend_period: 'total', allow_ips: ['127.0.0.2'] });
      assert.equal((rows[0]!.details as { spend_limit_micro_usd: number }).spend_limit_micro_usd, 10);
    } finally {
      await store.close();
    }
  });

  it('refuses bad limits with a clear error, exit code 2, and nothing made or changed', async () => {
    for (const [args, message] of [
      [['--allow-ip', '10.1.2.3/8'], /"10\.1\.2\.3\/8" has bits set after its first 8: the range is written with its first address, 10\.0\.0\.0\/8/],
      [['--allow-ip', 'localhost'], /"localhost" is not an IPv4 or IPv6 address or CIDR range/],
      [['--spend-limit', '0.0000001'], /spending limit: "0\.0000001" has more than 6 decimals/],
      [['--spend-limit', '0'], /spending limit: must be at least \$0\.000001/],
      [['--spend-period', 'week'], /--spend-period must be one of total, day, month, got "week"/],
      [['--tpm', '1.5'], /--tpm must be a whole number/],
    ] as const) {
      const made = await cli('key', 'create', '--account', 'local', '--name', 'bad', ...args);
      assert.equal(made.code, 2, `${args.join(' ')}: ${made.stderr}`);
      assert.match(made.stderr, message);
      const changed = await cli('key', 'limits', 'default', ...args);
      assert.equal(changed.code, 2);
      assert.match(changed.stderr, message);
    }
    assert.doesNotMatch((await cli('key', 'list')).stdout, /^bad\t/m);
    assert.match((await cli('key', 'list')).stdout, /^default\t.*\trpm=1200\tconcurrency=64\ttpm=none\trpd=none\tspend=none\tallow_ips=any$/m);
    const nothing = await cli('key', 'limits', 'default');
    assert.equal(nothing.code, 2);
    assert.match(nothing.stderr, /give at least one of --rpm/);
    const long = await cli('key', 'create', '--account', 'local', '--name', 'long-model', '--models', `echo,${'m'.repeat(1000)}`);
    assert.equal(long.code, 2, long.stderr);
    assert.match(long.stderr, /--models must be printable text of at most 256 characters/);
  });

  it('a model named twice in --models is kept once', async () => {
    assert.equal((await cli('key', 'create', '--account', 'local', '--name', 'twice', '--models', 'echo,echo , echo')).code, 0);
    assert.match((await cli('key', 'list')).stdout, /^twice\t.*\tmodels=echo\t/m);
  });
});

describe('model-gateway serve --trust-proxy', () => {
  before(() => execFileSync(process.execPath, ['esbuild.js'], { cwd: ROOT }));

  it("reads a key's client address from the proxy's X-Forwarded-For; without the flag the header is ignored", async () => {
    const dir = tempDir();
    const env = { ...process.env, MODEL_GATEWAY_DATA: '', MODEL_GATEWAY_DATABASE_URL: '', MODEL_GATEWAY_ECHO_DELAY_MS: '0' };
    try {
      let secret = '';
      for (const [flags, expected] of [[['--trust-proxy'], 200], [[], 403]] as const) {
        const served = await serveProcess(['--data', dir, ...flags], env);
        try {
          secret ||= (await cliWith(env, '--data', dir, 'key', 'create', '--account', 'local', '--name', 'proxied', '--allow-ip', '203.0.113.0/24')).trim();
          // The proxy appended the address it saw (203.0.113.5) after what the client claimed.
          const answer = await call(served.gw, 'POST', '/v1/chat/completions', { key: secret, body: chatBody(), headers: { 'X-Forwarded-For': '198.51.100.7, 203.0.113.5' } });
          assert.equal(answer.status, expected, `${flags.join(' ') || 'no flag'}: ${answer.text}`);
        } finally {
          served.child.kill('SIGTERM');
          await served.exited;
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
