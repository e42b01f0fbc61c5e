/**
 * The gateway under test, in its own child process so that its CPU time and RSS are its own.
 * Starts the real gateway (src/gateway/server.ts, the same entry `model-gateway serve` and the
 * extension use) on the SQLite data folder DATA_DIR, or with DATABASE_URL on that PostgreSQL database
 * (`serve --database`; MODEL_GATEWAY_SECRET_KEY from the environment), port 0, and answers the benchmark over IPC:
 * {type:'stats'} -> its own CPU microseconds, RSS and event-loop delay (childStats.ts); {type:'stop'} -> graceful stop (flushes the
 * request logs) and exit, so that `--cpu-prof` can write its profile.
 */
import { getHeapSpaceStatistics } from 'node:v8';
import { startGateway } from '../src/gateway/server.ts';
import { answerStats } from './childStats.ts';

async function main(): Promise<void> {
  const dataDir = process.env.DATA_DIR;
  if (!dataDir) throw new Error('DATA_DIR is not set');
  const databaseUrl = process.env.DATABASE_URL || null;
  // echoDelayMs 0: the completion case measures the path, not the offline model's pretend typing speed.
  // BENCH_METRICS=1 (with --versus-flags): the same gateway keeping Prometheus metrics, to measure what they cost.
  const metrics = process.env.BENCH_METRICS === '1' ? { metricsPort: 0 } : {};
  const gateway = await startGateway({ dataDir, databaseUrl, port: 0, host: '127.0.0.1', echoDelayMs: 0, log: (line) => process.stderr.write(`${line}\n`), ...metrics });
  const expected = databaseUrl ? 'postgres' : 'sqlite';
  if (gateway.storeKind !== expected) throw new Error(`the gateway runs on a ${gateway.storeKind} store, not ${expected}`);
  answerStats();
  process.on('message', (msg: { type: string }) => {
    if (msg.type === 'memory') {
      // Where the RSS is: V8 heap spaces (committed vs used), external and array buffers.
      const spaces = Object.fromEntries(getHeapSpaceStatistics().map((s) => [s.space_name, { committedMB: +(s.physical_space_size / 2 ** 20).toFixed(1), usedMB: +(s.space_used_size / 2 ** 20).toFixed(1) }]));
      const m = process.memoryUsage();
      process.send?.({ type: 'memory', rssMB: +(m.rss / 2 ** 20).toFixed(1), heapTotalMB: +(m.heapTotal / 2 ** 20).toFixed(1), heapUsedMB: +(m.heapUsed / 2 ** 20).toFixed(1), externalMB: +(m.external / 2 ** 20).toFixed(1), arrayBuffersMB: +(m.arrayBuffers / 2 ** 20).toFixed(1), spaces });
    } else if (msg.type === 'stop') {
      gateway.stop().then(
        () => process.exit(0),
        (err: unknown) => {
          console.error('gateway stop failed:', err);
          process.exit(1);
        },
      );
    }
  });
  process.send?.({ type: 'ready', url: gateway.url });
}

process.on('disconnect', () => process.exit(0));
main().catch((err: unknown) => {
  console.error('gateway child failed:', err);
  process.send?.({ type: 'failed', error: err instanceof Error ? err.message : String(err) });
  process.exit(1);
});
