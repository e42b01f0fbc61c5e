/**
 * The `long` case (issue 12): 1,000 streams held open for seconds, the way long answers load a real
 * gateway, on a gateway just started as `model-gateway serve` starts it (its own data folder, no load
 * before), and on a floor proxy just started beside it. RSS is sampled while every stream is open
 * (from the moment all have their first byte until well before the first can end); the process's
 * whole-life peak (VmHWM) is reported too.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { peakRss, startChild, stopChild, type Child } from './children.ts';
import { holdStreams, type HoldResult, type Target } from './load.ts';
import { checkBookkeeping, holdModel, setUpGateway, type Bookkeeping } from './setup.ts';

export interface LongPlan {
  readonly streams: number;
  readonly chunks: number;
  readonly delayMs: number;
}

export interface LongTargetResult extends HoldResult {
  /** Highest RSS sampled while every stream was open. */
  readonly rssWhileOpenBytes: number;
  /** The process's peak RSS over its whole life (start-up and the streams' end included). */
  readonly lifePeakRssBytes: number | null;
}

export interface LongResult {
  readonly plan: LongPlan;
  readonly floor: LongTargetResult;
  readonly gateway: LongTargetResult;
  readonly bookkeeping: Bookkeeping;
}

export interface LongSetup {
  readonly upstreamUrl: string;
  readonly cliPath: string;
  /** The floor and gateway children's scripts (bundled like dist/cli.cjs). */
  readonly floorScript: string;
  readonly gatewayScript: string;
  readonly env: Record<string, string>;
  readonly execArgv: readonly string[];
}

export function longModel(plan: LongPlan): string {
  return holdModel(plan.chunks, plan.delayMs);
}

function rssOf(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

async function hold(child: Child, target: Target, plan: LongPlan): Promise<LongTargetResult> {
  const pid = child.proc.pid!;
  const body = JSON.stringify({ model: longModel(plan), messages: [{ role: 'user', content: 'Tell me a long story.' }], stream: true, stream_options: { include_usage: true } });
  // No stream can end before (chunks - 1) delays after the first was asked for: sampling stops half a second before that.
  const until = performance.now() + (plan.chunks - 1) * plan.delayMs - 500;
  let rssWhileOpen = 0;
  const result = await holdStreams(target, {
    path: '/v1/chat/completions',
    body,
    streams: plan.streams,
    maxMs: Math.max(2_000, (plan.chunks * plan.delayMs) / 2),
    onAllOpen: async () => {
      do {
        rssWhileOpen = Math.max(rssWhileOpen, rssOf(pid));
        await new Promise((r) => setTimeout(r, 100));
      } while (performance.now() < until);
    },
  });
  return { ...result, rssWhileOpenBytes: rssWhileOpen, lifePeakRssBytes: peakRss(pid) };
}

export async function measureLongStreams(setup: LongSetup, plan: LongPlan): Promise<LongResult> {
  const floorChild = await startChild('long-floor', setup.floorScript, { env: { UPSTREAM: setup.upstreamUrl }, execArgv: [...setup.execArgv] });
  let floor: LongTargetResult;
  try {
    floor = await hold(floorChild, { name: 'floor', origin: floorChild.url, headers: {} }, plan);
  } finally {
    await stopChild(floorChild, false);
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'gateway-bench-long-'));
  const { key } = setUpGateway(setup.cliPath, { dataDir }, setup.upstreamUrl, [longModel(plan)]);
  const gatewayChild = await startChild('long-gateway', setup.gatewayScript, { env: { ...setup.env, DATA_DIR: dataDir }, execArgv: [...setup.execArgv] });
  let gateway: LongTargetResult;
  try {
    gateway = await hold(gatewayChild, { name: 'gateway', origin: gatewayChild.url, headers: { authorization: `Bearer ${key}` } }, plan);
  } finally {
    await stopChild(gatewayChild, true);
  }
  return { plan, floor, gateway, bookkeeping: await checkBookkeeping(join(dataDir, 'gateway.db'), plan.streams) };
}
