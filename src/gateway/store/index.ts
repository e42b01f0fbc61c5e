/** Opens the store a gateway or the CLI runs on. */
import { join } from 'node:path';
import { MemoryStore } from './memory.ts';
import { SqliteStore } from './sqlite.ts';
import { loadSqlite } from './sqliteOpen.ts';
import { prepareDataFolder } from './dataFolder.ts';
import { SecretBox } from './secretBox.ts';
import type { Store } from './types.ts';

export type { Store } from './types.ts';
export { StoreError } from './types.ts';

export const DB_FILE = 'gateway.db';
/** Where the gateway keeps its data when no folder is given. */
export const DEFAULT_DATA_DIR = '.model-gateway';

export interface OpenStoreOptions {
  readonly dataDir?: string;
  readonly inMemory?: boolean;
  /** When node:sqlite cannot be loaded, run on memory instead of failing. */
  readonly fallbackToMemory?: boolean;
  /** Where MODEL_GATEWAY_SECRET_KEY is read (default process.env). */
  readonly env?: NodeJS.ProcessEnv;
  /** Only read the SQLite folder, changing nothing in it: for commands that read, on a folder that cannot be written. */
  readonly readOnly?: boolean;
  /** Receives one line per notable event of the store (a folder tightened; never a secret). */
  readonly log?: (line: string) => void;
}

export function openStore(options: OpenStoreOptions): Store {
  if (options.inMemory) return new MemoryStore();
  if (!loadSqlite()) {
    if (options.fallbackToMemory) return new MemoryStore();
    throw new Error('node:sqlite is not available in this Node.js runtime; use Node 24, or run in memory');
  }
  const dir = options.dataDir ?? DEFAULT_DATA_DIR;
  if (options.readOnly) return new SqliteStore(join(dir, DB_FILE), SecretBox.forFolder(dir, options.env, { create: false }), { readOnly: true });
  // Owner only: the folder holds the database, the secret key that seals channel keys, and the lock.
  prepareDataFolder(dir, options.log ?? (() => undefined));
  return new SqliteStore(join(dir, DB_FILE), SecretBox.forFolder(dir, options.env));
}

export interface OpenAnyStoreOptions extends OpenStoreOptions {
  /** A PostgreSQL URL (databaseUrl.ts): the store is there instead of in the data folder. */
  readonly databaseUrl?: string | null;
}

/**
 * The store a gateway or a CLI command runs on: PostgreSQL when a database URL is given, else
 * openStore (SQLite in the data folder, or memory). PostgreSQL's module loads only then, so the
 * SQLite gateway's start and memory are unchanged.
 */
export async function openAnyStore(options: OpenAnyStoreOptions): Promise<Store> {
  if (!options.databaseUrl) return openStore(options);
  const { PostgresStore } = await import('./postgres.ts');
  return PostgresStore.open(options.databaseUrl, SecretBox.fromEnv(options.env), options.log ? { log: options.log } : {});
}
