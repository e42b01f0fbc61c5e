// `model-gateway serve` as users run it: the bundled CLI (dist/cli.cjs) in a process of its own on
// port 0, its address read from what it prints; and the admin commands through main(argv) beside it.
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { resolve } from 'node:path';
import { main } from '../../../src/gateway/cli.ts';
import type { RunningGateway } from '../../../src/gateway/server.ts';

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
      if (match) done({ child, gw: { url: match[1]!, host: '127.0.0.1', port: Number(match[2]), storeKind: 'postgres', stop: async () => undefined }, output: () => output, exited });
    });
    void exited.then((code) => fail(new Error(`serve exited (${code}) before listening: ${output}`)));
  });
}

/** A CLI command through main(argv) with `env`; fails the test unless it exits 0. Returns what it printed. */
export async function cliWith(env: NodeJS.ProcessEnv, ...args: string[]): Promise<string> {
  let out = '';
  let err = '';
  const code = await main(args, { out: (line) => void (out += `${line}\n`), err: (line) => void (err += `${line}\n`) }, env);
  assert.equal(code, 0, `${args.join(' ')}: ${err}`);
  return out;
}
