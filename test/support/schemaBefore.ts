/**
 * A database written by the version before a migration, then opened by this one: the migrations up to
 * (not including) `version` applied by hand, `rows` inserted as that version wrote them, and the store
 * opened on it (so the migration runs) and handed to `check`, then closed.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { openAnyStore, openStore } from '../../src/gateway/store/index.ts';
import { MIGRATIONS } from '../../src/gateway/store/migrations.ts';
import { POSTGRES_MIGRATIONS } from '../../src/gateway/store/postgresMigrations.ts';
import type { Store } from '../../src/gateway/store/types.ts';
import { tempDir } from '../integration/gateway/helpers.ts';
import { freshDatabase } from './postgres.ts';

async function checked(store: Store, check: (store: Store) => Promise<void>): Promise<void> {
  try {
    await check(store);
  } finally {
    await store.close();
  }
}

export async function sqliteBefore(version: number, rows: readonly string[], check: (store: Store) => Promise<void>): Promise<void> {
  const dir = tempDir();
  try {
    const db = new DatabaseSync(`${dir}/gateway.db`);
    db.exec('CREATE TABLE schema_version (version INTEGER NOT NULL)');
    for (const m of MIGRATIONS.filter((m) => m.version < version)) {
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_version (version) VALUES (?)').run(m.version);
    }
    for (const row of rows) db.exec(row);
    db.close();
    await checked(openStore({ dataDir: dir }), check);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `after`: SQL run once the rows are in (rows written with their ids, as `migrate` writes them, move the identities on). */
export async function postgresBefore(version: number, rows: readonly string[], after: string, check: (store: Store) => Promise<void>): Promise<void> {
  const url = await freshDatabase();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('CREATE TABLE schema_version (version INTEGER NOT NULL)');
    for (const m of POSTGRES_MIGRATIONS.filter((m) => m.version < version)) {
      await client.query(m.sql);
      await client.query('INSERT INTO schema_version (version) VALUES ($1)', [m.version]);
    }
    for (const row of rows) await client.query(row);
    await client.query(after);
  } finally {
    await client.end();
  }
  await checked(await openAnyStore({ databaseUrl: url, env: { MODEL_GATEWAY_SECRET_KEY: randomBytes(32).toString('base64') } }), check);
}
