// A full disk (a small tmpfs: the CI runs as root) and then a kill -9: the gateway fails closed. While
// its store cannot write it refuses billable requests (503 store_unavailable) and /api/status says so,
// it tells the operator once, it recovers by itself when space comes back, and no charge it answered
// for is lost: the logs add up to the balance after the kill.
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openStore } from '../../../src/gateway/store/index.ts';
import { poll } from '../../support/poll.ts';
import { call, chatBody } from './helpers.ts';
import type { RunningGateway } from '../../../src/gateway/server.ts';

const CLI = resolve(import.meta.dirname, '../../../src/gateway/cli.ts');

/** Fills the file system of `dir` with one file; returns its path. */
function fill(dir: string): string {
  const file = join(dir, 'filler');
  const fd = openSync(file, 'w');
  const block = Buffer.alloc(64 * 1024, 1);
  try {
    for (let i = 0; i < 1000; i++) writeSync(fd, block);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
  return file;
}

/** `model-gateway serve` on `dir` in a process of its own, bootstrapped: its URL, key and standard error so far. */
async function serveOn(dir: string) {
  const child = spawn(process.execPath, [CLI, 'serve', '--data', dir, '--port', '0'], { env: { ...process.env, MODEL_GATEWAY_ECHO_DELAY_MS: '0' } });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((done) => child.on('close', (code, signal) => done(code ?? (signal ? -1 : null))));
  try {
    const url = await poll('the gateway to listen', () => /listening on (http:\/\/\S+)/.exec(out)?.[1], 10_000, 20);
    const key = /API key \(shown once\): (sk-\S+)/.exec(out)![1]!;
    return { child, exited, gw: { url } as RunningGateway, key, stderr: () => err };
  } catch (error) {
    await stopNow(child, exited);
    throw error;
  }
}

/** A kill -9, if it still runs. */
async function stopNow(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await exited;
}

describe('a full disk, then kill -9', () => {
  let mount: string;
  before(() => {
    mount = mkdtempSync(join(tmpdir(), 'full-disk-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mount]);
  });
  after(() => {
    execFileSync('umount', [mount]);
    rmSync(mount, { recursive: true, force: true });
  });

  it('a kill while the disk is still full loses no charge answered before it filled: the spare room takes them', async () => {
    const dir = join(mount, 'kept');
    const { child, exited, gw, key, stderr } = await serveOn(dir);
    let filler: string | null = null;
    try {
      // Answered just before the disk fills: its batch is written a few milliseconds later, onto a full disk.
      const first = await call(gw, 'POST', '/v1/chat/completions', { key, body: chatBody() });
      assert.equal(first.status, 200);
      const served = [first.headers.get('x-request-id')!];
      filler = fill(mount);
      // And any answered before the failure was known: asked until the gateway refuses.
      await poll('a refusal once the writes fail', async () => {
        const answer = await call(gw, 'POST', '/v1/chat/completions', { key, body: chatBody() });
        if (answer.status === 200) served.push(answer.headers.get('x-request-id')!);
        return answer.status === 503 ? answer : undefined;
      }, 10_000, 5);
      await poll('the waiting batch written in the spare room', () => (/written again, in the disk's spare room/.test(stderr()) ? true : undefined), 5000, 20);
      assert.equal((await call(gw, 'GET', '/api/status')).json.success, false, 'still refusing: the disk has no room');

      child.kill('SIGKILL');
      await exited;
      rmSync(filler);
      filler = null;
      const store = openStore({ dataDir: dir });
      try {
        const logs = await store.listLogs(1000);
        for (const id of served) assert.ok(logs.some((l) => l.requestId === id && l.status === 200), `request ${id}, answered 200 as the disk filled, is logged`);
        const logged = logs.reduce((sum, l) => sum + l.cost, 0);
        assert.equal(10_000_000 - (await store.getAccount('local'))!.balance, logged, 'the logs add up to the balance');
      } finally {
        await store.close();
      }
    } finally {
      await stopNow(child, exited);
      if (filler) rmSync(filler);
    }
  });

  it('without room for its spare (a disk nearly full at start, the spare deleted by hand) it refuses billable requests until there is', async () => {
    const dir = join(mount, 'tight');
    const { child, exited, gw, key, stderr } = await serveOn(dir);
    let filler: string | null = null;
    try {
      const spare = join(dir, 'gateway.spare');
      assert.ok(existsSync(spare), 'made at start');
      assert.equal((await call(gw, 'POST', '/v1/chat/completions', { key, body: chatBody() })).status, 200);
      // Deleted by hand while there is room: made again after the next batch, nothing refused.
      rmSync(spare);
      assert.equal((await call(gw, 'POST', '/v1/chat/completions', { key, body: chatBody() })).status, 200);
      await poll('the spare made again', () => (existsSync(spare) ? true : undefined), 5000, 20);
      // Deleted when the disk has no room to make it again: billable requests wait for room.
      filler = fill(mount);
      rmSync(spare);
      const refused = await poll('a refusal for want of the spare', async () => {
        const answer = await call(gw, 'POST', '/v1/chat/completions', { key, body: chatBody() });
        return answer.status === 503 ? answer : undefined;
      }, 10_000, 20);
      assert.equal(refused.json.error.code, 'store_unavailable');
      assert.match(stderr(), /disk spare of the data folder is gone and there is no room to make it again/);
      rmSync(filler);
      filler = null;
      await poll('requests accepted again', async () => ((await call(gw, 'POST', '/v1/chat/completions', { key, body: chatBody() })).status === 200 ? true : undefined), 10_000, 50);
      assert.ok(existsSync(spare));
    } finally {
      await stopNow(child, exited);
      if (filler) rmSync(filler);
    }
  });

  it('refuses billable requests while it cannot write, says so once, recovers by itself, and loses no charge', async () => {
    const dir = join(mount, 'data');
    const { child, exited, gw, key, stderr } = await serveOn(dir);
    try {
      const served: string[] = [];
      const ask = async () => {
        const answer = await call(gw, 'POST', '/v1/chat/completions', { key, body: chatBody() });
        if (answer.status === 200) served.push(answer.headers.get('x-request-id')!);
        return answer;
      };
      for (let i = 0; i < 3; i++) assert.equal((await ask()).status, 200);

      const filler = fill(mount);
      assert.ok(statfsSync(mount).bavail * statfsSync(mount).bsize < 64 * 1024, 'the disk is full');
      const refused = await poll('a refusal once the writes fail', async () => {
        const answer = await ask();
        return answer.status === 503 ? answer : undefined;
      }, 10_000, 20);
      assert.equal(refused.json.error.code, 'store_unavailable');
      assert.equal(refused.headers.get('retry-after'), '5');
      const status = (await call(gw, 'GET', '/api/status')).json;
      assert.equal(status.success, false);
      assert.match(status.message, /cannot write its store/);
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal(stderr().match(/request logs cannot be written/g)?.length, 1, `said once, not at every retry:\n${stderr()}`);

      rmSync(filler);
      await poll('recovery', async () => ((await call(gw, 'GET', '/api/status')).json.success === true ? true : undefined), 10_000, 50);
      assert.match(stderr(), /request logs are written again, in the disk's spare room/);
      assert.match(stderr(), /disk has room again: billable requests are accepted again/);
      for (let i = 0; i < 3; i++) assert.equal((await ask()).status, 200);
      await new Promise((r) => setTimeout(r, 300)); // the log writer's batch delay

      child.kill('SIGKILL');
      await exited;
      const store = openStore({ dataDir: dir });
      try {
        const logs = (await store.listLogs(1000)).filter((l) => l.path === '/v1/chat/completions');
        for (const id of served) assert.ok(logs.some((l) => l.requestId === id && l.status === 200), `request ${id} answered 200 is logged`);
        assert.ok(!logs.some((l) => l.errorCode === 'store_unavailable'), 'the refusals took no room on the full disk');
        assert.match(stderr(), /\d+ refused meanwhile, not logged/, 'they are counted for the operator');
        const account = (await store.getAccount('local'))!;
        const logged = logs.reduce((sum, l) => sum + l.cost, 0);
        assert.equal(10_000_000 - account.balance, logged, 'the logs add up to the balance');
        assert.equal(account.totalSpent, logged);
      } finally {
        await store.close();
      }
    } finally {
      await stopNow(child, exited);
    }
  });
});
