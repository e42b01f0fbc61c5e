// `model-gateway serve` as a separate process on a data folder: the listening line, signals, one gateway per
// folder, a busy port, the first-admin setup link, a user disabled beside it; the other commands in process
// through main(argv, io) beside it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { connect, createServer, type AddressInfo } from 'node:net';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { call, chatBody, tempDir } from './helpers.ts';
import { assertError } from '../../support/answer.ts';
import { poll } from '../../support/poll.ts';
import type { RunningGateway } from '../../../src/gateway/server.ts';
import { main } from '../../../src/gateway/cli.ts';
import { runCli, serveProcess, type CliRun } from './serveProcess.ts';
import { startGateway } from '../../../src/gateway/server.ts';

const CLI = resolve(import.meta.dirname, '../../../src/gateway/cli.ts');

/** A CLI command in process on the test's data folder: `main(argv, io)` is what the `model-gateway` binary runs. */
const cli = (dir: string, ...args: string[]): Promise<CliRun> => runCli(['--data', dir, ...args]);

interface Served {
  readonly child: ChildProcessWithoutNullStreams;
  readonly gw: RunningGateway;
  readonly output: () => string;
  readonly exited: Promise<number | null>;
}

/** Starts `serve --port 0` and resolves once it printed its listening line. */
function serve(dir: string): Promise<Served> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI, 'serve', '--data', dir, '--port', '0', '--host', '127.0.0.1'], { env: { ...process.env, MODEL_GATEWAY_ECHO_DELAY_MS: '0' } });
    let stdout = '';
    let stderr = '';
    const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:(\d+))/.exec(stdout);
      if (match) {
        const gw = { url: match[1]!, host: '127.0.0.1', port: Number(match[2]), storeKind: 'sqlite', stop: async () => undefined } as RunningGateway;
        done({ child, gw, output: () => stdout, exited });
      }
    });
    void exited.then((code) => fail(new Error(`serve exited (${code}) before listening: ${stdout}${stderr}`)));
  });
}

describe('model-gateway serve', () => {
  let dir: string;
  beforeEach(() => (dir = tempDir()));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a second Ctrl-C while stopping does not cut the answers in flight: they finish whole, are logged, and serve exits 0', async () => {
    // Killed at once by a second signal, it lost the streams in flight and the charges of their unwritten log rows.
    const served = await serveProcess(['--data', dir], { ...process.env, MODEL_GATEWAY_ECHO_DELAY_MS: '15' });
    const key = /API key \(shown once\): (sk-\S+)/.exec(served.output())![1]!;
    const long = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    const streams = Array.from({ length: 3 }, () => call(served.gw, 'POST', '/v1/chat/completions', { key, body: chatBody('echo', long, { stream: true }) }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    served.child.kill('SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 50));
    served.child.kill('SIGINT');
    const finished = await Promise.all(streams);
    assert.equal(await served.exited, 0);
    assert.match(served.output(), /SIGINT: stopping gracefully[\s\S]*SIGINT: already stopping[\s\S]*stopped/);
    const logged = (await cli(dir, 'logs', '--json', '--limit', '100')).stdout;
    for (const answer of finished) {
      assert.equal(answer.status, 200);
      assert.match(answer.text, /data: \[DONE\]\n\n$/, 'whole, not cut by the second signal');
      assert.ok(logged.includes(answer.headers.get('x-request-id')!), 'and logged, with its charge');
    }
  });

  it('serve bootstraps an empty folder, prints the listening line and a working key; CLI changes apply to the running server; SIGTERM loses no log', async () => {
    const served = await serve(dir);
    try {
      const key = /API key \(shown once\): (sk-\S+)/.exec(served.output())?.[1];
      assert.ok(key, served.output());
      assert.equal((await call(served.gw, 'POST', '/v1/chat/completions', { key, body: chatBody() })).status, 200);

      // key create prints the key alone on stdout.
      const created = await cli(dir, 'account', 'create', 'team', '--balance', '0');
      assert.equal(created.code, 0, created.stderr);
      const made = await cli(dir, 'key', 'create', '--account', 'team', '--name', 'team-key');
      assert.equal(made.code, 0, made.stderr);
      assert.match(made.stdout, /^sk-[A-Za-z0-9_-]{32,}\n$/);
      const teamKey = made.stdout.trim();

      assertError(await call(served.gw, 'POST', '/v1/chat/completions', { key: teamKey, body: chatBody() }), 403, 'insufficient_balance');
      assert.equal((await cli(dir, 'account', 'topup', 'team', '0.50')).code, 0);
      assert.equal((await call(served.gw, 'POST', '/v1/chat/completions', { key: teamKey, body: chatBody() })).status, 200);

      assertError(await call(served.gw, 'POST', '/v1/chat/completions', { key: teamKey, body: chatBody('parrot') }), 404, 'model_not_found');
      const added = await cli(dir, 'channel', 'add', '--name', 'parrot', '--type', 'echo', '--models', 'parrot');
      assert.equal(added.code, 0);
      assert.match(added.stderr, /warning: no price yet for parrot: not served until priced/);
      // A model with a channel but no price is not served (never free by accident), and the answer says how to fix it.
      const unpriced = await call(served.gw, 'POST', '/v1/chat/completions', { key: teamKey, body: chatBody('parrot') });
      assertError(unpriced, 403, 'model_not_priced');
      assert.match(unpriced.json.error.message, /"parrot".*model-gateway model price parrot/);
      assert.ok(!(await call(served.gw, 'GET', '/v1/models', { key: teamKey })).json.data.some((m: { id: string }) => m.id === 'parrot'), 'not listed either');
      const free = await cli(dir, 'model', 'price', 'parrot', '--free');
      assert.match(free.stdout, /"parrot" \(chat\): free, on purpose/);
      assert.equal((await call(served.gw, 'POST', '/v1/chat/completions', { key: teamKey, body: chatBody('parrot') })).status, 200);
      assert.equal((await cli(dir, 'model', 'price', 'parrot', '--free', '--input', '1')).code, 2, '--free takes no prices');

      assert.equal((await cli(dir, 'key', 'disable', 'team-key')).code, 0);
      assertError(await call(served.gw, 'GET', '/v1/models', { key: teamKey }), 403, 'key_disabled');

      const ids = await Promise.all(
        Array.from({ length: 25 }, async (_, i) => (await call(served.gw, 'POST', '/v1/chat/completions', { key, body: chatBody('echo', `last ${i}`) })).headers.get('x-request-id')!),
      );
      served.child.kill('SIGTERM');
      assert.equal(await served.exited, 0);

      const logs = await cli(dir, 'logs', '--json', '--limit', '1000');
      assert.equal(logs.code, 0, logs.stderr);
      const rows = logs.stdout.trim().split('\n').map((line) => JSON.parse(line) as { requestId: string; keyName: string | null });
      for (const id of ids) assert.ok(rows.some((r) => r.requestId === id), `log of ${id} kept after SIGTERM`);
      assert.ok(!logs.stdout.includes(key) && !logs.stdout.includes(teamKey), 'no secret in the logs');
      const text = await cli(dir, 'logs', '--limit', '3');
      assert.equal(text.stdout.trim().split('\n').length, 3);

      const shown = await cli(dir, 'account', 'show', 'team');
      assert.match(shown.stdout, /balance \$0\.49/);
    } finally {
      if (served.child.exitCode === null) served.child.kill('SIGKILL');
    }
  });

  it("a user disabled with the CLI beside serve: their account's key is refused on the very next request, and served again once they are enabled", async () => {
    const served = await serve(dir);
    try {
      const io = { out: () => undefined, err: () => undefined, readSecret: async () => 'a long enough password' };
      assert.equal(await main(['--data', dir, 'user', 'create', 'ada'], io, {}), 0);
      assert.equal((await cli(dir, 'account', 'topup', 'ada', '1')).code, 0);
      const made = await cli(dir, 'key', 'create', '--account', 'ada', '--name', 'ada-key');
      assert.equal(made.code, 0, made.stderr);
      const key = made.stdout.trim();
      assert.equal((await call(served.gw, 'POST', '/v1/chat/completions', { key, body: chatBody() })).status, 200);

      const disabled = await cli(dir, 'user', 'disable', 'ada');
      assert.match(disabled.stdout, /user "ada" disabled: their sessions ended; 1 API key stopped working/);
      const refused = await call(served.gw, 'POST', '/v1/chat/completions', { key, body: chatBody() });
      assertError(refused, 403, 'key_disabled');
      assert.match(refused.json.error.message, /This key's user "ada" is disabled; an admin can enable them \(model-gateway user enable ada\)/);
      assert.equal((await cli(dir, 'user', 'enable', 'ada')).code, 0);
      assert.equal((await call(served.gw, 'POST', '/v1/chat/completions', { key, body: chatBody() })).status, 200);
    } finally {
      served.child.kill('SIGKILL');
      await served.exited;
    }
  });

  it('one gateway per data folder: a second serve is refused naming the first (pid, address); a dead one\'s lock is taken over', async () => {
    const first = await serve(dir);
    try {
      const second = await serve(dir).then(
        () => assert.fail('a second serve on the same folder must not start'),
        (error: Error) => error.message,
      );
      assert.match(second, new RegExp(`serve exited \\(1\\).*another Model Gateway \\(pid ${first.child.pid}, at ${first.gw.url.replace(/\./g, '\\.')}\\) is serving`, 's'));
      assert.equal((await call(first.gw, 'GET', '/api/status')).status, 200, 'the first one serves on');
      await assert.rejects(startGateway({ dataDir: dir, port: 0 }), /another Model Gateway/);
    } finally {
      first.child.kill('SIGKILL');
      await first.exited;
    }
    const after = await serve(dir);
    after.child.kill('SIGTERM');
    assert.equal(await after.exited, 0);
    assert.ok(!existsSync(join(dir, 'gateway.lock')), 'a clean stop removes its lock');
  });

  it('several serve processes started at once on one folder: exactly one serves, the others are refused', async () => {
    const starting = Array.from({ length: 4 }, () => serve(dir).then((s) => s, (error: Error) => error));
    const outcomes = await Promise.all(starting);
    const serving = outcomes.filter((o): o is Awaited<ReturnType<typeof serve>> => !(o instanceof Error));
    try {
      assert.equal(serving.length, 1, `one serves: ${outcomes.map((o) => (o instanceof Error ? o.message.slice(0, 120) : 'serving')).join(' | ')}`);
      for (const o of outcomes) if (o instanceof Error) assert.match(o.message, /another Model Gateway \(.*\) is serving/);
      // What a second process found when it looked between the first one's creating gateway.lock and writing
      // its pid there (an empty file), or a lock file lost altogether: the folder is still the first one's.
      for (const state of ['empty', 'gone'] as const) {
        if (state === 'empty') writeFileSync(join(dir, 'gateway.lock'), '');
        else rmSync(join(dir, 'gateway.lock'), { force: true });
        const late = await serve(dir).then(() => 'serving', (error: Error) => error.message);
        assert.match(late, /another Model Gateway \(just starting\) is serving/, `with the lock file ${state}`);
      }
    } finally {
      for (const s of serving) {
        s.child.kill('SIGTERM');
        await s.exited;
      }
    }
  });

  it('serve whose standard output goes away (serve | head -2) serves on and stops cleanly', async () => {
    const port = await new Promise<number>((done) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as AddressInfo;
        probe.close(() => done(free));
      });
    });
    const child = spawn(process.execPath, [CLI, 'serve', '--data', dir, '--port', String(port), '--host', '127.0.0.1'], { env: { ...process.env, MODEL_GATEWAY_ECHO_DELAY_MS: '0' } });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // The reader is gone before the first line: every line serve prints meets a closed pipe.
    child.stdout.destroy();
    const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    try {
      await poll('serve answers', async () => (await fetch(`http://127.0.0.1:${port}/api/status`).then((r) => r.status, () => 0)) === 200 || undefined, 15_000, 50);
    } finally {
      child.kill('SIGTERM');
    }
    assert.equal(await exited, 0, stderr);
    assert.doesNotMatch(stderr, /EPIPE/);
  });

  it('serve takes the hardening limits as flags: a 1 s request deadline answers a stalled body with 408 after about that; a bad value is refused', async () => {
    const bad = await runCli(['--data', dir, 'serve', '--port', '0', '--body-memory-mb', '0']);
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /--body-memory-mb must be a whole number from 1/);
    const served = await new Promise<{ child: ChildProcessWithoutNullStreams; url: string; key: string }>((done, fail) => {
      const child = spawn(process.execPath, [CLI, 'serve', '--data', dir, '--port', '0', '--request-deadline-ms', '1000', '--max-answer-mb', '8', '--max-event-kb', '64', '--max-connections', '50'], { env: { ...process.env } });
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        const key = /sk-[A-Za-z0-9_-]{16,}/.exec(out);
        if (m && key) done({ child, url: m[1]!, key: key[0] });
      });
      child.on('close', (code) => fail(new Error(`serve exited (${code}): ${out}`)));
    });
    try {
      const { hostname, port } = new URL(served.url);
      const started = Date.now();
      const answer = await new Promise<string>((done) => {
        let text = '';
        const socket = connect(Number(port), hostname, () => socket.write(`POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${served.key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`));
        socket.on('data', (d) => (text += d.toString()));
        socket.on('close', () => done(text));
        socket.on('error', () => undefined);
      });
      const waited = Date.now() - started;
      assert.match(answer, /^HTTP\/1\.1 408/);
      assert.match(answer, /"code":"request_timeout"/);
      assert.ok(waited < 10_000, `answered after the 1 s deadline, not the default 30 s (${waited} ms)`);
    } finally {
      served.child.kill('SIGTERM');
    }
  });

  it('serve on a busy port says so and what to try; when ready it prints the next steps', async () => {
    const first = await serve(dir);
    try {
      const port = first.gw.port;
      let stderr = '';
      const other = tempDir();
      const code = await main(['--data', other, 'serve', '--port', String(port)], { out: () => undefined, err: (l) => void (stderr += l) }, {});
      rmSync(other, { recursive: true, force: true });
      assert.equal(code, 2);
      assert.match(stderr, new RegExp(`port ${port} is in use .*try --port ${port + 1}, or --port 0`));
      await poll('the next steps', async () => (first.output().includes('curl ') ? true : undefined), 5000, 20);
      assert.match(first.output(), /Next: open the console at http:\/\/127\.0\.0\.1:\d+\/ .*base URL http:\/\/127\.0\.0\.1:\d+\/v1/);
      assert.match(first.output(), /curl http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions -H "Authorization: Bearer sk-/);
    } finally {
      first.child.kill('SIGTERM');
      await first.exited;
    }
  });

  it('serve --metrics-port prints where Prometheus scrapes; a busy metrics port and --metrics-host alone are refused naming the flag', async () => {
    const alone = await runCli(['--data', dir, 'serve', '--port', '0', '--metrics-host', '0.0.0.0']);
    assert.equal(alone.code, 2, alone.stderr);
    assert.match(alone.stderr, /--metrics-host needs --metrics-port/);
    let stderr = '';
    assert.equal(await main(['--data', dir, 'serve', '--port', '0', '--metrics-port', '0'], { out: () => undefined, err: (l) => void (stderr += l) }, { MODEL_GATEWAY_METRICS_TOKEN: 'short' }), 2);
    assert.match(stderr, /MODEL_GATEWAY_METRICS_TOKEN must be at least 16 characters/);
    const badPort = await runCli(['--data', dir, 'serve', '--port', '0', '--metrics-port', '70000']);
    assert.equal(badPort.code, 2, badPort.stderr);
    assert.match(badPort.stderr, /--metrics-port must be a whole number/);
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const busy = (taken.address() as AddressInfo).port;
    try {
      let stderr = '';
      const code = await main(['--data', dir, 'serve', '--port', '0', '--metrics-port', String(busy)], { out: () => undefined, err: (l) => void (stderr += l) }, {});
      assert.equal(code, 2);
      assert.match(stderr, new RegExp(`--metrics-port ${busy} is in use`));
      assert.doesNotMatch(stderr, /try --port/, 'not the API port\'s advice');
    } finally {
      taken.close();
    }
    const child = spawn(process.execPath, [CLI, 'serve', '--data', dir, '--port', '0', '--metrics-port', '0'], { env: { ...process.env } });
    try {
      let out = '';
      const url = await new Promise<string>((done, fail) => {
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /Prometheus metrics at (http:\/\/127\.0\.0\.1:\d+\/metrics)/.exec(out);
          if (m) done(m[1]!);
        });
        child.on('close', (exit) => fail(new Error(`serve exited (${exit}): ${out}`)));
      });
      const scraped = await fetch(url);
      assert.equal(scraped.status, 200);
      assert.match(await scraped.text(), /^model_gateway_store_writable 1$/m);
    } finally {
      child.kill('SIGTERM');
    }
  });

  it("serve's curl line names a model it serves: on a folder made with the CLI, without echo, not echo", async () => {
    const made = tempDir();
    try {
      assert.equal((await cli(made, 'account', 'create', 'team', '--balance', '1')).code, 0);
      assert.equal((await cli(made, 'channel', 'add', '--name', 'up', '--base-url', 'http://127.0.0.1:9/v1', '--models', 'qwen3-coder')).code, 0);
      assert.equal((await cli(made, 'model', 'price', 'qwen3-coder', '--input', '1', '--output', '2')).code, 0);
      const served = await serve(made);
      try {
        await poll('the next steps', async () => (served.output().includes('curl ') ? true : undefined), 5000, 20);
        assert.match(served.output(), /"model":"qwen3-coder"/);
        assert.doesNotMatch(served.output(), /"model":"echo"/);
      } finally {
        served.child.kill('SIGTERM');
        await served.exited;
      }
    } finally {
      rmSync(made, { recursive: true, force: true });
    }
  });

  it('serve prints a one-time first-admin setup link (token in the #fragment) while there is no admin, and none once there is', async () => {
    const first = await serve(dir);
    try {
      await poll('the next steps', async () => (first.output().includes('curl ') ? true : undefined), 5000, 20);
      const links = [...first.output().matchAll(/http:\/\/127\.0\.0\.1:\d+\/#setup=[A-Za-z0-9_-]{43}/g)].map((m) => m[0]);
      assert.equal(links.length, 1, first.output());
      assert.ok(links[0]!.startsWith(`${first.gw.url}/#setup=`));
      assert.match(first.output(), /model-gateway user create NAME --admin/);
    } finally {
      first.child.kill('SIGTERM');
      await first.exited;
    }
    const { openStore } = await import('../../../src/gateway/store/index.ts');
    const { createUser } = await import('../../../src/gateway/accounts/users.ts');
    const store = openStore({ dataDir: dir });
    try {
      await createUser(store, { name: 'root', password: 'a good long password', admin: true });
    } finally {
      await store.close();
    }
    const second = await serve(dir);
    try {
      await poll('the next steps', async () => (second.output().includes('curl ') ? true : undefined), 5000, 20);
      assert.doesNotMatch(second.output(), /#setup=/);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  });
});
