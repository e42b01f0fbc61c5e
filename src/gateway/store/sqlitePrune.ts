/**
 * Old request logs deleted from SQLite (Store.pruneLogs), in windows of ids from the oldest row with a turn
 * of the event loop between: one huge DELETE would hold the write lock (and the request path's log batches)
 * for long, and a search for old rows by time (which has no index) reads the whole table once none is left.
 * Rows are written in about the order of their time (a long stream's row comes after shorter, later
 * requests'), so the first window with rows and no old one ends it. The hourly tally's old hours go too.
 */
import type { DatabaseSync } from 'node:sqlite';
import { hourOf, PRUNE_ROLLUPS } from './logRollup.ts';
import type { Row } from './sqlRows.ts';

/** Ids per DELETE: a few milliseconds of the write lock each. */
const PRUNE_WINDOW = 5_000;

/** Deletes the rows older than `before` (epoch ms); how many. */
export async function pruneSqliteLogs(db: DatabaseSync, before: number): Promise<number> {
  const remove = db.prepare('DELETE FROM request_logs WHERE id >= ? AND id < ? AND time < ?');
  const anyIn = db.prepare('SELECT 1 AS found FROM request_logs WHERE id >= ? AND id < ? LIMIT 1');
  const bounds = db.prepare('SELECT MIN(id) AS low, MAX(id) AS high FROM request_logs').get() as Row;
  let pruned = 0;
  if (bounds.low !== null) {
    for (let low = Number(bounds.low); low <= Number(bounds.high); low += PRUNE_WINDOW) {
      const removed = Number(remove.run(low, low + PRUNE_WINDOW, before).changes);
      pruned += removed;
      if (removed === 0 && anyIn.get(low, low + PRUNE_WINDOW)) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  for (const sql of PRUNE_ROLLUPS) db.prepare(sql.replace('{h}', '?')).run(hourOf(before));
  return pruned;
}
