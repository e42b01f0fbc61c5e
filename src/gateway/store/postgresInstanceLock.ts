/**
 * One serving gateway per PostgreSQL database, for now: the request path's money (the ledger's
 * reservations) lives in one process, so two instances on one database could together spend more
 * than a balance, as two SQLite gateways on one folder did. Serving instances hold a session advisory
 * lock on a connection of their own; a second one is refused with the reason. The CLI takes no lock:
 * its changes are single transactions the serving instance is notified of.
 * Several instances on one database need the balance leases of docs/multi-instance.md (not built yet).
 */
import pg from 'pg';
import { describeDatabase, redactPassword } from './databaseUrl.ts';
import { StoreError } from './types.ts';

/** The advisory lock's key: any fixed number no other application on the database uses ("MGW" 2). */
const SERVE_LOCK = 0x4d_47_57_02;

export interface InstanceLock {
  release(): Promise<void>;
}

export async function lockDatabase(url: string, log: (line: string) => void = () => undefined): Promise<InstanceLock> {
  const where = describeDatabase(url);
  const client = new pg.Client({ connectionString: url, application_name: 'model-gateway serve' });
  let released = false;
  // PostgreSQL drops a session lock with its connection: say so, the guard is gone until restart.
  client.on('error', (error) => {
    if (!released) log(`the connection holding this instance's lock on ${where} failed (${redactPassword(error.message, url)}): another instance could now start on it`);
  });
  try {
    await client.connect();
    const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [SERVE_LOCK]);
    if (!rows[0]?.locked) {
      throw new StoreError('conflict', `another Model Gateway instance is serving ${where}. For now one instance serves a database (several need the balance leases described in docs/multi-instance.md); CLI commands work while it serves.`);
    }
  } catch (error) {
    released = true;
    await client.end().catch(() => undefined);
    if (error instanceof Error && !(error instanceof StoreError)) error.message = `${where}: ${redactPassword(error.message, url)}`;
    throw error;
  }
  return {
    async release() {
      if (released) return;
      released = true;
      await client.end().catch(() => undefined);
    },
  };
}
