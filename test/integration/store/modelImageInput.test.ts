// Whether a model takes images as input, beyond the conformance suite's reads and writes: the migration that adds
// the column (SQLite 25, PostgreSQL 18) keeps a model written by the version before, with none said, and a later
// price says it; SQLite's column holds a flag only; `model-gateway migrate --from` copies yes, no and not said;
// the built-in echo model of an older data folder is said to take images.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { MIGRATIONS } from '../../../src/gateway/store/migrations.ts';
import { POSTGRES_MIGRATIONS } from '../../../src/gateway/store/postgresMigrations.ts';
import { openAnyStore, openStore } from '../../../src/gateway/store/index.ts';
import { copySqliteToPostgres } from '../../../src/gateway/store/sqliteToPostgres.ts';
import type { ModelRecord, Store } from '../../../src/gateway/store/types.ts';
import { postgresBefore, sqliteBefore } from '../../support/schemaBefore.ts';
import { freshDatabase } from '../../support/postgres.ts';
import { tempDir } from '../gateway/helpers.ts';

const IMAGE_INPUT_SQLITE = 25;
const IMAGE_INPUT_POSTGRES = 18;

const chat = (name: string, extra: Partial<ModelRecord> = {}): ModelRecord =>
  ({ name, kind: 'chat', inputPrice: 2_500_000, outputPrice: 10_000_000, imagePrice: null, contextLength: null, toolCalling: null, ...extra });
const flags = async (store: Store) => Object.fromEntries((await store.listModels()).map((m) => [m.name, [m.imageInput, m.toolCalling]]));

/** A model as the version before wrote it, with tool calling said. */
const OLD_MODEL = "INSERT INTO models (name, input_price, output_price, context_length, tool_calling, kind) VALUES ('gpt-4o', 2500000, 10000000, 128000, TRUE, 'chat')";

async function check(store: Store): Promise<void> {
  assert.deepEqual(await flags(store), { 'gpt-4o': [null, true] });
  await store.setModel(chat('gpt-4o', { imageInput: true, toolCalling: true }));
  const after = (await store.listModels())[0]!;
  assert.deepEqual([after.imageInput, after.toolCalling, after.contextLength], [true, true, 128_000]);
}

describe('the image input migrations, from the version before', () => {
  it(`SQLite: schema ${IMAGE_INPUT_SQLITE - 1} to ${IMAGE_INPUT_SQLITE}`, async () => {
    assert.equal(MIGRATIONS.find((m) => m.sql.includes('image_input'))!.version, IMAGE_INPUT_SQLITE);
    await sqliteBefore(IMAGE_INPUT_SQLITE, [OLD_MODEL], check);
  });

  it(`PostgreSQL: schema ${IMAGE_INPUT_POSTGRES - 1} to ${IMAGE_INPUT_POSTGRES}`, async () => {
    assert.equal(POSTGRES_MIGRATIONS.find((m) => m.sql.includes('image_input'))!.version, IMAGE_INPUT_POSTGRES);
    await postgresBefore(IMAGE_INPUT_POSTGRES, [OLD_MODEL], 'SELECT 1', check);
  });
});

// The built-in echo model of a data folder made before it said it takes images (SQLite 26, PostgreSQL 19).
const ECHO_SQLITE = 26;
const ECHO_POSTGRES = 19;
const echoChannel = (id: number) => `INSERT INTO channels (id, name, type, models, timeout_ms, created_at) VALUES (${id}, 'echo', 'echo', '{"echo":"echo"}', 60000, 1)`;
const ECHO_ROWS = [
  echoChannel(1),
  "INSERT INTO models (name, input_price, output_price, kind) VALUES ('echo', 1, 1, 'chat')",
  "INSERT INTO models (name, input_price, output_price, kind, image_input) VALUES ('other', 1, 1, 'chat', NULL)",
];

async function echoSaid(store: Store): Promise<void> {
  assert.deepEqual(Object.fromEntries(Object.entries(await flags(store)).map(([name, [image]]) => [name, image])), { echo: true, other: null });
}

describe('the echo model takes images in data folders made before it said so', () => {
  it(`SQLite: schema ${ECHO_SQLITE - 1} to ${ECHO_SQLITE}; said where nothing was, and not where the operator said no or there is no echo channel`, async () => {
    assert.equal(MIGRATIONS.find((m) => m.sql.includes("name = 'echo'"))!.version, ECHO_SQLITE);
    await sqliteBefore(ECHO_SQLITE, ECHO_ROWS, echoSaid);
    await sqliteBefore(ECHO_SQLITE, [echoChannel(1), "INSERT INTO models (name, input_price, output_price, kind, image_input) VALUES ('echo', 1, 1, 'chat', 0)"], async (store) => {
      assert.deepEqual((await flags(store))['echo'], [false, null]);
    });
    await sqliteBefore(ECHO_SQLITE, ["INSERT INTO models (name, input_price, output_price, kind) VALUES ('echo', 1, 1, 'chat')"], async (store) => {
      assert.deepEqual((await flags(store))['echo'], [null, null]);
    });
  });

  it(`PostgreSQL: schema ${ECHO_POSTGRES - 1} to ${ECHO_POSTGRES}`, async () => {
    assert.equal(POSTGRES_MIGRATIONS.find((m) => m.sql.includes("name = 'echo'"))!.version, ECHO_POSTGRES);
    await postgresBefore(ECHO_POSTGRES, ECHO_ROWS, 'SELECT 1', echoSaid);
  });
});

describe('image input on SQLite, and copied to PostgreSQL', () => {
  let dir: string;
  beforeEach(() => (dir = tempDir()));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('the SQLite column holds a flag only (1, 0 or NULL)', async () => {
    await openStore({ dataDir: dir }).close();
    const db = new DatabaseSync(join(dir, 'gateway.db'));
    try {
      db.exec("INSERT INTO models (name, input_price, output_price, kind, image_input) VALUES ('yes', 1, 1, 'chat', 1), ('unsaid', 1, 1, 'chat', NULL)");
      assert.throws(() => db.exec("INSERT INTO models (name, input_price, output_price, kind, image_input) VALUES ('two', 1, 1, 'chat', 2)"), /CHECK constraint failed/);
    } finally {
      db.close();
    }
  });

  it('`migrate --from` copies yes, no and not said', async () => {
    const sqlite = openStore({ dataDir: dir });
    await sqlite.setModel(chat('sees', { imageInput: true, toolCalling: true }));
    await sqlite.setModel(chat('blind', { imageInput: false }));
    await sqlite.setModel(chat('unsaid'));
    const before = await flags(sqlite);
    await sqlite.close();
    assert.deepEqual(before, { blind: [false, null], sees: [true, true], unsaid: [null, null] });

    const url = await freshDatabase();
    const env = { MODEL_GATEWAY_SECRET_KEY: randomBytes(32).toString('base64') };
    assert.equal((await copySqliteToPostgres(dir, url, env)).models, 3);
    const postgres = await openAnyStore({ databaseUrl: url, env });
    try {
      assert.deepEqual(await flags(postgres), before);
    } finally {
      await postgres.close();
    }
  });
});
