/**
 * The three Store implementations the conformance suites run against (memory, SQLite in a temp folder,
 * PostgreSQL on the run's shared test server, a database per test), each with a raw SQL connection to
 * its database (as an operator with sqlite3 or psql would have) where it has one.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { openAnyStore, openStore } from '../../src/gateway/store/index.ts';
import type { Store } from '../../src/gateway/store/types.ts';
import { freshDatabase } from './postgres.ts';
import { tempDir } from '../integration/gateway/helpers.ts';

/** One statement on the store's database outside the store; rejects as the database refuses it. */
export type RawSql = (sql: string, params?: unknown[]) => Promise<void>;

export interface OpenedStore {
  readonly store: Store;
  /** Another store on the same data (a second process, a second instance); null for memory. */
  readonly another: (() => Promise<Store>) | null;
  readonly raw: RawSql | null;
  readonly dispose: () => void;
}

export const STORES: ReadonlyArray<{ name: string; open: () => Promise<OpenedStore> }> = [
  { name: 'memory', open: async () => ({ store: openStore({ inMemory: true }), another: null, raw: null, dispose: () => undefined }) },
  {
    name: 'sqlite',
    open: async () => {
      const dir = tempDir();
      const raw: RawSql = async (sql, params = []) => {
        const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
        const db = new DatabaseSync(join(dir, 'gateway.db'));
        try {
          db.prepare(sql).run(...(params as never[]));
        } finally {
          db.close();
        }
      };
      return { store: openStore({ dataDir: dir }), another: async () => openStore({ dataDir: dir }), raw, dispose: () => rmSync(dir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'postgres',
    open: async () => {
      const url = await freshDatabase();
      const env = { MODEL_GATEWAY_SECRET_KEY: randomBytes(32).toString('base64') };
      const raw: RawSql = async (sql, params = []) => {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          await client.query(sql, params);
        } finally {
          await client.end();
        }
      };
      return { store: await openAnyStore({ databaseUrl: url, env }), another: () => openAnyStore({ databaseUrl: url, env }), raw, dispose: () => undefined };
    },
  },
];

/** The store of the test running now in a describeEachStore suite. */
export interface StoreUnderTest {
  readonly store: Store;
  /** Its database outside the store; null for memory. */
  readonly raw: RawSql | null;
  /** Another store on the same data, closed with the test's; null for memory. */
  readonly another: (() => Promise<Store>) | null;
}

/**
 * One describe per store (memory, SQLite, PostgreSQL): the store opened before each test and closed after
 * it, with every other store the test opened on its data. The frame every conformance suite shares; the
 * body reads this test's store through `current()` (its own beforeEach hooks run after the opening).
 */
export function describeEachStore(title: string, body: (current: () => StoreUnderTest, name: string) => void, options: { timeoutMs?: number } = {}): void {
  for (const { name, open } of STORES) {
    describe(`${title}: ${name}`, function () {
      if (options.timeoutMs !== undefined) this.timeout(options.timeoutMs);
      let opened: OpenedStore | null = null;
      let test: StoreUnderTest | null = null;
      const others: Store[] = [];
      beforeEach(async () => {
        const now = await open();
        const another = now.another;
        opened = now;
        test = { store: now.store, raw: now.raw, another: another && (async () => others[others.push(await another()) - 1]!) };
      });
      afterEach(async () => {
        // Closing twice is harmless: a test may close the others it opened itself.
        for (const s of others.splice(0)) await s.close();
        await opened?.store.close();
        opened?.dispose();
        opened = test = null;
      });
      body(() => test!, name);
    });
  }
}
