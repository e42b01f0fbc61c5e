/**
 * Request logs are kept for a while, not forever: once an hour (and once at start) the rows older
 * than the retention are deleted in the background. 0 days keeps everything.
 */
import type { Store } from './store/types.ts';

export const DEFAULT_LOG_RETENTION_DAYS = 90;
const EVERY_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Starts pruning `store` every hour; the returned function stops it. */
export function keepLogsFor(store: Store, days: number, log: (line: string) => void): () => void {
  if (days <= 0) return () => undefined;
  let running: Promise<void> | null = null;
  const prune = (): void => {
    running ??= store
      .pruneLogs(Date.now() - days * DAY_MS)
      .then((pruned) => {
        if (pruned > 0) log(`pruned ${pruned} request log rows older than ${days} days`);
      })
      .catch((error: unknown) => log(`pruning old request logs failed, will retry in an hour: ${String(error)}`))
      .finally(() => (running = null));
  };
  const first = setTimeout(prune, 1000);
  const timer = setInterval(prune, EVERY_MS);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
