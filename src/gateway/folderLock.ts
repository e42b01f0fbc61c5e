/**
 * One gateway per data folder: two processes serving one SQLite file would each hold balances in
 * memory and overspend. `serve` takes DATA/gateway.lock (its pid and address) before it opens the
 * store; a second one is refused with both, and a lock whose process is gone is taken over. Several
 * instances are the PostgreSQL store's job, not this file's.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export const LOCK_FILE = 'gateway.lock';

interface LockContent {
  readonly pid: number;
  readonly url: string | null;
  readonly startedAt: string;
}

/** Another gateway serves this folder. */
export class FolderInUseError extends Error {
  readonly pid: number;
  readonly url: string | null;
  constructor(dataDir: string, holder: LockContent) {
    super(
      `another Model Gateway (pid ${holder.pid}${holder.url ? `, at ${holder.url}` : ', starting'}) is serving ${dataDir}: ` +
        'stop it first, or give this one another --data folder.',
    );
    this.name = 'FolderInUseError';
    this.pid = holder.pid;
    this.url = holder.url;
  }
}

export interface FolderLock {
  /** Records the address once the server listens, for the message a second gateway gets. */
  listening(url: string): void;
  release(): void;
}

/** This process's own locks: a second gateway in the same process is refused too. */
const held = new Set<string>();

export function lockFolder(dataDir: string, log: (line: string) => void = () => undefined): FolderLock {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = join(dataDir, LOCK_FILE);
  const content = (url: string | null): string => `${JSON.stringify({ pid: process.pid, url, startedAt: new Date().toISOString() } satisfies LockContent)}\n`;
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, content(null));
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
      const holder = readHolder(file);
      if (holder && (held.has(file) || (holder.pid !== process.pid && isAlive(holder.pid)))) throw new FolderInUseError(dataDir, holder);
      log(`taking over ${file}: the gateway that held it${holder ? ` (pid ${holder.pid})` : ''} is gone`);
      rmSync(file, { force: true });
    }
  }
  held.add(file);
  let released = false;
  return {
    listening(url) {
      if (!released) writeFileSync(file, content(url), { mode: 0o600 });
    },
    release() {
      if (released) return;
      released = true;
      held.delete(file);
      if (readHolder(file)?.pid === process.pid) rmSync(file, { force: true });
    },
  };
}

function readHolder(file: string): LockContent | null {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockContent>;
    return typeof value.pid === 'number' ? { pid: value.pid, url: typeof value.url === 'string' ? value.url : null, startedAt: String(value.startedAt) } : null;
  } catch {
    return null;
  }
}

/** Whether a process with this pid exists (EPERM: it does, under another user). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
