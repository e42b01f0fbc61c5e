/**
 * Child processes of the benchmark: fork, wait for {type:'ready'}, read their CPU and memory,
 * and make sure every one of them is gone when the benchmark ends (normally, on error or on a signal).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

export interface Child {
  readonly name: string;
  readonly proc: ChildProcess;
  readonly url: string;
  /** The last few KB of its stderr, for error reports. */
  stderrTail(): string;
}

const live = new Set<ChildProcess>();

export function killAll(): void {
  for (const proc of live) {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
  }
  live.clear();
}

process.on('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    killAll();
    process.exit(130);
  });
}

export function startChild(
  name: string,
  script: string,
  options: { env?: Record<string, string>; execArgv?: string[]; readyTimeoutMs?: number } = {},
): Promise<Child> {
  const proc = fork(script, [], {
    env: { ...process.env, ...options.env },
    execArgv: options.execArgv ?? [],
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  live.add(proc);
  proc.on('exit', () => live.delete(proc));
  let tail = '';
  proc.stderr?.on('data', (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-4096);
  });
  const stderrTail = (): string => tail;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`${name}: not ready after ${options.readyTimeoutMs ?? 20_000} ms\n${tail}`));
    }, options.readyTimeoutMs ?? 20_000);
    const onExit = (code: number | null, signal: string | null): void => {
      clearTimeout(timer);
      reject(new Error(`${name}: exited before it was ready (code ${code}, signal ${signal})\n${tail}`));
    };
    proc.once('exit', onExit);
    proc.on('message', function onMessage(msg: { type?: string; url?: string; error?: string }) {
      if (msg.type === 'ready' && typeof msg.url === 'string') {
        clearTimeout(timer);
        proc.off('exit', onExit);
        proc.off('message', onMessage);
        resolve({ name, proc, url: msg.url, stderrTail });
      } else if (msg.type === 'failed') {
        clearTimeout(timer);
        proc.off('exit', onExit);
        proc.kill('SIGKILL');
        reject(new Error(`${name}: ${msg.error}\n${tail}`));
      }
    });
  });
}

export interface Stats {
  /** User + system CPU, microseconds, as the child measures itself. */
  readonly cpuMicros: number;
  readonly rss: number;
  /** Event-loop delay (ms) since the previous stats call, from monitorEventLoopDelay. */
  readonly loopDelay: { p50: number; p99: number; max: number } | null;
}

/**
 * Asks a child (bench/gateway.ts) for its own process.cpuUsage() and RSS. `loop` 'start' (re)starts its
 * event-loop monitor, 'stop' reads and stops it: the monitor's 1 ms timer costs an idle process ~3% of a
 * core, so it runs only while its own target is loaded.
 */
export function stats(child: Child, loop?: 'start' | 'stop'): Promise<Stats> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${child.name}: no stats answer`)), 5_000);
    child.proc.on('message', function onMessage(msg: { type?: string; cpuMicros?: number; rss?: number; loopDelay?: Stats['loopDelay'] }) {
      if (msg.type !== 'stats') return;
      clearTimeout(timer);
      child.proc.off('message', onMessage);
      resolve({ cpuMicros: msg.cpuMicros ?? 0, rss: msg.rss ?? 0, loopDelay: msg.loopDelay ?? null });
    });
    child.proc.send({ type: 'stats', loop });
  });
}

/** Peak resident set size (VmHWM) of a process in bytes, from /proc; null where there is no /proc. */
export function peakRss(pid: number): number | null {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Resets VmHWM to the current RSS (Linux: "5" > clear_refs), so the next peak belongs to one phase. */
export function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** Stops a child: a graceful {type:'stop'} when asked (the gateway flushes its logs), SIGKILL after the grace time. */
export async function stopChild(child: Child, graceful: boolean, graceMs = 10_000): Promise<number | null> {
  const proc = child.proc;
  if (proc.exitCode !== null || proc.signalCode !== null) return proc.exitCode;
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  if (graceful && proc.connected) proc.send({ type: 'stop' });
  else proc.kill('SIGTERM');
  const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
  const code = await exited;
  clearTimeout(timer);
  return code;
}

/** The gateway child's memory breakdown (bench/gateway.ts answers {type:'memory'}). */
export function memory(child: Child): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${child.name}: no memory answer`)), 5_000);
    child.proc.on('message', function onMessage(msg: { type?: string }) {
      if (msg.type !== 'memory') return;
      clearTimeout(timer);
      child.proc.off('message', onMessage);
      resolve(msg as Record<string, unknown>);
    });
    child.proc.send({ type: 'memory' });
  });
}

/** CPU seconds (user + system) a process has used, from /proc/PID/stat (10 ms ticks); null without /proc. */
export function procCpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime (fields 14 and 15), USER_HZ = 100
  } catch {
    return null;
  }
}
