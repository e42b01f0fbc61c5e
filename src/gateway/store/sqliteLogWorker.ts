/**
 * The SQLite log writer's thread (started by sqliteLogThread.ts): applies each batch of request logs in one
 * transaction on a connection of its own, and answers { id, error }. The gateway's one thread only hands
 * it the batch: the inserts, the tallies and the WAL writes no longer hold up requests.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { DatabaseSync } from 'node:sqlite';
import { BatchWriter } from './sqliteBatch.ts';
import type { WriteBatch } from './types.ts';

export interface LogThreadRequest {
  readonly id: number;
  readonly batch: WriteBatch;
}

export interface LogThreadAnswer {
  readonly id: number;
  /** Null when the batch is committed. */
  readonly error: string | null;
}

const port = parentPort;
if (port) {
  const db = new DatabaseSync((workerData as { file: string }).file);
  db.exec('PRAGMA busy_timeout = 5000; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;');
  const writer = new BatchWriter(db);
  port.on('message', ({ id, batch }: LogThreadRequest) => {
    let error: string | null = null;
    try {
      db.exec('BEGIN IMMEDIATE');
      writer.apply(batch);
      db.exec('COMMIT');
    } catch (e) {
      if (db.isTransaction) db.exec('ROLLBACK');
      error = e instanceof Error ? e.message : String(e);
    }
    port.postMessage({ id, error } satisfies LogThreadAnswer);
  });
}
