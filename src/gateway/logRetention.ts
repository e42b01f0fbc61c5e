/**
 * Request logs are kept for a while, not forever: once an hour (and once at start) the rows older
 * than the retention are deleted in the background. The retention is asked for at every round (the
 * admins' setting may change while the gateway runs, settings.ts); 0 days keeps everything.
 */
import type { Store } from './store/types.ts';

export const DEFAULT_LOG_RETENTION_DAYS = 90;
const EVERY_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Starts pruning `store` every hour by the days `retention` answers then; the returned function stops it. */
export function keepLogsFor(store: Store, retention: () => number | Promise<number>, log: (line: string) => void): () => void {
  let running: Promise<void> | null = null;
  const prune = (): void => {
    running ??= Promise.resolve()
      .then(retention)
      .then(async (days) => {
        if (days <= 0) return;
        const pruned = await store.pruneLogs(Date.now() - days * DAY_MS);
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
