// A model's maximum output tokens on every store: set, kept when a later price does not give it, removed
// by null, refused out of bounds by the database itself; the price rules (model price and the console)
// check it against the context and the default cap as the store holds them; and the migration that adds
// it (SQLite 24, PostgreSQL 17) keeps a model written by the version before, with none.
import assert from 'node:assert/strict';
import { CLI_ACTOR } from '../../../src/contract/index.ts';
import { setModelPrice, type PriceRequest } from '../../../src/gateway/accounts/modelPrices.ts';
import { InvalidSetting } from '../../../src/gateway/accounts/userAdmin.ts';
import { MIGRATIONS } from '../../../src/gateway/store/migrations.ts';
import { POSTGRES_MIGRATIONS } from '../../../src/gateway/store/postgresMigrations.ts';
import type { ModelRecord, Store } from '../../../src/gateway/store/types.ts';
import { postgresBefore, sqliteBefore } from '../../support/schemaBefore.ts';
import { describeEachStore } from '../../support/stores.ts';

const chat = (extra: Partial<ModelRecord> = {}): ModelRecord =>
  ({ name: 'gpt-4o', kind: 'chat', inputPrice: 2_500_000, outputPrice: 10_000_000, imagePrice: null, contextLength: null, toolCalling: null, ...extra });
const modelOf = async (store: Store, name = 'gpt-4o') => (await store.listModels()).find((m) => m.name === name)!;

describeEachStore('a model\'s maximum output tokens', (current, storeName) => {
  it('set, kept when not given again (the price changed), removed by null; seen by the snapshot', async () => {
    const { store } = current();
    await store.setModel(chat({ contextLength: 128_000, maxOutputTokens: 16_384 }));
    assert.equal((await modelOf(store)).maxOutputTokens, 16_384);
    await store.setModel(chat({ inputPrice: 1 }));
    assert.deepEqual([(await modelOf(store)).inputPrice, (await modelOf(store)).maxOutputTokens, (await modelOf(store)).contextLength], [1, 16_384, 128_000]);
    assert.equal((await store.snapshot()).models.find((m) => m.name === 'gpt-4o')!.maxOutputTokens, 16_384);
    await store.setModel(chat({ maxOutputTokens: null }));
    assert.equal((await modelOf(store)).maxOutputTokens, null);
    await store.setModel(chat({ name: 'other' }));
    assert.equal((await modelOf(store, 'other')).maxOutputTokens, null, 'none unless set');
  });

  // A database's own check: the memory store has none (its bounds are the store's code, tested above).
  if (storeName !== 'memory') it('the database itself refuses one out of bounds', async () => {
    const raw = current().raw!;
    await raw("INSERT INTO models (name, input_price, output_price, kind, max_output_tokens) VALUES ('ok', 1, 1, 'chat', 8192)");
    await assert.rejects(raw("INSERT INTO models (name, input_price, output_price, kind, max_output_tokens) VALUES ('zero', 1, 1, 'chat', 0)"));
    await assert.rejects(raw("INSERT INTO models (name, input_price, output_price, kind, max_output_tokens) VALUES ('huge', 1, 1, 'chat', 10000001)"));
  });

  it('the price rules: at most the context, never below the default cap, as the store holds them; none for kinds that write no tokens', async () => {
    const { store } = current();
    const price = (extra: Partial<PriceRequest>) => setModelPrice(store, { model: 'gpt-4o', kind: 'chat', free: false, prices: { input: 1, output: 2 }, ...extra }, { actor: CLI_ACTOR });
    const refused = (pattern: RegExp) => (error: unknown) => error instanceof InvalidSetting && pattern.test(error.message);
    await price({ contextLength: 8192 });
    await assert.rejects(price({ maxOutputTokens: 16_384 }), refused(/^max-output \(16384\) is more than the model's context \(8192\)/));
    await price({ contextLength: 128_000, maxOutputTokens: 16_384 });
    await assert.rejects(price({ defaultMaxTokens: 32_000 }), refused(/^default-max-tokens \(32000\) is more than the model's maximum output \(16384\)/));
    await price({ defaultMaxTokens: 4096 });
    await assert.rejects(price({ maxOutputTokens: 2048 }), refused(/^max-output \(2048\) is less than the model's default cap \(4096\)/));
    assert.deepEqual([(await modelOf(store)).maxOutputTokens, (await modelOf(store)).defaultMaxTokens], [16_384, 4096], 'nothing changed by a refusal');
    await assert.rejects(price({ kind: 'embedding', prices: { input: 1 }, maxOutputTokens: 100 }), refused(/^max-output does not apply to embedding models/));
    await price({ maxOutputTokens: null });
    assert.equal((await modelOf(store)).maxOutputTokens, null);
    await price({ maxOutputTokens: 8192 });
    await price({ kind: 'embedding', prices: { input: 1 } });
    assert.equal((await modelOf(store)).maxOutputTokens, null, 'a model that writes no tokens has no limit on them');
  });
});

const MAX_OUTPUT_SQLITE = 24;
const MAX_OUTPUT_POSTGRES = 17;

/** A model as the version before wrote it, with a context and a default cap. */
const OLD_MODEL = "INSERT INTO models (name, input_price, output_price, context_length, kind, default_max_tokens) VALUES ('deepseek-chat', 270000, 1100000, 65536, 'chat', 4096)";

async function check(store: Store): Promise<void> {
  const before = await modelOf(store, 'deepseek-chat');
  assert.deepEqual([before.inputPrice, before.contextLength, before.defaultMaxTokens, before.maxOutputTokens], [270_000, 65_536, 4096, null]);
  await setModelPrice(store, { model: 'deepseek-chat', kind: 'chat', free: false, prices: { input: 270_000, output: 1_100_000 }, maxOutputTokens: 8192 }, { actor: CLI_ACTOR });
  const after = await modelOf(store, 'deepseek-chat');
  assert.deepEqual([after.contextLength, after.defaultMaxTokens, after.maxOutputTokens], [65_536, 4096, 8192]);
}

describe('the maximum output migrations, from the version before', () => {
  it(`SQLite: schema ${MAX_OUTPUT_SQLITE - 1} to ${MAX_OUTPUT_SQLITE}`, async () => {
    assert.equal(MIGRATIONS.find((m) => m.sql.includes('max_output_tokens'))!.version, MAX_OUTPUT_SQLITE);
    await sqliteBefore(MAX_OUTPUT_SQLITE, [OLD_MODEL], check);
  });

  it(`PostgreSQL: schema ${MAX_OUTPUT_POSTGRES - 1} to ${MAX_OUTPUT_POSTGRES}`, async () => {
    assert.equal(POSTGRES_MIGRATIONS.find((m) => m.sql.includes('max_output_tokens'))!.version, MAX_OUTPUT_POSTGRES);
    await postgresBefore(MAX_OUTPUT_POSTGRES, [OLD_MODEL], 'SELECT 1', check);
  });
});
