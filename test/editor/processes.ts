// Child processes in their own process groups, ended as a group: ending only the leader leaves
// code-server's extension hosts and chromium's helpers behind. Whatever is still alive when this
// process exits (a failed test, Ctrl+C) is killed by the exit handlers below.
import { spawn } from 'node:child_process';
import type { ChildProcess, SpawnOptions } from 'node:child_process';

const groups = new Set<number>();

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

let handlersInstalled = false;
function installExitHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on('exit', () => {
    for (const pid of groups) killGroup(pid, 'SIGKILL');
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      for (const pid of groups) killGroup(pid, 'SIGKILL');
      process.exit(130);
    });
  }
}

/** Spawns `command` as the leader of a new process group that `stopGroup` (or process exit) ends. */
export function spawnGroup(command: string, args: string[], options: SpawnOptions = {}): ChildProcess {
  installExitHandlers();
  const child = spawn(command, args, { ...options, detached: true });
  if (child.pid !== undefined) groups.add(child.pid);
  return child;
}

/** Ends the whole group: SIGTERM, then SIGKILL for whatever is still there after `graceMs`. */
export async function stopGroup(child: ChildProcess, graceMs = 3000): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  killGroup(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (groupAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  if (groupAlive(pid)) killGroup(pid, 'SIGKILL');
  // Zombies not yet reaped still answer signal 0; give up waiting after a moment.
  const hard = Date.now() + 2000;
  while (groupAlive(pid) && Date.now() < hard) await new Promise((r) => setTimeout(r, 20));
  groups.delete(pid);
}
