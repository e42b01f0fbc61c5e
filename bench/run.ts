/**
 * `npm run bench`: the gateway side by side with the upstream called directly and with a plain
 * pass-through proxy (the floor), all on 127.0.0.1, each server in its own child process.
 *
 *   node bench/run.ts              full run (each measured load at most 15 s), prints the table,
 *                                  writes bench/results/bench-<time>.json and bench/results/latest.json
 *   node bench/run.ts --smoke      about a second per case; fails only when a case has errors
 *   --cases ns1,ns50,pg50,ttfb,paced,fim,hold,long   run only these cases (default: all); pg50 adds the gateway on an
 *                                  embedded PostgreSQL (1 and 3 instances) to ns50's rounds, or runs them with the
 *                                  SQLite gateway alone when ns50 is not asked for
 *   --only gateway                 measure only these targets (direct,floor,gateway,pg)
 *   --profile                      run the gateway children under --cpu-prof (profiles in bench/results/profiles)
 *   --keep                         keep the gateway's temp data folder
 *   --gateway-flags "--max-semi-space-size=8"   extra Node flags for the gateway child (experiments)
 *   --versus-flags "--no-maglev MALLOC_ARENA_MAX=1"   a second gateway child (target `versus`, its own data
 *                                  folder) with these Node flags and environment added, in the same ns50 rounds:
 *                                  a setting's cost measured side by side
 *   --from-source                  run the gateway child from the .ts sources, not bundled like dist/cli.cjs
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { memory, peakRss, procCpuSeconds, resetPeakRss, startChild, stats, stopChild, killAll, type Child } from './children.ts';
import { holdStreams, mergeRuns, runLoad, type HoldResult, type LoadResult, type LoadSpec, type Target } from './load.ts';
import { bundled, gitCommit } from './bundle.ts';
import { MODELS, checkBookkeeping, checkPostgresBookkeeping, holdModel, setUpGateway } from './setup.ts';
import { freshDatabase, postgresServerPid, stopPostgres } from '../test/support/postgres.ts';
import { completionPath } from './completion.ts';
import { measureLongStreams } from './longStreams.ts';
import { renderTable, evaluate, pairedRatios, type Results } from './report.ts';
import { benchOptions } from './options.ts';
import { failuresOf } from './failures.ts';
import { serverTicks, untilQuiet } from './quiet.ts';

const root = resolve(import.meta.dirname, '..');
const { option, smoke, profile, keep, fromSource, launch, gatewayFlags, versusWords, versusEnv, versusFlags } = benchOptions(root, process.argv.slice(2));
const ALL_CASES = ['ns1', 'ns50', 'pg50', 'ttfb', 'paced', 'fim', 'hold', 'long'] as const;
type CaseName = (typeof ALL_CASES)[number];
const cases = new Set<CaseName>((option('--cases')?.split(',') as CaseName[] | undefined) ?? ALL_CASES);
const only = new Set(option('--only')?.split(',') ?? ['direct', 'floor', 'gateway', 'pg']);
/** Gateway instances on the one PostgreSQL database of the pg50 case (target pg3 spreads requests over all of them; pg1 uses the first). */
const PG_INSTANCES = 3;
/** Rounds per measured case (see measure()). */
const ROUNDS = 8;
/** Per case: time limit and request cap of the measured run (warm-up is a tenth of it, at least 200 ms). */
const PLAN = smoke
  ? { ns1: [600, 300], ns50: [800, 2_000], ttfb: [600, 200], paced: [800, 100], fim: [600, 200], hold: { streams: 50, chunks: 3, delayMs: 300 }, long: { streams: 50, chunks: 20, delayMs: 50 } }
  : { ns1: [3_000, 100_000], ns50: [4_000, 400_000], ttfb: [3_000, 100_000], paced: [3_000, 100_000], fim: [3_000, 100_000], hold: { streams: 1_000, chunks: 8, delayMs: 1_000 }, long: { streams: 1_000, chunks: 100, delayMs: 80 } };

const PATH = '/v1/chat/completions';
const messages = [{ role: 'user', content: 'Say hello in one short sentence.' }];
const BODIES = {
  ns: JSON.stringify({ model: MODELS.fast, messages }),
  ttfb: JSON.stringify({ model: MODELS.fast, messages, stream: true, stream_options: { include_usage: true } }),
  paced: JSON.stringify({ model: MODELS.paced, messages, stream: true, stream_options: { include_usage: true } }),
  hold: JSON.stringify({ model: holdModel(PLAN.hold.chunks, PLAN.hold.delayMs), messages, stream: true, stream_options: { include_usage: true } }),
};

const log = (line: string): void => void process.stderr.write(`${line}\n`);

async function main(): Promise<number> {
  const results: Results = {
    when: new Date().toISOString(),
    mode: smoke ? 'smoke' : 'full',
    machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? '?', memGiB: Math.round(totalmem() / 2 ** 30), node: process.version, loadavgBefore: loadavg() },
    commit: gitCommit(root),
    gatewayNote: null,
    gatewayFlags: [...Object.entries(launch.env).map(([k, v]) => `${k}=${v}`), ...gatewayFlags],
    runs: {},
    rounds: {},
    gatewayCpu: {},
    floorCpu: {},
    floorLoopDelayMs: {},
    gatewayPeakRssBytes: null,
    hold: null,
    holdPeakRssBytes: null,
    bookkeeping: null,
    postgres: null,
  };
  const children: Child[] = [];
  /** Every request sent to the gateway, warm-ups included: each must have its log row. */
  let gatewaySent = 0;
  /** The same for the gateway instances on PostgreSQL (targets pg1 and pg3 share one database and account). */
  let pgSent = 0;
  let postmaster: number | null = null;
  /** How long each wait for a quiet PostgreSQL server took (quiet.ts). */
  const pgQuietMs: number[] = [];
  /** The PostgreSQL server's CPU ticks during each pg target's loads and their aftermath, and those loads' requests. */
  const pgServer = new Map<string, { ticks: number; requests: number }>();
  const load = async (target: Target, spec: LoadSpec): Promise<LoadResult> => {
    const ticksBefore = postmaster !== null && target.name.startsWith('pg') ? serverTicks(postmaster) : 0;
    const r = await runLoad(target, spec);
    if (target.name === 'gateway') gatewaySent += r.requests + r.errors;
    if (!target.name.startsWith('pg')) return r;
    pgSent += r.requests + r.errors;
    // PostgreSQL's work after the load must not land in the next target's (quiet.ts); it is counted as this one's.
    if (postmaster !== null) pgQuietMs.push(await untilQuiet(postmaster));
    const server = pgServer.get(target.name) ?? { ticks: 0, requests: 0 };
    pgServer.set(target.name, { ticks: server.ticks + (postmaster === null ? 0 : serverTicks(postmaster) - ticksBefore), requests: server.requests + r.requests });
    return r;
  };
  let dataDir: string | null = null;
  let pgDir: string | null = null;
  let gateway: Child | null = null;
  const pgChildren: Child[] = [];
  let pgUrl: string | null = null;
  /** The server processes behind each measured gateway target, for their CPU and event-loop delay. */
  const servers = new Map<string, Child[]>();
  const pgTargets: Target[] = [];
  const versusTargets: Target[] = [];
  /** With pg50: three floor processes behind one round-robin target, what three instances cost a plain proxy on these cores. */
  const floorTargets: Target[] = [];
  let floorChild!: Child;
  let gatewayScript: string | null = null;
  /** With --profile, a child's flags name its own profile in bench/results/profiles (the floor's too, to compare). */
  const profiled = (name: string, flags: readonly string[] = gatewayFlags): string[] => {
    if (!profile) return [...flags];
    const dir = join(root, 'bench/results/profiles');
    mkdirSync(dir, { recursive: true });
    return [...flags, '--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-name', `${name}-${[...cases].join('-')}-${Date.now()}.cpuprofile`];
  };
  try {
    log(`bench: ${results.mode} run, load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
    const upstream = await startChild('upstream', join(root, 'bench/upstream.ts'));
    children.push(upstream);
    const floor = await startChild('floor', join(root, 'bench/floor.ts'), { env: { UPSTREAM: upstream.url }, execArgv: profiled('floor', []) });
    children.push(floor);
    floorChild = floor;
    servers.set('floor', [floor]);

    const baseTargets: Target[] = [];
    if (only.has('direct')) baseTargets.push({ name: 'direct', origin: upstream.url, headers: {} });
    if (only.has('floor')) baseTargets.push({ name: 'floor', origin: floor.url, headers: {} });
    // Warmed as long as the gateway (below): a cold floor's req/s rose by half over ns50's first rounds.
    if (only.has('floor') && !smoke) await load(baseTargets.at(-1)!, { path: PATH, body: BODIES.ns, stream: false, concurrency: 50, maxRequests: 400_000, maxMs: 3_000 });

    const cliPath = join(root, 'dist/cli.cjs');
    const serverPath = join(root, 'src/gateway/server.ts');
    if (!only.has('gateway')) {
      results.gatewayNote = 'not measured (--only)';
    } else if (!existsSync(serverPath) || !existsSync(cliPath)) {
      results.gatewayNote = `not measured: ${existsSync(serverPath) ? 'dist/cli.cjs (npm run build)' : 'src/gateway/server.ts'} does not exist yet`;
      log(`bench: gateway ${results.gatewayNote}`);
    } else {
      dataDir = mkdtempSync(join(tmpdir(), 'gateway-bench-'));
      // One embedded PostgreSQL server for the run, only when its rows are measured; it starts (a child
      // process of its own) while the SQLite folder is set up.
      const withPostgres = cases.has('pg50') && only.has('pg');
      const database = withPostgres ? freshDatabase() : null;
      database?.catch(() => undefined);
      const models = [MODELS.fast, MODELS.paced, holdModel(PLAN.hold.chunks, PLAN.hold.delayMs)];
      const setup = setUpGateway(cliPath, { dataDir }, upstream.url, models);
      const execArgv = profiled('gateway');
      // Bundled with dist/cli.cjs's own options (esbuild.js), so the child runs what users run. A profiled
      // child keeps its line breaks: profile-summary.ts maps lines to sources by esbuild's module markers.
      const script = fromSource ? join(root, 'bench/gateway.ts') : await bundled(root, 'bench/gateway.ts', 'gateway-child.cjs', profile);
      gatewayScript = script;
      gateway = await startChild('gateway', script, { env: { ...launch.env, DATA_DIR: dataDir }, execArgv });
      children.push(gateway);
      servers.set('gateway', [gateway]);
      baseTargets.push({ name: 'gateway', origin: gateway.url, headers: { authorization: `Bearer ${setup.key}` } });
      // Let the JIT and the caches settle before anything is measured.
      const warm = smoke ? 300 : 3_000;
      const w1 = await load(baseTargets[baseTargets.length - 1], { path: PATH, body: BODIES.ns, stream: false, concurrency: 50, maxRequests: 200_000, maxMs: warm });
      const w2 = await load(baseTargets[baseTargets.length - 1], { path: PATH, body: BODIES.ttfb, stream: true, concurrency: 10, maxRequests: 200_000, maxMs: warm / 3 });
      if (w1.errors + w2.errors > 0) log(`bench: warm-up errors through the gateway: ${w1.firstError ?? w2.firstError}`);

      if (versusFlags) {
        const versusDir = mkdtempSync(join(tmpdir(), 'gateway-bench-versus-'));
        const versusSetup = setUpGateway(cliPath, { dataDir: versusDir }, upstream.url, models);
        const versus = await startChild('versus', script, { env: { ...launch.env, ...versusEnv, DATA_DIR: versusDir }, execArgv: [...gatewayFlags, ...versusFlags] });
        children.push(versus);
        servers.set('versus', [versus]);
        versusTargets.push({ name: 'versus', origin: versus.url, headers: { authorization: `Bearer ${versusSetup.key}` } });
        await load(versusTargets[0]!, { path: PATH, body: BODIES.ns, stream: false, concurrency: 50, maxRequests: 200_000, maxMs: warm });
      }

      if (database) {
        // The same child on PostgreSQL (`serve --database`), set up through the real CLI on the database,
        // channel keys sealed with MODEL_GATEWAY_SECRET_KEY; its data folder stays empty.
        pgUrl = await database;
        postmaster = await postgresServerPid();
        results.postgres = { instances: PG_INSTANCES, targets: {}, bookkeeping: null };
        const secretKey = randomBytes(32).toString('base64');
        pgDir = mkdtempSync(join(tmpdir(), 'gateway-bench-pg-'));
        const pgStore = { dataDir: pgDir, database: { url: pgUrl, secretKey } };
        const pgSetup = setUpGateway(cliPath, pgStore, upstream.url, models);
        const env = { ...launch.env, DATA_DIR: pgDir, DATABASE_URL: pgUrl, MODEL_GATEWAY_SECRET_KEY: secretKey };
        for (let i = 0; i < PG_INSTANCES; i++) {
          const child = await startChild(`gateway-pg${i + 1}`, script, { env, execArgv: profiled(`gateway-pg${i + 1}`) });
          children.push(child);
          pgChildren.push(child);
        }
        const headers = { authorization: `Bearer ${pgSetup.key}` };
        pgTargets.push({ name: 'pg1', origin: pgChildren[0]!.url, headers });
        pgTargets.push({ name: 'pg3', origin: pgChildren[0]!.url, origins: pgChildren.map((c) => c.url), headers });
        servers.set('pg1', [pgChildren[0]!]);
        servers.set('pg3', pgChildren);
        // Each instance warmed about as long as the SQLite gateway: round-robin, each of the three got a third of
        // one warm-up, and V8 was still optimizing their code through the measured rounds.
        const w3 = await load(pgTargets[1]!, { path: PATH, body: BODIES.ns, stream: false, concurrency: 50, maxRequests: 200_000 * PG_INSTANCES, maxMs: warm * PG_INSTANCES });
        const w4 = await load(pgTargets[0]!, { path: PATH, body: BODIES.ns, stream: false, concurrency: 50, maxRequests: 200_000, maxMs: warm / 3 });
        if (w3.errors + w4.errors > 0) log(`bench: warm-up errors through the PostgreSQL gateway: ${w3.firstError ?? w4.firstError}`);
        if (only.has('floor') && cases.has('ns50')) {
          const floors = [floor];
          for (let i = 2; i <= PG_INSTANCES; i++) floors.push(await startChild(`floor${i}`, join(root, 'bench/floor.ts'), { env: { UPSTREAM: upstream.url } }));
          children.push(...floors.slice(1));
          floorTargets.push({ name: 'floor3', origin: floor.url, origins: floors.map((c) => c.url), headers: {} });
          servers.set('floor3', floors);
          // Warmed as the three instances are.
          await load(floorTargets[0]!, { path: PATH, body: BODIES.ns, stream: false, concurrency: 50, maxRequests: 200_000 * PG_INSTANCES, maxMs: warm * PG_INSTANCES });
        }
      }
    }

    /**
     * Each case runs in ROUNDS rounds, every target once per round (order reversed each round), so the
     * targets compared are measured seconds apart, not a whole case apart: this machine's speed drifts
     * by tens of percent within a minute, and a ratio of two runs far apart measures that drift.
     */
    const measure = async (caseName: CaseName, spec: LoadSpec, targets: readonly Target[] = baseTargets): Promise<void> => {
      const rounds = smoke ? 1 : ROUNDS;
      const perRound = { ...spec, maxMs: spec.maxMs / rounds, maxRequests: Math.ceil(spec.maxRequests / rounds) };
      const runs = new Map<string, LoadResult[]>(targets.map((t) => [t.name, []]));
      const roundRps: Record<string, number>[] = [];
      let floorCpuSeconds = 0;
      /** Per gateway target (its server processes): CPU seconds and each round's event-loop delay. */
      const served = new Map<string, { cpuSeconds: number; loop: { p50: number; p99: number; max: number }[] }>();
      for (const target of targets) await load(target, { ...spec, maxMs: Math.max(200, spec.maxMs / 10), maxRequests: Math.ceil(spec.maxRequests / 10) });
      for (let round = 0; round < rounds; round++) {
        const byTarget: Record<string, number> = {};
        for (const target of round % 2 === 0 ? targets : [...targets].reverse()) {
          const procs = servers.get(target.name) ?? [];
          // The children's event-loop monitors run from here to the stats call after the run: this run only.
          const before = await Promise.all(procs.map((c) => stats(c, 'start')));
          const floorBefore = target.name === 'floor' ? procCpuSeconds(floorChild.proc.pid!) : null;
          const r = await load(target, perRound);
          const floorAfter = target.name === 'floor' ? procCpuSeconds(floorChild.proc.pid!) : null;
          if (floorBefore !== null && floorAfter !== null) floorCpuSeconds += floorAfter - floorBefore;
          const after = await Promise.all(procs.map((c) => stats(c, 'stop')));
          if (procs.length > 0) {
            const s = served.get(target.name) ?? { cpuSeconds: 0, loop: [] };
            after.forEach((a, i) => {
              s.cpuSeconds += (a.cpuMicros - before[i]!.cpuMicros) / 1e6;
              if (a.loopDelay) s.loop.push(a.loopDelay);
            });
            served.set(target.name, s);
          }
          runs.get(target.name)!.push(r);
          byTarget[target.name] = r.rps;
        }
        roundRps.push(byTarget);
      }
      results.runs[caseName] = {};
      results.rounds[caseName] = roundRps;
      for (const target of targets) {
        const { samples: _, ...r } = mergeRuns(runs.get(target.name)!);
        results.runs[caseName][target.name] = r;
        if (target.name === 'floor') results.floorCpu[caseName] = { cpuSeconds: floorCpuSeconds, requests: r.requests };
        const s = served.get(target.name);
        // Event-loop delay over the rounds this target was loaded: the highest round p99 and the highest max.
        const d = s && s.loop.length > 0 ? { p50: Math.max(...s.loop.map((l) => l.p50)), p99: Math.max(...s.loop.map((l) => l.p99)), max: Math.max(...s.loop.map((l) => l.max)) } : null;
        if (target.name.startsWith('floor') && d) (results.floorLoopDelayMs[caseName] ??= {})[target.name] = d;
        if (target.name === 'gateway' && gateway && s) {
          const after = await stats(gateway);
          const peak = peakRss(gateway.proc.pid!);
          results.gatewayCpu[caseName] = { cpuSeconds: s.cpuSeconds, requests: r.requests, rssAfter: after.rss, peakRssSoFar: peak, loopDelayMs: d };
          log(
            `  ${caseName.padEnd(6)} gateway  CPU ${(s.cpuSeconds * 1000).toFixed(0)} ms, ${((s.cpuSeconds * 1e6) / Math.max(1, r.requests)).toFixed(1)} us per request, RSS after ${(after.rss / 2 ** 20).toFixed(1)} MB, ` +
              `peak so far ${((peak ?? 0) / 2 ** 20).toFixed(1)} MB${d ? `, event-loop delay p99 ${d.p99.toFixed(1)} ms max ${d.max.toFixed(1)} ms` : ''}`,
          );
        } else if (target.name === 'versus' && s) {
          const ratios = pairedRatios(roundRps.map((round) => (round['versus'] ?? 0) / (round['gateway'] ?? 1))).sort((a, b) => a - b);
          const rss = (await stats(servers.get('versus')![0]!)).rss;
          log(
            `  ${caseName.padEnd(6)} versus   CPU ${(s.cpuSeconds * 1000).toFixed(0)} ms, ${((s.cpuSeconds * 1e6) / Math.max(1, r.requests)).toFixed(1)} us per request, RSS after ${(rss / 2 ** 20).toFixed(1)} MB${d ? `, event-loop delay p99 ${d.p99.toFixed(1)} ms max ${d.max.toFixed(1)} ms` : ''}; ` +
              `req/s vs gateway by pair of rounds: median ${(100 * ratios[Math.floor(ratios.length / 2)]!).toFixed(1)}% (${ratios.map((x) => (100 * x).toFixed(0)).join(' ')}) (${versusWords?.join(' ')})`,
          );
        } else if (target.name.startsWith('pg') && s && results.postgres) {
          results.postgres.targets[target.name] = { instances: servers.get(target.name)!.length, cpuSeconds: s.cpuSeconds, requests: r.requests, loopDelayMs: d };
          log(`  ${caseName.padEnd(6)} ${target.name.padEnd(8)} CPU ${(s.cpuSeconds * 1000).toFixed(0)} ms (all instances)${d ? `, event-loop delay p99 ${d.p99.toFixed(1)} ms max ${d.max.toFixed(1)} ms (worst instance)` : ''}`);
        }
        log(
          `  ${caseName.padEnd(6)} ${target.name.padEnd(8)} ${r.requests} ok, ${r.errors} errors, ${r.rps.toFixed(0)} req/s, ` +
            `p50 ${r.latency.p50.toFixed(3)} ms, first byte p50 ${r.firstByte.p50.toFixed(3)} ms${r.firstError ? `  first error: ${r.firstError}` : ''}`,
        );
      }
    };

    if (cases.has('ns1')) await measure('ns1', { path: PATH, body: BODIES.ns, stream: false, concurrency: 1, maxMs: PLAN.ns1[0], maxRequests: PLAN.ns1[1] });
    // pg50: the PostgreSQL gateways join ns50's rounds (the same load, interleaved with the others), or run
    // alone with the SQLite gateway they are compared with.
    const ns50Targets = cases.has('ns50') ? [...baseTargets, ...versusTargets, ...pgTargets, ...floorTargets] : [...baseTargets.filter((t) => t.name === 'gateway'), ...pgTargets];
    if (cases.has('ns50') || pgTargets.length > 0) await measure('ns50', { path: PATH, body: BODIES.ns, stream: false, concurrency: 50, maxMs: PLAN.ns50[0], maxRequests: PLAN.ns50[1] }, ns50Targets);
    if (cases.has('ttfb')) await measure('ttfb', { path: PATH, body: BODIES.ttfb, stream: true, concurrency: 1, maxMs: PLAN.ttfb[0], maxRequests: PLAN.ttfb[1] });
    if (cases.has('paced')) await measure('paced', { path: PATH, body: BODIES.paced, stream: true, concurrency: 10, maxMs: PLAN.paced[0], maxRequests: PLAN.paced[1] });

    if (cases.has('fim') && gateway) {
      const gw = baseTargets.find((t) => t.name === 'gateway')!;
      const key = gw.headers.authorization!.replace('Bearer ', '');
      const c = await completionPath(gw.origin, key, { maxMs: PLAN.fim[0], maxRequests: PLAN.fim[1], rounds: smoke ? 1 : ROUNDS });
      gatewaySent += c.sent;
      results.completion = { raw: c.raw, extension: c.extension };
      for (const [way, r] of Object.entries(results.completion)) {
        log(`  fim    ${way.padEnd(9)} ${r.requests} ok, ${r.errors} errors, p50 ${r.latency.p50.toFixed(3)} ms, CPU ${r.cpuMicrosPerRequest.toFixed(0)} us per completion${r.firstError ? `  first error: ${r.firstError}` : ''}`);
      }
    }

    if (cases.has('hold') && gateway) {
      const gw = baseTargets.find((t) => t.name === 'gateway')!;
      const pid = gateway.proc.pid!;
      const reset = resetPeakRss(pid);
      let rssAllOpen = 0;
      const g = gateway;
      const hold: HoldResult = await holdStreams(gw, {
        path: PATH,
        body: BODIES.hold,
        streams: PLAN.hold.streams,
        maxMs: 12_000,
        onAllOpen: async () => {
          rssAllOpen = (await stats(g)).rss;
          results.holdMemory = await memory(g);
        },
      });
      gatewaySent += hold.streams;
      results.hold = { ...hold, rssAllOpenBytes: rssAllOpen };
      results.holdPeakRssBytes = reset ? peakRss(pid) : null;
      log(`  hold   gateway ${hold.completed}/${hold.streams} completed, peak open ${hold.peakOpen}, ${hold.errors} errors, all open after ${hold.openMs.toFixed(0)} ms${hold.firstError ? `  first error: ${hold.firstError}` : ''}`);
    }

    if (gateway) {
      results.endMemory = await memory(gateway);
      results.gatewayPeakRssBytes = peakRss(gateway.proc.pid!);
      if (results.holdPeakRssBytes === null && results.hold) results.holdPeakRssBytes = results.gatewayPeakRssBytes;
      const code = await stopChild(gateway, true);
      if (code !== 0) log(`bench: the gateway exited with code ${code}\n${gateway.stderrTail()}`);
      if (dataDir) results.bookkeeping = await checkBookkeeping(join(dataDir, 'gateway.db'), gatewaySent);
    }
    if (cases.has('long') && only.has('gateway') && gatewayScript) {
      const l = await measureLongStreams({ upstreamUrl: upstream.url, cliPath, floorScript: await bundled(root, 'bench/floor.ts', 'floor-child.cjs'), gatewayScript, env: launch.env, execArgv: gatewayFlags }, PLAN.long);
      results.long = l;
      for (const [name, r] of [['floor', l.floor], ['gateway', l.gateway]] as const) {
        log(`  long   ${name.padEnd(8)} ${r.completed}/${r.streams} completed, peak open ${r.peakOpen}, ${r.errors} errors, RSS while all open ${(r.rssWhileOpenBytes / 2 ** 20).toFixed(1)} MB, life peak ${((r.lifePeakRssBytes ?? 0) / 2 ** 20).toFixed(1)} MB${r.firstError ? `  first error: ${r.firstError}` : ''}`);
      }
    }
    if (pgChildren.length > 0 && pgUrl && results.postgres) {
      // Every instance stops gracefully (logs flushed, leases handed back) before the database is read.
      const codes = await Promise.all(pgChildren.map((c) => stopChild(c, true)));
      codes.forEach((code, i) => {
        if (code !== 0) log(`bench: ${pgChildren[i]!.name} exited with code ${code}\n${pgChildren[i]!.stderrTail()}`);
      });
      results.postgres.bookkeeping = await checkPostgresBookkeeping(pgUrl, pgSent);
      log(`PostgreSQL quiet again after each of ${pgQuietMs.length} loads within ${Math.max(0, ...pgQuietMs).toFixed(0)} ms (median ${[...pgQuietMs].sort((x, y) => x - y)[pgQuietMs.length >> 1]?.toFixed(0) ?? '-'} ms); ` +
        `its CPU per request: ${[...pgServer].map(([name, s]) => `${name} ${((s.ticks * 10_000) / Math.max(1, s.requests)).toFixed(1)} us`).join(', ')}`);
    }
  } catch (err) {
    log(`bench: failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
    for (const c of children) if (c.stderrTail()) log(`--- ${c.name} stderr ---\n${c.stderrTail()}`);
    return 1;
  } finally {
    for (const c of children) await stopChild(c, false, 2_000);
    killAll();
    await stopPostgres().catch((err: unknown) => log(`bench: stopping PostgreSQL failed: ${String(err)}`));
    if (pgDir) rmSync(pgDir, { recursive: true, force: true });
    if (dataDir && !keep) rmSync(dataDir, { recursive: true, force: true });
    else if (dataDir) log(`bench: gateway data kept in ${dataDir}`);
  }

  results.machine.loadavgAfter = loadavg();
  const verdicts = evaluate(results);
  process.stdout.write(`${renderTable(results, verdicts)}\n`);
  const dir = join(root, 'bench/results');
  mkdirSync(dir, { recursive: true });
  const json = JSON.stringify({ ...results, verdicts }, null, 2);
  const file = join(dir, `bench-${results.mode}-${results.when.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, json);
  writeFileSync(join(dir, `latest${smoke ? '-smoke' : ''}.json`), json);
  log(`bench: results written to ${file}`);

  const { errors, notes } = failuresOf(results);
  for (const note of notes) log(note);
  if (errors > 0) {
    log(`bench: ${errors} request(s) failed`);
    return 1;
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    log(`bench: ${String(err)}`);
    killAll();
    process.exit(1);
  },
);
