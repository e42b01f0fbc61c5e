/**
 * Bringing a PostgreSQL database to this version's schema. Several instances starting together
 * all call this: a session advisory lock lets one migrate while the others wait, then find
 * nothing left to do. A database written by a newer version is refused, never half-migrated.
 */
import type { PoolClient } from 'pg';
import { POSTGRES_MIGRATIONS } from './postgresMigrations.ts';
import { StoreError } from './types.ts';
import { refusedRows, type RefusedRow } from './migration.ts';

/** The advisory lock's key: any fixed number no other application on the database uses. */
const MIGRATION_LOCK = 0x4d_47_57_01; // "MGW" 1

export async function migratePostgres(client: PoolClient, where: string): Promise<void> {
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
  try {
    await client.query('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)');
    const { rows } = await client.query<{ v: number | null }>('SELECT MAX(version) AS v FROM schema_version');
    const current = rows[0]?.v ?? 0;
    const known = POSTGRES_MIGRATIONS.at(-1)!.version;
    if (current > known) {
      throw new StoreError('invalid', `${where} was written by a newer Model Gateway (schema ${current}; this version knows up to ${known}). Run that newer version, or restore a backup made by this one.`);
    }
    for (const m of POSTGRES_MIGRATIONS) {
      if (m.version <= current) continue;
      // Each migration with its version row in one transaction: a failure leaves the previous version whole.
      await client.query('BEGIN');
      try {
        const refused = m.refuses === undefined ? [] : (await client.query<RefusedRow>(m.refuses)).rows;
        if (refused.length > 0) throw refusedRows(where, m.version, refused);
        await client.query(m.sql);
        await client.query('INSERT INTO schema_version (version) VALUES ($1)', [m.version]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
  }
}
