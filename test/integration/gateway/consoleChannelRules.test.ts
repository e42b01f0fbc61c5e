// The rules of the admins' channels and prices (issue 10, contract 4.10 "Admins"), over real HTTP on a real
// SQLite file: what `channel add` and `model price` refuse the console refuses too (400 invalid_request
// naming the field, 409 channel_exists, 404 channel_not_found) and a refusal changes and records nothing;
// prices per kind, per image with variants, free on purpose, as the CLI sets them; and a channel's key is
// nowhere but in the store: not in any answer, error message, audit row, request log or operator log line.
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { main } from '../../../src/gateway/cli.ts';
import type { Store } from '../../../src/gateway/store/types.ts';
import { assertError, type Answer } from '../../support/answer.ts';
import { startFakeUpstream, type FakeUpstream } from '../../support/fakeUpstream.ts';
import { type ConsoleAgent, signedInAdmin } from './consoleAgent.ts';
import { startTestGateway, type Started } from './helpers.ts';
import { compareNames } from '../../../src/contract/index.ts';

const SECRET = 'sk-never-shown-ABCDEFGHIJKLMNOP';
const OTHER_SECRET = 'sk-never-shown-either-QRSTUVWXYZ';

describe("the admins' channels and prices: the CLI's rules, and no key anywhere", function () {
  this.timeout(60_000);
  let t: Started;
  let store: Store;
  let root: ConsoleAgent;
  let upstream: FakeUpstream;
  const operatorLog: string[] = [];
  const answers: Answer[] = [];
  /** Every answer the admin gets is kept, to be searched for keys at the end. */
  const get = async (path: string) => answers[answers.push(await root.get(path)) - 1]!;
  const post = async (path: string, body: unknown) => answers[answers.push(await root.post(path, body)) - 1]!;

  before(async () => {
    t = await startTestGateway({ log: (line) => operatorLog.push(line) });
    store = t.admin();
    root = await signedInAdmin(t.gw, store);
    upstream = await startFakeUpstream({});
  });
  after(async () => {
    await t?.close();
    await upstream?.close();
  });

  it('refuses what channel add refuses, naming the field; a taken name is 409; a refusal adds nothing and records nothing', async () => {
    const good = { name: 'ok', base_url: upstream.url, models: { m: 'm' } };
    const refused: Array<[object, RegExp]> = [
      [{ ...good, base_url: undefined }, /base_url is required for openai channels/],
      [{ ...good, type: 'anthropic', base_url: null }, /base_url is required for anthropic channels/],
      [{ ...good, base_url: 'ftp://h/v1' }, /base_url: must be an http:\/\/ or https:\/\/ URL/],
      [{ ...good, proxy: 'socks5://p:1' }, /proxy: must be an http/],
      [{ ...good, type: 'anthropic', responses_api: true }, /responses_api applies to openai channels only/],
      [{ ...good, type: 'grpc' }, /type/],
      [{ ...good, models: {} }, /models is required/],
      [{ ...good, models: { ' padded': 'm' } }, /must be printable text/],
      [{ ...good, models: { m: 'x'.repeat(300) } }, /must be printable text of at most 256/],
      [{ ...good, name: 'has space' }, /name: must be 1 to 64 letters/],
      [{ ...good, priority: -1 }, /priority/], [{ ...good, weight: 0 }, /weight/], [{ ...good, timeout_ms: 1.5 }, /timeout_ms/],
      [{ ...good, api_key: '   ' }, /api_key/], [{ ...good, api_key: SECRET, unknown: 1 }, /unrecognized|unknown/i],
      // A key no HTTP header can carry: the channel could never work.
      [{ ...good, api_key: 'abc\r\nX-Injected: 1' }, /api_key: must be printable ASCII/], [{ ...good, api_key: 'k\u00e9y-\u043a\u043b\u044e\u0447-1234' }, /api_key: must be printable ASCII/],
    ];
    for (const [body, says] of refused) {
      const answer = await post('/api/console/admin/channels', body);
      assertError(answer, 400, 'invalid_request');
      assert.match(answer.json.error.message, says, JSON.stringify(body));
    }
    assert.equal((await post('/api/console/admin/channels', { ...good, api_key: SECRET })).status, 201);
    assertError(await post('/api/console/admin/channels', { ...good, api_key: OTHER_SECRET }), 409, 'channel_exists');
    const echo = await post('/api/console/admin/channels', { name: 'parrot', type: 'echo', base_url: 'http://ignored/v1', models: { parrot: 'parrot' } });
    assert.deepEqual([echo.status, echo.json.channel.base_url, echo.json.channel.api_key], [201, null, { set: false, last4: null }], 'an echo channel has no base URL, as the CLI makes it');
    const names = (await get('/api/console/admin/channels')).json.data.map((c: { name: string }) => c.name);
    assert.deepEqual(names, ['echo', 'ok', 'parrot']);
    const audit = (await get('/api/console/admin/audit?action=channel.add')).json.data.map((r: { target: string }) => r.target);
    assert.deepEqual(audit, ['parrot', 'ok'], 'only the channels made are recorded');
  });

  it('refuses an update that breaks the rules or changes nothing, keeping the channel as it was', async () => {
    for (const [body, says] of [
      [{ name: 'ok' }, /nothing to change/], [{ name: 'ok', base_url: null }, /base_url is required/],
      [{ name: 'ok', type: 'anthropic', responses_api: true }, /responses_api applies to openai/], [{ name: 'ok', models: {} }, /models is required/],
      [{ name: 'ok', api_key: OTHER_SECRET, weight: 0 }, /weight/], [{ name: 'ok', api_key: 'new\nkey' }, /api_key: must be printable ASCII/],
    ] as Array<[object, RegExp]>) {
      const answer = await post('/api/console/admin/channels/update', body);
      assertError(answer, 400, 'invalid_request');
      assert.match(answer.json.error.message, says, JSON.stringify(body));
    }
    assertError(await post('/api/console/admin/channels/update', { name: 'nobody', priority: 1 }), 404, 'channel_not_found');
    const ok = (await store.listChannels()).find((c) => c.name === 'ok')!;
    assert.deepEqual([ok.baseUrl, ok.apiKey, ok.weight, ok.type], [upstream.url, SECRET, 1, 'openai'], 'nothing changed');
    const removed = await post('/api/console/admin/channels/update', { name: 'ok', api_key: null });
    assert.deepEqual(removed.json.channel.api_key, { set: false, last4: null });
    assert.equal((await store.listChannels()).find((c) => c.name === 'ok')!.apiKey, null, 'null removes the key');
    assert.equal((await post('/api/console/admin/channels/update', { name: 'ok', api_key: SECRET })).json.channel.api_key.set, true);
    const audit = (await get('/api/console/admin/audit?action=channel.update')).json.data.map((r: { details: unknown }) => r.details);
    assert.deepEqual(audit, [{ upstream_key: 'replaced' }, { upstream_key: 'removed' }]);
  });

  it('prices every kind as model price does: tokens, embeddings, images with variants, free; refuses what it refuses', async () => {
    const price = async (body: object) => {
      const answer = await post('/api/console/admin/models/price', body);
      assert.equal(answer.status, 200, answer.text);
      return answer.json.model;
    };
    const claude = await price({ model: 'claude', input_usd: '3', output_usd: '15', cached_input_usd: '0.3', cache_write_usd: 3.75, context_length: 200_000, tool_calling: true, default_max_tokens: 4096 });
    assert.deepEqual(
      [claude.cached_input_per_million.usd, claude.cache_write_per_million.micro_usd, claude.context_length, claude.tool_calling, claude.default_max_tokens, claude.priced, claude.served],
      ['0.30', 3_750_000, 200_000, true, 4096, true, false],
    );
    const emb = await price({ model: 'emb', kind: 'embedding', input_usd: '0.02' });
    assert.deepEqual([emb.kind, emb.input_per_million.micro_usd, emb.output_per_million], ['embedding', 20_000, null]);
    const dalle = await price({ model: 'dalle', kind: 'image', per_image_usd: '0.04', per_image_variants_usd: { '1024X1792': '0.08', HD: 0.08, 'hd,1024x1792': '0.12' } });
    assert.deepEqual([dalle.per_image.usd, dalle.per_image_variants], ['0.04', {
      '1024x1792': { micro_usd: 80_000, usd: '0.08' }, hd: { micro_usd: 80_000, usd: '0.08' }, '1024x1792,hd': { micro_usd: 120_000, usd: '0.12' },
    }]);
    const parrot = await price({ model: 'parrot', free: true });
    assert.deepEqual([parrot.free, parrot.priced, parrot.served, parrot.input_per_million.micro_usd], [true, true, true, 0]);
    const stored = new Map((await store.listModels()).map((m) => [m.name, m]));
    assert.deepEqual([stored.get('dalle')!.imagePrice, stored.get('dalle')!.imagePrices, stored.get('claude')!.cachedInputPrice], [40_000, { '1024x1792': 80_000, hd: 80_000, '1024x1792,hd': 120_000 }, 300_000]);
    // The maximum output: set, kept when absent, removed by null; refused above the context or below the default cap.
    assert.equal((await price({ model: 'claude', input_usd: '3', output_usd: '15', max_output_tokens: 64_000 })).max_output_tokens, 64_000);
    assert.equal((await price({ model: 'claude', input_usd: '3', output_usd: '15' })).max_output_tokens, 64_000);
    for (const [body, says] of [
      [{ max_output_tokens: 300_000 }, /max_output_tokens \(300000\) is more than the model's context \(200000\)/],
      [{ max_output_tokens: 2048 }, /max_output_tokens \(2048\) is less than the model's default cap \(4096\): lower default_max_tokens too/],
      [{ max_output_tokens: 0 }, /max_output_tokens/],
    ] as const) {
      const answer = await post('/api/console/admin/models/price', { model: 'claude', input_usd: '3', output_usd: '15', ...body });
      assertError(answer, 400, 'invalid_request');
      assert.match(answer.json.error.message, says, JSON.stringify(body));
    }
    assert.equal((await price({ model: 'claude', input_usd: '3', output_usd: '15', max_output_tokens: null })).max_output_tokens, null);
    // Image input, as tool calling: not said until set, kept when absent, changed by a new flag, not said again by null.
    assert.equal(claude.image_input, null);
    const seeing = await price({ model: 'claude', input_usd: '3', output_usd: '15', image_input: true });
    assert.deepEqual([seeing.image_input, seeing.tool_calling], [true, true]);
    assert.equal((await price({ model: 'claude', input_usd: '3', output_usd: '15' })).image_input, true);
    assert.equal((await get('/api/console/admin/models?q=claude')).json.data[0].image_input, true);
    assert.equal((await price({ model: 'claude', input_usd: '3', output_usd: '15', image_input: false })).image_input, false);
    assert.equal((await store.listModels()).find((m) => m.name === 'claude')!.imageInput, false);
    const unsaid = await price({ model: 'claude', input_usd: '3', output_usd: '15', image_input: null, tool_calling: null });
    assert.deepEqual([unsaid.image_input, unsaid.tool_calling], [null, null]);
    const stillUnsaid = (await store.listModels()).find((m) => m.name === 'claude')!;
    assert.deepEqual([stillUnsaid.imageInput, stillUnsaid.toolCalling, stillUnsaid.contextLength], [null, null, 200_000], 'the rest kept');
    assert.deepEqual((await price({ model: 'claude', input_usd: '3', output_usd: '15', tool_calling: true })).tool_calling, true);

    const refused: Array<[object, RegExp]> = [
      [{ model: 'x', input_usd: '1' }, /output_usd is required/],
      [{ model: 'x', kind: 'embedding', input_usd: '1', output_usd: '1' }, /output_usd does not apply to embedding models \(they take input_usd\)/],
      [{ model: 'x', kind: 'image', input_usd: '1' }, /input_usd does not apply to image models \(they take per_image_usd\)/],
      [{ model: 'x', kind: 'image' }, /per_image_usd is required/],
      [{ model: 'x', kind: 'image', per_image_usd: '1', per_image_variants_usd: { 'hd,low': '1' } }, /per_image_variants_usd: "hd,low" is not SIZE, QUALITY or SIZE,QUALITY/],
      [{ model: 'x', kind: 'image', per_image_usd: '1', per_image_variants_usd: { hd: '1', HD: '2' } }, /per_image_variants_usd: hd is priced twice/],
      [{ model: 'x', kind: 'image', per_image_usd: '1', per_image_variants_usd: { hd: '-1' } }, /per_image_variants_usd\.hd: not an amount/],
      [{ model: 'x', free: true, input_usd: '1' }, /free takes no prices \(drop input_usd\)/],
      [{ model: 'x', kind: 'audio', input_usd: '1', output_usd: '1' }, /kind/],
      [{ model: 'x', input_usd: '1e3', output_usd: '1' }, /input_usd: not an amount in USD/],
      [{ model: 'x', input_usd: '1000001', output_usd: '1' }, /more than the most allowed/],
      [{ model: 'x', input_usd: '0.0000001', output_usd: '1' }, /more than 6 decimals/],
      [{ model: 'x', input_usd: '1', output_usd: '1', default_max_tokens: 0 }, /default_max_tokens/],
      [{ model: 'x', input_usd: '1', output_usd: '1', image_input: 'yes' }, /image_input/],
      [{ model: 'bad\u0007name', free: true }, /model: must be printable text/],
    ];
    for (const [body, says] of refused) {
      const answer = await post('/api/console/admin/models/price', body);
      assertError(answer, 400, 'invalid_request');
      assert.match(answer.json.error.message, says, JSON.stringify(body));
    }
    assert.equal((await store.listModels()).some((m) => m.name === 'x'), false, 'no refused price was set');
  });

  it('lists every model: priced ones and the ones a channel serves unpriced, with the channels; search by name', async () => {
    const all = (await get('/api/console/admin/models')).json.data as Array<{ name: string; priced: boolean; channels: string[]; served: boolean }>;
    const byName = new Map(all.map((m) => [m.name, m]));
    assert.deepEqual([...byName.keys()], [...byName.keys()].sort(compareNames), 'by name');
    assert.deepEqual([byName.get('m')!.priced, byName.get('m')!.channels, byName.get('m')!.served], [false, ['ok'], true], 'served, unpriced: the one to fix');
    assert.deepEqual([byName.get('echo')!.priced, byName.get('echo')!.channels], [true, ['echo']]);
    assert.deepEqual((await get('/api/console/admin/models?q=DAL')).json.data.map((m: { name: string }) => m.name), ['dalle']);
    assertError(await get('/api/console/admin/models?kind=chat'), 400, 'invalid_request');
  });

  it("records the CLI's channel and price changes as cli, the console's as the admin", async () => {
    const cli = async (...args: string[]) => {
      const err: string[] = [];
      const code = await main(['--data', t.dir, ...args], { out: () => undefined, err: (l) => err.push(l) }, { ...process.env, MODEL_GATEWAY_DATA: '', MODEL_GATEWAY_CHANNEL_API_KEY: OTHER_SECRET });
      assert.equal(code, 0, err.join('\n'));
    };
    await cli('channel', 'add', '--name', 'from-cli', '--base-url', upstream.url, '--models', 'cli-model');
    await cli('model', 'price', 'cli-model', '--input', '1', '--output', '2');
    await cli('channel', 'disable', 'from-cli');
    const rows = (await get('/api/console/admin/audit?limit=3')).json.data.map((r: { actor: string; action: string; target: string }) => [r.actor, r.action, r.target]);
    assert.deepEqual(rows, [['cli', 'channel.disable', 'from-cli'], ['cli', 'model.price', 'cli-model'], ['cli', 'channel.add', 'from-cli']]);
    const fromCli = (await get('/api/console/admin/channels')).json.data.find((c: { name: string }) => c.name === 'from-cli');
    assert.deepEqual([fromCli.status, fromCli.api_key], ['disabled', { set: true, last4: OTHER_SECRET.slice(-4) }]);
  });

  it('never shows a channel key: not in any answer, error message, audit row, request log or operator log line', async () => {
    // Requests through the channel, one of them refused by the upstream in words that hold the key.
    await post('/api/console/admin/models/price', { model: 'm', free: true });
    const client = new OpenAI({ apiKey: t.key, baseURL: `${t.gw.url}/v1`, maxRetries: 0 });
    assert.equal((await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })).choices.length, 1);
    upstream.behaviour = { status: 400, errorMessage: `invalid key ${SECRET} for this model` };
    const refusal = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }).then(() => null, (e: unknown) => e as Error);
    upstream.behaviour = { status: 401, errorMessage: `Incorrect API key provided: ${SECRET}` };
    const keyRefused = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }).then(() => null, (e: unknown) => e as Error);
    await post('/api/console/admin/channels/test', { name: 'ok' });
    upstream.behaviour = {};
    await post('/api/console/admin/channels/update', { name: 'ok', api_key: SECRET, priority: 'high' });
    await post('/api/console/admin/channels', { name: 'ok', base_url: upstream.url, models: { m: 'm' }, api_key: SECRET });
    await post('/api/console/admin/channels/enable', { name: 'ok' });
    await get('/api/console/admin/channels');
    await get('/api/console/admin/models');

    const texts = [
      ...answers.map((a) => a.text), String(refusal?.message), String(keyRefused?.message),
      (await get('/api/console/admin/audit?limit=200')).text,
      JSON.stringify(await store.listLogs(1000)), JSON.stringify(await store.listAudit({ limit: 1000 })), ...operatorLog,
    ];
    assert.ok(refusal && keyRefused, 'both requests failed');
    assert.ok(operatorLog.some((l) => l.includes('channel "ok" disabled')), `the operator was told the key was refused: ${operatorLog.join('\n')}`);
    for (const secret of [SECRET, OTHER_SECRET]) {
      const found = texts.filter((text) => text.includes(secret));
      assert.deepEqual(found, [], `${secret.slice(0, 12)}… appears`);
    }
    assert.ok(answers.length > 40, `${answers.length} answers searched`);
  });
});
