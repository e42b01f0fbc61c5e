/**
 * `model-gateway migrate --from DATA_FOLDER --database URL`: a SQLite gateway copied into an empty
 * PostgreSQL database (store/sqliteToPostgres.ts), then what was copied, verified, printed. The
 * database is named without its password.
 */
import { formatMicroUsd } from '../contract/index.ts';
import { need, UsageError } from './cliArgs.ts';
import { describeDatabase } from './store/databaseUrl.ts';
import { FolderInUseError, lockFolder, type FolderLock } from './folderLock.ts';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DB_FILE } from './store/index.ts';

export async function migrate(from: string | undefined, databaseUrl: string | null, io: { readonly out: (line: string) => void }, env: NodeJS.ProcessEnv): Promise<number> {
  const dataDir = need(from, '--from DATA_FOLDER');
  if (!existsSync(join(dataDir, DB_FILE))) throw new UsageError(`--from ${dataDir} holds no gateway (no ${DB_FILE} there): give the data folder of the gateway to migrate`);
  if (databaseUrl === null) throw new UsageError('migrate needs the target: --database postgres://user:password@host:5432/db (or MODEL_GATEWAY_DATABASE_URL)');
  // A gateway still serving the folder would keep charging after the copy: the copy would be short of those.
  let lock: FolderLock;
  try {
    lock = lockFolder(dataDir);
  } catch (error) {
    if (error instanceof FolderInUseError) throw new UsageError(`${error.message.replace(/: stop it first.*$/, '')}: stop it before migrating, so that nothing is charged after the copy`);
    throw error;
  }
  let c;
  try {
    // Loaded only here: the other commands do not need the copy.
    const { copySqliteToPostgres } = await import('./store/sqliteToPostgres.ts');
    c = await copySqliteToPostgres(dataDir, databaseUrl, env);
  } finally {
    lock.release();
  }
  io.out(`migrated ${dataDir} to ${describeDatabase(databaseUrl)}, in one transaction, verified (counts, balances, totals and log charges):`);
  io.out(`  ${c.accounts} accounts (balances ${formatMicroUsd(c.balance)}, spent ${formatMicroUsd(c.totalSpent)} in all), ${c.users} users, ${c.keys} keys, ${c.channels} channels (keys sealed again with MODEL_GATEWAY_SECRET_KEY), ${c.models} models, ${c.logs} request logs, ${c.codes} redemption and invitation codes, ${c.adminTokens} admin access tokens, ${c.audit} audit log rows, ${c.settings} settings`);
  io.out('Console sessions are not copied: users sign in again. Start the instances with: model-gateway serve --database URL (the same MODEL_GATEWAY_SECRET_KEY)');
  return 0;
}
