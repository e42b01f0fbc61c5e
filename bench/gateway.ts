/**
 * The gateway under test, in its own child process so that its CPU time and RSS are its own.
 * Starts the real gateway (src/gateway/server.ts) on the data folder DATA_DIR, port 0, and answers
 * the benchmark over IPC: {type:'stats'} -> CPU microseconds and RSS; {type:'stop'} -> graceful stop
 * (which flushes request logs) and exit, so that `--cpu-prof` can write its profile.
 */
interface Gateway {
  readonly url: string;
  stop(): Promise<void>;
}
type StartGateway = (options: { dataDir: string; port: number; host?: string; quiet?: boolean }) => Promise<Gateway>;

const serverModule = new URL('../src/gateway/server.ts', import.meta.url).href;

async function main(): Promise<void> {
  const dataDir = process.env.DATA_DIR;
  if (!dataDir) throw new Error('DATA_DIR is not set');
  const { startGateway } = (await import(serverModule)) as { startGateway: StartGateway };
  const gateway = await startGateway({ dataDir, port: 0, host: '127.0.0.1' });
  process.on('message', (msg: { type: string }) => {
    if (msg.type === 'stats') {
      const cpu = process.cpuUsage();
      process.send?.({ type: 'stats', cpuMicros: cpu.user + cpu.system, rss: process.memoryUsage.rss() });
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
