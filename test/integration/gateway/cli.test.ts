// The CLI's commands in process through main(argv, io), as the binary runs it (`serve` as a process of its
// own is in cliServe.test.ts).
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tempDir } from './helpers.ts';
import { startFakeUpstream } from '../../support/fakeUpstream.ts';
import { main } from '../../../src/gateway/cli.ts';
import { runCli, type CliRun } from './serveProcess.ts';
import { startGateway } from '../../../src/gateway/server.ts';
import { poll } from '../../support/poll.ts';

/** A CLI command in process on the test's data folder: `main(argv, io)` is what the `model-gateway` binary runs. */
const cli = (dir: string, ...args: string[]): Promise<CliRun> => runCli(['--data', dir, ...args]);

describe('model-gateway CLI', () => {
  let dir: string;
  beforeEach(() => (dir = tempDir()));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('channel add takes the upstream key from standard input (--api-key -) or the environment, never only from argv', async () => {
    const run = async (env: NodeJS.ProcessEnv, stdin: string | null, ...args: string[]) => {
      let stderr = '';
      const io = { out: () => undefined, err: (l: string) => void (stderr += l), ...(stdin === null ? {} : { readStdin: async () => stdin }) };
      return { code: await main(['--data', dir, 'channel', 'add', '--base-url', 'http://127.0.0.1:9/v1', '--models', 'm', ...args], io, env), stderr };
    };
    assert.equal((await run({}, 'sk-from-stdin\n', '--name', 'piped', '--api-key', '-')).code, 0);
    assert.equal((await run({ MODEL_GATEWAY_CHANNEL_API_KEY: 'sk-from-env' }, null, '--name', 'env')).code, 0);
    assert.match((await run({}, '  \n', '--name', 'empty', '--api-key', '-')).stderr, /standard input held no key/);
    const { openStore } = await import('../../../src/gateway/store/index.ts');
    const store = openStore({ dataDir: dir });
    try {
      const keys = Object.fromEntries((await store.listChannels()).map((c) => [c.name, c.apiKey]));
      assert.deepEqual(keys, { piped: 'sk-from-stdin', env: 'sk-from-env' });
    } finally {
      await store.close();
    }
  });

  it('channel test: one minimal request to the upstream, with its status, time and words (keys redacted)', async () => {
    const upstream = await startFakeUpstream({});
    try {
      const secret = 'sk-upstream-secret-7777777';
      assert.equal((await cli(dir, 'channel', 'add', '--name', 'up', '--base-url', upstream.url, '--api-key', secret, '--models', 'big', '--map', 'big=up-big')).code, 0);
      assert.equal((await cli(dir, 'channel', 'add', '--name', 'claude', '--type', 'anthropic', '--base-url', upstream.url.replace(/\/v1$/, ''), '--api-key', secret, '--models', 'c')).code, 0);
      const ok = await cli(dir, 'channel', 'test', 'up');
      assert.equal(ok.code, 0, ok.stderr);
      assert.match(ok.stdout, /^OK 200 in \d+ ms: up -> http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions \(model "up-big"\)/);
      const sent = upstream.requests.at(-1)!;
      assert.deepEqual([sent.body.model, sent.body.max_tokens, sent.headers.authorization], ['up-big', 1, `Bearer ${secret}`]);
      assert.equal((await cli(dir, 'channel', 'test', 'claude')).code, 0);
      assert.deepEqual([upstream.requests.at(-1)!.path, upstream.requests.at(-1)!.headers['x-api-key']], ['/v1/messages', secret]);
      // A base URL holding a key of its own (?key=...) is shown masked, as channel list shows it.
      assert.equal((await cli(dir, 'channel', 'add', '--name', 'query-key', '--base-url', `${upstream.url}?key=QSECRET77`, '--models', 'q')).code, 0);
      const masked = await cli(dir, 'channel', 'test', 'query-key');
      assert.equal(masked.code, 0, masked.stderr);
      assert.match(masked.stdout, /\?key=\*\*\*\*/);
      assert.ok(!masked.stdout.includes('QSECRET77'));

      upstream.behaviour = { status: 401, errorMessage: `Incorrect API key provided: ${secret}` };
      const refused = await cli(dir, 'channel', 'test', 'up');
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /FAILED 401 in \d+ ms: .*Incorrect API key provided/);
      assert.ok(!refused.stderr.includes(secret), 'the key never shows');
      assert.equal((await cli(dir, 'channel', 'test', 'nobody')).code, 1);
    } finally {
      await upstream.close();
    }
    const gone = await cli(dir, 'channel', 'test', 'up');
    assert.equal(gone.code, 1);
    assert.match(gone.stderr, /FAILED in \d+ ms: up -> http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/);
  });

  it("a folder restored without its secret.key works on: the channels sealed with the old key serve nothing until given again, and say so", async () => {
    const upstream = await startFakeUpstream({});
    try {
      assert.equal((await cli(dir, 'channel', 'add', '--name', 'up', '--base-url', `${upstream.url}?key=URLSECRET1`, '--api-key', 'sk-old-key-1', '--models', 'm')).code, 0);
      assert.equal((await cli(dir, 'model', 'price', 'm', '--input', '1', '--output', '1')).code, 0);
      // Restored without it: a new secret.key is made, which opens nothing sealed before.
      rmSync(join(dir, 'secret.key'));
      for (const args of [['user', 'list'], ['key', 'list'], ['model', 'list']]) assert.equal((await cli(dir, ...args)).code, 0, args.join(' '));
      const listed = await cli(dir, 'channel', 'list');
      assert.equal(listed.code, 0, listed.stderr);
      assert.match(listed.stdout, /^up\topenai\tenabled\t-\t.*unreadable=the-base-URL\+the-key \(sealed with another secret key: give it again with channel update\)/m);
      const lines: string[] = [];
      const gw = await startGateway({ dataDir: dir, port: 0, log: (line) => lines.push(line), issueKey: 'restored' });
      try {
        assert.ok(lines.some((l) => l.startsWith('channel "up" serves nothing: its the base URL, the key was sealed with another secret key')), lines.join('\n'));
        const refused = await fetch(`${gw.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${gw.issuedKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }) });
        assert.equal(refused.status, 503);
        // Given again, it serves.
        const fixed = await runCli(['--data', dir, 'channel', 'update', 'up', '--base-url', `${upstream.url}?key=URLSECRET2`, '--api-key', 'sk-new-key-2']);
        assert.equal(fixed.code, 0, fixed.stderr);
        const served = await poll('the channel served again', async () => {
          const answer = await fetch(`${gw.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${gw.issuedKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }) });
          return answer.status === 200 ? answer : undefined;
        }, 10_000);
        assert.equal(served.status, 200);
        assert.equal(upstream.requests.at(-1)!.headers.authorization, 'Bearer sk-new-key-2');
      } finally {
        await gw.stop();
      }
    } finally {
      await upstream.close();
    }
  });

  it('user create, list, disable, enable, password: passwords read as secrets, never arguments, stored only hashed', async () => {
    const run = async (secret: string | null, ...args: string[]) => {
      let stdout = '';
      let stderr = '';
      const io = { out: (l: string) => void (stdout += `${l}\n`), err: (l: string) => void (stderr += `${l}\n`), ...(secret === null ? {} : { readSecret: async () => secret }) };
      return { code: await main(['--data', dir, ...args], io, {}), stdout, stderr };
    };
    const made = await run('a long enough password', 'user', 'create', 'ada', '--admin');
    assert.equal(made.code, 0, made.stderr);
    assert.match(made.stdout, /user "ada" created \(admin\) on account "ada"/);
    assert.match((await cli(dir, 'account', 'show', 'ada')).stdout, /balance \$0\.00/, 'her own account, ready for a top-up');
    assert.equal((await cli(dir, 'account', 'create', 'shared')).code, 0);
    assert.equal((await run('another long password', 'user', 'create', 'bob', '--account', 'shared')).code, 0);
    for (const [secret, args, says] of [
      ['short', ['user', 'create', 'cy'], /at least 10 characters/],
      ['a long enough password', ['user', 'create', 'ada'], /a user named "ada" already exists/],
      ['a long enough password', ['user', 'create', 'ada', '--account', 'ada'], /a user named "ada" already exists/],
      ['a long enough password', ['user', 'create', 'Ada', '--account', 'shared'], /a user named "ada" already exists \(user names are told apart without case\)/],
      ['a long enough password', ['user', 'create', 'shared'], /an account named "shared" exists already: give --account shared/],
      ['a long enough password', ['user', 'create', 'dee', '--account', 'nowhere'], /no account named "nowhere"/],
      [null, ['user', 'create', 'eve'], /terminal or standard input/],
      ['a long enough password', ['user', 'create', 'cli'], /audit log's name for the command line/],
    ] as const) {
      const refused = await run(secret, ...args);
      assert.notEqual(refused.code, 0, args.join(' '));
      assert.match(refused.stderr, says);
    }
    // The advice for an account without a user of its name is followed, and works.
    const advised = await run('a long enough password', 'user', 'create', 'shared', '--account', 'shared');
    assert.equal(advised.code, 0, advised.stderr);
    const disabled = await run(null, 'user', 'disable', 'BOB');
    assert.equal(disabled.code, 0, disabled.stderr);
    assert.match(disabled.stdout, /user "bob" disabled/, 'the user as spelled, found without case');
    const listed = (await cli(dir, 'user', 'list')).stdout;
    assert.match(listed, /^ada\tadmin\tenabled\taccount=ada\tcreated=/m);
    assert.match(listed, /^bob\tuser\tdisabled\taccount=shared\t/m);
    assert.equal((await run('a brand new password', 'user', 'password', 'ada')).code, 0);
    // A password is kept as typed, spaces around it too: the console signs in with exactly what is typed.
    assert.equal((await run('  spaced password  ', 'user', 'password', 'shared')).code, 0);

    const { openStore } = await import('../../../src/gateway/store/index.ts');
    const { verifyPassword } = await import('../../../src/gateway/accounts/passwords.ts');
    const store = openStore({ dataDir: dir });
    try {
      const ada = (await store.listUsers()).find((u) => u.name === 'ada')!;
      assert.equal(await verifyPassword('a brand new password', ada.passwordHash), true);
      assert.equal(await verifyPassword('a long enough password', ada.passwordHash), false);
      const shared = (await store.listUsers()).find((u) => u.name === 'shared')!;
      assert.equal(await verifyPassword('  spaced password  ', shared.passwordHash), true);
      // Every change made is in the audit log, by the command line, oldest last; the refused ones are not.
      const audit = (await store.listAudit({ limit: 100 })).filter((r) => r.action.startsWith('user.'));
      assert.deepEqual(audit.map((r) => [r.actor, r.action, r.target]), [
        ['cli', 'user.password_reset', 'shared'], ['cli', 'user.password_reset', 'ada'], ['cli', 'user.disable', 'bob'], ['cli', 'user.create', 'shared'], ['cli', 'user.create', 'bob'], ['cli', 'user.create', 'ada'],
      ]);
      assert.deepEqual(audit.at(-1)!.details, { account: 'ada', admin: true, new_account: true });
      assert.deepEqual(audit.at(-2)!.details, { account: 'shared', admin: false, new_account: false });
      assert.equal(audit[1]!.details, null, 'a password reset records no password');
    } finally {
      await store.close();
    }
    const bytes = readFileSync(join(dir, 'gateway.db'), 'latin1') + (existsSync(join(dir, 'gateway.db-wal')) ? readFileSync(join(dir, 'gateway.db-wal'), 'latin1') : '');
    for (const password of ['a long enough password', 'another long password', 'a brand new password']) assert.ok(!bytes.includes(password), 'no password on disk');
  });

  it('model price parses decimal dollars exactly; channel and key lists work', async () => {
    assert.equal((await cli(dir, 'account', 'create', 'a', '--balance', '1.5')).code, 0);
    assert.equal((await cli(dir, 'model', 'price', 'm', '--input', '0.15', '--output', '0.6')).code, 0);
    assert.equal((await cli(dir, 'channel', 'add', '--name', 'up', '--base-url', 'http://127.0.0.1:1/v1', '--api-key', 'k', '--models', 'm', '--map', 'big=upstream-big', '--priority', '2', '--weight', '3', '--timeout-ms', '5000')).code, 0);
    const { openStore: open } = await import('../../../src/gateway/store/index.ts');
    const logStore = open({ dataDir: dir });
    const row = (requestId: string, channel: string | null, errorCode: string | null, attempts: string | null) => ({
      time: Date.now(), requestId, method: 'POST', path: '/v1/chat/completions', accountId: null, keyId: null, keyName: null, model: 'm', channel,
      status: errorCode ? 502 : 200, errorCode, promptTokens: 0, completionTokens: 0, usageEstimated: false, cost: 0, latencyMs: 1, firstByteMs: null, stream: false, attempts,
    });
    await logStore.write({
      logs: [row('a', 'up', null, null), row('b', 'other', null, JSON.stringify([{ channel: 'up', code: 'upstream_error', detail: 'upstream HTTP 500', ms: 3 }])), row('c', 'up', null, null)],
      keysUsed: new Map(),
    });
    await logStore.close();
    const channels = await cli(dir, 'channel', 'list');
    assert.match(channels.stdout, /^up\topenai\tenabled\thttp:\/\/127\.0\.0\.1:1\/v1\tmodels=m,big=upstream-big\tpriority=2\tweight=3/m);
    assert.match(channels.stdout, /^up\t.*\trecent=2 served\/1 failed\tlast-failure=upstream_error \(upstream HTTP 500\) at /m);
    assert.equal((await cli(dir, 'channel', 'disable', 'up')).code, 0);
    assert.match((await cli(dir, 'channel', 'list')).stdout, /\tdisabled\t/);
    const auditStore = open({ dataDir: dir });
    const audit = await auditStore.listAudit({ actor: 'cli', limit: 100 });
    await auditStore.close();
    assert.deepEqual(audit.slice(0, 4).map((r) => [r.action, r.target]), [['channel.disable', 'up'], ['channel.add', 'up'], ['model.price', 'm'], ['account.create', 'a']]);
    assert.deepEqual(audit[1]!.details!['models'], { m: 'm', big: 'upstream-big' });
    assert.ok(!('apiKey' in audit[1]!.details!) && !JSON.stringify(audit[1]!.details).includes('"k"'), 'the upstream key is not recorded');
    assert.deepEqual([audit[2]!.details!['inputPrice'], audit[2]!.details!['outputPrice']], [150_000, 600_000]);
    assert.deepEqual(audit[3]!.details, { balance_micro_usd: 1_500_000, balance: '$1.50' });
    assert.equal((await cli(dir, 'channel', 'remove', 'up')).code, 0);
    assert.equal((await cli(dir, 'channel', 'list')).stdout, '');

    // Whether Responses requests pass through: OpenAI itself has the API, others only when told so.
    assert.equal((await cli(dir, 'channel', 'add', '--name', 'oai', '--base-url', 'https://api.openai.com/v1', '--models', 'gpt-5')).code, 0);
    assert.equal((await cli(dir, 'channel', 'add', '--name', 'vllm', '--base-url', 'http://127.0.0.1:1/v1', '--models', 'qwen')).code, 0);
    assert.equal((await cli(dir, 'channel', 'add', '--name', 'azure', '--base-url', 'http://127.0.0.1:2/v1', '--models', 'o3', '--responses', 'yes')).code, 0);
    assert.equal((await cli(dir, 'channel', 'add', '--name', 'proxied-oai', '--base-url', 'https://api.openai.com/v1', '--models', 'gpt-4o', '--responses', 'no')).code, 0);
    const flags = (await cli(dir, 'channel', 'list')).stdout.split('\n').filter(Boolean).map((line) => `${line.split('\t')[0]} ${/responses=(\w+)/.exec(line)?.[1]}`);
    assert.deepEqual(flags, ['oai yes', 'vllm no', 'azure yes', 'proxied-oai no']);
    for (const args of [['--type', 'anthropic', '--base-url', 'http://h', '--responses', 'yes'], ['--base-url', 'http://h', '--responses', 'maybe']]) {
      const refused = await cli(dir, 'channel', 'add', '--name', 'bad', '--models', 'x', ...args);
      assert.deepEqual([refused.code, /--responses/.test(refused.stderr)], [2, true], args.join(' '));
    }
    for (const name of ['oai', 'vllm', 'azure', 'proxied-oai']) assert.equal((await cli(dir, 'channel', 'remove', name)).code, 0);

    const { openStore } = await import('../../../src/gateway/store/index.ts');
    const store = openStore({ dataDir: dir });
    try {
      const m = (await store.listModels()).find((x) => x.name === 'm')!;
      assert.equal(m.inputPrice, 150_000);
      assert.equal(m.outputPrice, 600_000);
      assert.equal((await store.getAccount('a'))!.balance, 1_500_000);
    } finally {
      await store.close();
    }
    const made = await cli(dir, 'key', 'create', '--account', 'a', '--name', 'k', '--models', 'm', '--expires', '2099-01-01T00:00:00Z', '--rpm', '5', '--concurrency', '2');
    assert.equal(made.code, 0, made.stderr);
    const keys = await cli(dir, 'key', 'list');
    assert.match(keys.stdout, /^k\tsk-.{4}…\tenabled\taccount=a\tmodels=m\texpires=2099-01-01T00:00:00\.000Z\tlast_used=never\trpm=5\tconcurrency=2\ttpm=none\trpd=none\tspend=none\tallow_ips=any$/m);
    assert.ok(!keys.stdout.includes(made.stdout.trim()), 'the list never shows the secret');
    assert.equal((await cli(dir, 'key', 'delete', 'k')).code, 0);
    assert.equal((await cli(dir, 'key', 'delete', 'k')).code, 1);
  });

  it('key names are unique per account: a name on two accounts is addressed with --account, and alone it is refused naming both', async () => {
    assert.equal((await cli(dir, 'account', 'create', 'north')).code, 0);
    assert.equal((await cli(dir, 'account', 'create', 'south')).code, 0);
    assert.equal((await cli(dir, 'key', 'create', '--account', 'north', '--name', 'shared')).code, 0);
    assert.equal((await cli(dir, 'key', 'create', '--account', 'south', '--name', 'shared')).code, 0, 'the same name on another account');
    assert.equal((await cli(dir, 'key', 'create', '--account', 'south', '--name', 'shared')).code, 1, 'but not twice on one account');
    const ambiguous = await cli(dir, 'key', 'disable', 'shared');
    assert.equal(ambiguous.code, 1);
    assert.match(ambiguous.stderr, /several accounts \(north, south\).*--account/);
    assert.equal((await cli(dir, 'key', 'disable', 'shared', '--account', 'south')).code, 0);
    const listed = (await cli(dir, 'key', 'list')).stdout.split('\n').filter((l) => l.startsWith('shared\t'));
    assert.deepEqual(listed.map((l) => [l.split('\t')[2], l.split('\t')[3]]), [['enabled', 'account=north'], ['disabled', 'account=south']]);
    assert.equal((await cli(dir, 'key', 'delete', 'shared', '--account', 'nowhere')).code, 1);
    assert.equal((await cli(dir, 'key', 'delete', 'shared', '--account', 'north')).code, 0);
    assert.equal((await cli(dir, 'key', 'enable', 'shared')).code, 0, 'one left: the name alone is enough again');
  });

  it('model price takes each kind with the prices it has: per token, input only, per image', async () => {
    assert.equal((await cli(dir, 'model', 'price', 'fim', '--kind', 'completion', '--input', '0.2', '--output', '0.4', '--default-max-tokens', '256')).code, 0);
    assert.equal((await cli(dir, 'model', 'price', 'x', '--input', '1', '--output', '1', '--default-max-tokens', '0')).code, 2, 'a cap of 0 tokens is refused');
    const overContext = await cli(dir, 'model', 'price', 'x', '--input', '1', '--output', '1', '--default-max-tokens', '100', '--context', '50');
    assert.equal(overContext.code, 2, overContext.stderr);
    assert.match(overContext.stderr, /--default-max-tokens \(100\) is more than the model's context \(50\)/);
    for (const name of ['bad\u009b[2Jname', 'line\u2028break', 'spoof\u202eexe.txt']) {
      assert.equal((await cli(dir, 'model', 'price', name, '--input', '1', '--output', '1')).code, 2, JSON.stringify(name));
    }
    assert.match(
      (await cli(dir, 'model', 'price', 'claude', '--input', '3', '--output', '15', '--cached-input', '0.3', '--cache-write', '3.75')).stdout,
      /"claude" \(chat\): \$3\.00 input, \$15\.00 output, \$0\.30 cached input, \$3\.75 cache write per million tokens/,
    );
    assert.match((await cli(dir, 'model', 'price', 'emb', '--kind', 'embedding', '--input', '0.02')).stdout, /"emb" \(embedding\): \$0\.02 input per million tokens/);
    assert.match((await cli(dir, 'model', 'price', 'img', '--kind', 'image', '--per-image', '0.04')).stdout, /"img" \(image\): \$0\.04 per image/);
    assert.match(
      (await cli(dir, 'model', 'price', 'dalle', '--kind', 'image', '--per-image', '0.04', '--per-image', '1024x1792=0.08', '--per-image', 'HD=0.08', '--per-image', 'hd,1024x1792=0.12')).stdout,
      /"dalle" \(image\): \$0\.04 per image; \$0\.08 for 1024x1792, \$0\.08 for hd, \$0\.12 for 1024x1792,hd/,
    );
    for (const args of [
      ['model', 'price', 'x', '--kind', 'audio', '--input', '1', '--output', '1'],
      ['model', 'price', 'x', '--kind', 'embedding', '--input', '1', '--output', '1'],
      ['model', 'price', 'x', '--kind', 'image', '--input', '1'],
      ['model', 'price', 'x', '--kind', 'image'],
      ['model', 'price', 'x', '--kind', 'image', '--per-image', '1024x1792=0.08'],
      ['model', 'price', 'x', '--kind', 'image', '--per-image', '0.04', '--per-image', '0.05'],
      ['model', 'price', 'x', '--kind', 'image', '--per-image', '0.04', '--per-image', 'hd,low=0.1'],
      ['model', 'price', 'x', '--kind', 'image', '--per-image', '0.04', '--per-image', 'hd=0.1', '--per-image', 'HD=0.2'],
      ['model', 'price', 'x', '--kind', 'image', '--per-image', '0.04', '--per-image', 'hd=-1'],
      ['model', 'price', 'x', '--per-image', '1', '--input', '1', '--output', '1'],
      ['model', 'price', 'x', '--kind', 'embedding', '--input', '1', '--cached-input', '0.5'],
      ['model', 'price', 'x', '--input', '1', '--output', '1', '--cache-write', '-1'],
    ]) {
      const run = await cli(dir, ...args);
      assert.equal(run.code, 2, `${args.join(' ')} is refused`);
      assert.match(run.stderr, /--kind|--per-image|--output|--input|--cached-input|--cache-write/);
    }
    const listed = (await cli(dir, 'model', 'list')).stdout;
    assert.match(listed, /^claude\tchat\tin=\$3\.00\/M\tout=\$15\.00\/M\tcached-in=\$0\.30\/M\tcache-write=\$3\.75\/M\tno-channel$/m, 'every price a model has');
    assert.match(listed, /^emb\tembedding\tin=\$0\.02\/M\tno-channel$/m, 'an embedding has an input price only');
    assert.match(listed, /^dalle\timage\t\$0\.04\/image \(\$0\.08 for 1024x1792, \$0\.08 for hd, \$0\.12 for 1024x1792,hd\)\tno-channel$/m);
    assert.match(listed, /^fim\tcompletion\t.*default-max-tokens=256/m);
    const { openStore } = await import('../../../src/gateway/store/index.ts');
    const store = openStore({ dataDir: dir });
    try {
      const byName = new Map((await store.listModels()).map((m) => [m.name, m]));
      assert.deepEqual([byName.get('fim')!.kind, byName.get('fim')!.inputPrice, byName.get('fim')!.outputPrice, byName.get('fim')!.defaultMaxTokens], ['completion', 200_000, 400_000, 256]);
      assert.deepEqual([byName.get('emb')!.kind, byName.get('emb')!.inputPrice, byName.get('emb')!.outputPrice], ['embedding', 20_000, 0]);
      assert.deepEqual([byName.get('img')!.kind, byName.get('img')!.imagePrice, byName.get('img')!.imagePrices], ['image', 40_000, null]);
      assert.deepEqual(byName.get('dalle')!.imagePrices, { '1024x1792': 80_000, hd: 80_000, '1024x1792,hd': 120_000 });
      assert.deepEqual([byName.get('claude')!.cachedInputPrice, byName.get('claude')!.cacheWritePrice, byName.get('fim')!.cachedInputPrice], [300_000, 3_750_000, null]);
      assert.equal(byName.has('x'), false);
    } finally {
      await store.close();
    }
  });

  it('model price --max-output N|none: the most a model writes, at most its context, never below its default cap; kept unless given; none removes it', async () => {
    const price = (...flags: string[]) => cli(dir, 'model', 'price', 'gpt-4o', '--input', '2.5', '--output', '10', ...flags);
    assert.equal((await price('--context', '128000', '--max-output', '16384')).code, 0);
    assert.match((await cli(dir, 'model', 'list')).stdout, /^gpt-4o\tchat\t.*context=128000\t.*max-output=16384/m);
    assert.equal((await price()).code, 0, 'a new price keeps it');
    assert.match((await cli(dir, 'model', 'list')).stdout, /max-output=16384/);
    for (const [flags, says] of [
      [['--max-output', '200000'], /--max-output \(200000\) is more than the model's context \(128000\)/],
      [['--default-max-tokens', '32000'], /--default-max-tokens \(32000\) is more than the model's maximum output \(16384\)/],
      [['--max-output', '0'], /--max-output must be a whole number from 1 to 10000000, got "0"/],
      [['--max-output', 'lots'], /--max-output must be a whole number/],
    ] as const) {
      const run = await price(...flags);
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, says);
    }
    const embedding = await cli(dir, 'model', 'price', 'emb', '--kind', 'embedding', '--input', '0.02', '--max-output', '100');
    assert.deepEqual([embedding.code, /--max-output does not apply to embedding models/.test(embedding.stderr)], [2, true], embedding.stderr);
    assert.equal((await price('--max-output', 'none')).code, 0);
    assert.doesNotMatch((await cli(dir, 'model', 'list')).stdout, /max-output=/);
  });

  it('model price --images yes|no|unknown: the model takes images as input, shown by model list and kept unless given, as --tools; unknown makes either not said; in the help', async () => {
    const price = (...flags: string[]) => cli(dir, 'model', 'price', 'gpt-4o', '--input', '2.5', '--output', '10', ...flags);
    const line = async (name: string) => (await cli(dir, 'model', 'list')).stdout.split('\n').find((l) => l.startsWith(`${name}\t`))!;
    assert.equal((await price('--tools', 'yes', '--images', 'yes')).code, 0);
    assert.match(await line('gpt-4o'), /\ttools=yes\timages=yes\t/);
    assert.equal((await price()).code, 0, 'a new price keeps it');
    assert.match(await line('gpt-4o'), /\ttools=yes\timages=yes\t/);
    assert.equal((await price('--images', 'no')).code, 0);
    assert.match(await line('gpt-4o'), /\ttools=yes\timages=no\t/);
    const refused = await price('--images', 'maybe');
    assert.deepEqual([refused.code, refused.stderr.includes('--images takes yes, no or unknown')], [2, true], refused.stderr);
    assert.equal((await price('--tools', 'unknown')).code, 0);
    assert.match(await line('gpt-4o'), /\timages=no\t/);
    assert.doesNotMatch(await line('gpt-4o'), /tools=/, 'tool calling not said any more');
    assert.equal((await price('--tools', 'yes')).code, 0);
    assert.equal((await cli(dir, 'model', 'price', 'plain', '--input', '1', '--output', '1')).code, 0);
    assert.doesNotMatch(await line('plain'), /images=/, 'not said: not shown');
    const { openStore } = await import('../../../src/gateway/store/index.ts');
    const store = openStore({ dataDir: dir });
    try {
      assert.deepEqual((await store.listModels()).map((m) => [m.name, m.imageInput]), [['gpt-4o', false], ['plain', null]]);
    } finally {
      await store.close();
    }
    assert.match((await cli(dir, '--help')).stdout, /\[--tools yes\|no\|unknown\] \[--images yes\|no\|unknown\]\n.*\n\s+--images yes: the model takes images as input/);
  });

  it('money is bounded at the boundary and in the store: a huge top-up is refused, changes nothing, and the account stays readable', async () => {
    assert.equal((await cli(dir, 'account', 'create', 'big', '--balance', '100')).code, 0);
    for (const [amount, code, says] of [
      ['9007199254', 2, /more than the most allowed, \$1,000,000,000/],
      ['999999999', 1, /would pass the most an account may hold, \$1,000,000,000.*nothing was changed/],
      ['0', 2, /more than \$0/], ['-5', 2, /-5/], ['1e3', 2, /not an amount/], ['0.0000001', 2, /more than 6 decimals/], ['NaN', 2, /not an amount/],
    ] as const) {
      const run = await cli(dir, 'account', 'topup', 'big', amount);
      assert.deepEqual([run.code, run.stdout], [code, ''], `topup ${amount}: ${run.stderr}`);
      assert.match(run.stderr, says);
    }
    assert.match((await cli(dir, 'account', 'show', 'big')).stdout, /balance \$100\.00,/);
    assert.equal((await cli(dir, 'account', 'topup', 'big', '999999900')).code, 0, 'up to the ceiling exactly');
    assert.match((await cli(dir, 'account', 'show', 'big')).stdout, /balance \$1,000,000,000\.00,/);
    assert.equal((await cli(dir, 'account', 'create', 'huge', '--balance', '1000000000.000001')).code, 2);
    assert.equal((await cli(dir, 'model', 'price', 'm', '--input', '1000001', '--output', '1')).code, 2, 'a price above $1,000,000 per million');

    // No other path can write such a balance either: the store itself refuses it.
    const { DatabaseSync } = await import('node:sqlite');
    const db = new DatabaseSync(resolve(dir, 'gateway.db'));
    try {
      assert.throws(() => db.prepare('UPDATE accounts SET balance = 9007199254000000 WHERE name = ?').run('big'), /balance must be whole micro-USD from 0 to 1000000000000000/);
      assert.throws(() => db.prepare("INSERT INTO accounts (name, balance, created_at) VALUES ('x', 1000000000000001, 0)").run(), /balance must be whole micro-USD from 0 to 1000000000000000/);
    } finally {
      db.close();
    }
    assert.match((await cli(dir, 'account', 'show', 'big')).stdout, /balance \$1,000,000,000\.00,/);
  });

  it('wrong arguments: a clear message on stderr and a non-zero exit', async () => {
    const cases: string[][] = [
      [], ['bogus'], ['key', 'create', '--account', 'x'], ['model', 'price', 'm', '--input', '1e3', '--output', '1'],
      ['model', 'price', 'm', '--input', '-1', '--output', '1'], ['account', 'topup', 'a'], ['channel', 'add', '--name', 'x', '--type', 'grpc', '--models', 'm'],
      ['channel', 'add', '--name', 'x', '--models', 'm'], ['serve', '--port', 'abc'], ['logs', '--limit', 'x'], ['key', 'list', '--balance', '3'], ['--nope'],
    ];
    for (const args of cases) {
      const run = await cli(dir, ...args);
      assert.notEqual(run.code, 0, `${args.join(' ')} should fail`);
      assert.match(run.stderr, /model-gateway|Usage/, `${args.join(' ')} explains on stderr`);
      assert.equal(run.stdout, '');
    }
    assert.equal((await cli(dir, 'account', 'show', 'nobody')).code, 1);

    // Each mistake is named by its flag, with what is accepted.
    await cli(dir, 'account', 'create', 'a');
    const named: Array<[string[], RegExp]> = [
      [['channel', 'add', '--name', 'x', '--base-url', 'http://h/v1', '--models', 'm', '--map', 'a=b=c'], /--map takes PLATFORM=UPSTREAM \(one "="\), got "a=b=c"/],
      [['channel', 'add', '--name', 'x', '--base-url', 'ftp://h/v1', '--models', 'm'], /--base-url must be an http:\/\/ or https:\/\/ URL/],
      [['channel', 'add', '--name', 'x', '--base-url', 'http://h/v1', '--proxy', 'socks5://p:1', '--models', 'm'], /--proxy must be an http:\/\/ or https:\/\/ URL/],
      [['key', 'create', '--account', 'a', '--name', 'k', '--expires', '2020-01-01'], /--expires is in the past \(2020-01-01T00:00:00\.000Z\)/],
      [['key', 'create', '--account', 'a', '--name', 'k', '--expires', 'next tuesday'], /--expires must be an ISO-8601 date or date-time/],
      [['key', 'create', '--account', 'a', '--name', 'k', '--expires', '12/31/2099'], /--expires must be an ISO-8601/],
      [['serve', '--port', '99999'], /--port must be a whole number from 0 to 65535, got "99999"/],
      [['serve', '--stop-grace-ms', 'soon'], /--stop-grace-ms must be a whole number/],
      [['account', 'create', 'x'.repeat(5000)], /account NAME must be 1 to 64 letters.*…"/],
      [['key', 'create', '--account', 'a', '--name', 'has space'], /--name must be 1 to 64 letters/],
      [['channel', 'add', '--name', 'ok', '--base-url', 'http://h/v1', '--models', 'm'.repeat(300)], /--models must be printable text of at most 256/],
      [['model', 'price', 'bad\u0007name', '--input', '1', '--output', '1'], /MODEL must be printable text/],
      // Empty values from an unset shell variable: never read as "every model", "every interface" or "the other store".
      [['key', 'create', '--account', 'a', '--name', 'k2', '--models', ''], /--models is empty/],
      [['key', 'create', '--account', 'a', '--name', 'k2', '--models', ',,'], /--models is empty/],
      [['serve', '--host', ''], /--host is empty/],
      [['--database', '', 'key', 'list'], /--database is empty/],
      [['key', 'create', '--account', 'a', '--name', 'k3', '--expires', '2099-01-01T00:00:00+25:00'], /\+25:00 is not a time zone's offset/],
      // A word too many is a mistake said, never dropped ("1 000" added $1; a second name was left alone).
      [['account', 'topup', 'a', '1', '000'], /account topup takes 2 words after it, got also "000" \(quote a value with spaces\)/],
      [['key', 'delete', 'k9', 'k10'], /key delete takes 1 word after it, got also "k10"/],
      [['key', 'list', 'all'], /key list takes no words after it, got also "all"/],
      [['logs', 'prune', '--before', '2020-01-01', 'now'], /logs prune takes no words after it/],
    ];
    for (const [args, says] of named) {
      const run = await cli(dir, ...args);
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, says);
    }
    assert.equal((await cli(dir, 'key', 'create', '--account', 'a', '--name', 'later', '--expires', '2099-12-31')).code, 0, 'a date alone is fine');
    // A mistyped data folder is no new, empty gateway: a command that only reads or changes what is there refuses it.
    const typo = join(dir, 'typo');
    for (const args of [['backup', join(dir, 'copy.db')], ['key', 'list'], ['logs'], ['account', 'topup', 'a', '1'], ['channel', 'test', 'x']]) {
      const run = await cli(typo, ...args);
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, /there is no gateway in .*typo \(no gateway\.db there\): check --data/);
    }
    assert.equal(existsSync(typo), false, 'nothing was made there');
    assert.equal(existsSync(join(dir, 'copy.db')), false);
    assert.match((await cli(dir, '--help')).stdout, /0 = unlimited/);

    const help = await cli(dir, '--help');
    assert.equal(help.code, 0);
    assert.match(help.stdout, /key create --account NAME --name KEYNAME/);
  });
});
