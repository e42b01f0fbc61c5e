// `model-gateway serve` as users run it: the bundled CLI (dist/cli.cjs) in a process of its own on
// port 0, its address read from what it prints; and the admin commands through main(argv) beside it.
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { startFakeUpstream, type FakeBehaviour, type FakeUpstream } from '../../support/fakeUpstream.ts';
import { freshDatabase } from '../../support/postgres.ts';
import { tempDir } from './helpers.ts';
import { main } from '../../../src/gateway/cli.ts';
import { startGateway, type RunningGateway } from '../../../src/gateway/server.ts';

export const ROOT = resolve(import.meta.dirname, '../../..');

export interface Served {
  readonly child: ChildProcessWithoutNullStreams;
  /** Its address (stop() does nothing: end the process). */
  readonly gw: RunningGateway;
  readonly output: () => string;
  readonly exited: Promise<number | null>;
}

/** Starts `dist/cli.cjs serve --port 0 ...args`; resolves once it listens, rejects if it exits first. */
export function serveProcess(args: string[], env: NodeJS.ProcessEnv): Promise<Served> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [resolve(ROOT, 'dist/cli.cjs'), 'serve', '--port', '0', ...args], { env });
    let output = '';
    const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:(\d+))/.exec(output);
      if (match) done({ child, gw: { url: match[1]!, host: '127.0.0.1', port: Number(match[2]), storeKind: 'postgres', chatModel: null, stop: async () => undefined }, output: () => output, exited });
    });
    void exited.then((code) => fail(new Error(`serve exited (${code}) before listening: ${output}`)));
  });
}

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * A CLI command in process through main(argv, io), as the binary runs it: what it printed and its exit code.
 * `env` over the process's, with no data folder or database of the environment's unless given.
 */
export async function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io = { out: (line: string) => void (stdout += `${line}\n`), err: (line: string) => void (stderr += `${line}\n`) };
  const code = await main(args, io, { ...process.env, MODEL_GATEWAY_DATA: '', MODEL_GATEWAY_DATABASE_URL: '', ...env });
  return { code, stdout, stderr };
}

/**
 * For a suite of CLI tests beside a running gateway: a bootstrapped gateway in process on a data folder of the
 * suite's own (before), stopped and removed after; `ready` gets the folder and the gateway (and may set up more).
 */
export function besideGateway(ready: (dir: string, gw: RunningGateway) => void | Promise<void>): void {
  let dir = '';
  let gw: RunningGateway | null = null;
  before(async () => {
    dir = tempDir();
    gw = await startGateway({ dataDir: dir, port: 0, bootstrap: true, echoDelayMs: 0 });
    await ready(dir, gw);
  });
  after(async () => {
    await gw?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
}

/** A CLI command through main(argv) with `env`; fails the test unless it exits 0. Returns what it printed. */
export async function cliWith(env: NodeJS.ProcessEnv, ...args: string[]): Promise<string> {
  const { code, stdout, stderr } = await runCli(args, env);
  assert.equal(code, 0, `${args.join(' ')}: ${stderr}`);
  return stdout;
}

/** `serve --database` processes on a database of their own, with a fake upstream behind channel "up" and account "team" ($100). */
export interface Instances {
  readonly url: string;
  readonly env: NodeJS.ProcessEnv;
  readonly upstream: FakeUpstream;
  readonly started: Served[];
  /** A CLI command on the database; fails the test unless it exits 0. */
  cli(...args: string[]): Promise<string>;
  /** SIGTERM to every instance still running, then the upstream and the data folder go. */
  stop(): Promise<void>;
}

/** `count` instances serving `model` (priced `input` and `output` USD per million tokens) from one fake upstream. */
export async function startInstances(count: number, model: string, input: string, output: string, behaviour: FakeBehaviour = {}): Promise<Instances> {
  const upstream = await startFakeUpstream(behaviour);
  const dir = tempDir();
  const url = await freshDatabase();
  const env = { ...process.env, MODEL_GATEWAY_DATA: dir, MODEL_GATEWAY_SECRET_KEY: randomBytes(32).toString('base64'), MODEL_GATEWAY_ECHO_DELAY_MS: '0' };
  const cli = (...args: string[]): Promise<string> => cliWith({ ...env, MODEL_GATEWAY_DATABASE_URL: url }, ...args);
  await cli('channel', 'add', '--name', 'up', '--base-url', upstream.url, '--api-key', 'sk-upstream-secret-1', '--models', model);
  await cli('model', 'price', model, '--input', input, '--output', output);
  await cli('account', 'create', 'team', '--balance', '100');
  const started: Served[] = [];
  for (let i = 0; i < count; i++) started.push(await serveProcess(['--database', url], env));
  return {
    url, env, upstream, started, cli,
    async stop() {
      for (const s of started.splice(0)) {
        if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGTERM');
        await s.exited;
      }
      await upstream.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
