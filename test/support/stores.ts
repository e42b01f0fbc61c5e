/**
 * Every Store implementation, each opened fresh for a test: memory, SQLite in a temp folder, and
 * PostgreSQL on the run's shared test server (a database of its own). The conformance suites run
 * their tests against each: what one store does and another does not is a bug in one of them.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { openAnyStore, openStore } from '../../src/gateway/store/index.ts';
import type { Store } from '../../src/gateway/store/types.ts';
import { freshDatabase } from './postgres.ts';
import { tempDir } from '../integration/gateway/helpers.ts';

export const STORES: ReadonlyArray<{ name: string; open: () => Promise<{ store: Store; dispose: () => void }> }> = [
  { name: 'memory', open: async () => ({ store: openStore({ inMemory: true }), dispose: () => undefined }) },
  {
    name: 'sqlite',
    open: async () => {
      const dir = tempDir();
      return { store: openStore({ dataDir: dir }), dispose: () => rmSync(dir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'postgres',
    open: async () => ({
      store: await openAnyStore({ databaseUrl: await freshDatabase(), env: { MODEL_GATEWAY_SECRET_KEY: randomBytes(32).toString('base64') } }),
      dispose: () => undefined,
    }),
  },
];
