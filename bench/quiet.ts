/**
 * PostgreSQL keeps working after a pg target's load ends: the WAL writer, checkpoints, autovacuum of the rows
 * just written. Left alone, that work fell into whichever target ran next, and in the rounds run in reverse
 * order that was always the SQLite gateway (right after pg1), never the floor: in full runs c=50 read 48-55%
 * of the floor in those rounds against 63-75% in the others. So after each load on PostgreSQL the benchmark
 * waits until the server is quiet (its processes together under a tenth of a core for two 100 ms windows
 * running), at most MAX_WAIT_MS.
 */
import { readdirSync, readFileSync } from 'node:fs';

const WINDOW_MS = 100;
/** CPU ticks (10 ms) the server may use in a window and count as quiet: a tenth of one core. */
const QUIET_TICKS = 1;
const MAX_WAIT_MS = 5_000;

/** [ppid, utime + stime ticks] of a process, or null once it is gone. */
function statOf(pid: number): [number, number] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return [Number(fields[1]), Number(fields[11]) + Number(fields[12])];
  } catch {
    return null;
  }
}

/** CPU ticks (10 ms) of `postmaster` and its children (the server's backends and background workers). */
export function serverTicks(postmaster: number): number {
  let ticks = statOf(postmaster)?.[1] ?? 0;
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === postmaster) continue;
    const stat = statOf(pid);
    if (stat && stat[0] === postmaster) ticks += stat[1];
  }
  return ticks;
}

/** Waits until the PostgreSQL server of `postmaster` is quiet; resolves with the milliseconds waited. */
export async function untilQuiet(postmaster: number): Promise<number> {
  const started = performance.now();
  let quietWindows = 0;
  let before = serverTicks(postmaster);
  while (quietWindows < 2 && performance.now() - started < MAX_WAIT_MS) {
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS));
    const now = serverTicks(postmaster);
    quietWindows = now - before <= QUIET_TICKS ? quietWindows + 1 : 0;
    before = now;
  }
  return performance.now() - started;
}
