// Keys without a rate or concurrency limit (rpm 0, concurrency 0: "unlimited", as `model-gateway key create
// --rpm 0 --concurrency 0` makes them), over real HTTP: the CLI, the management API and the console agree.
// Such a key made by the CLI is listed with 0s; the API makes one too; editing only its spending limit with
// the body the console's editor sends (src/console/keys/limits.ts) works and keeps it unlimited; and
// "unlimited" is true on /v1: many quick and parallel requests pass where rpm 1 refuses the second one.
import assert from 'node:assert/strict';
import { key as keyCommand } from '../../../src/gateway/cliKeys.ts';
import { limitsBody, limitsFormOf } from '../../../src/console/keys/limits.ts';
import { assertError } from '../../support/answer.ts';
import { adaAndBob, type ConsoleAgent } from './consoleAgent.ts';
import { call, chatBody, startTestGateway, type Started } from './helpers.ts';

describe('console keys with no rate or concurrency limit (0)', function () {
  this.timeout(30_000);
  let t: Started;
  let ada: ConsoleAgent;
  before(async () => {
    t = await startTestGateway();
    ({ ada } = await adaAndBob(t.gw, t.admin()));
  });
  after(async () => t.close());

  const chat = (secret: string) => call(t.gw, 'POST', '/v1/chat/completions', { key: secret, body: chatBody('echo', 'hi') });
  const listed = async (name: string) => (await ada.get('/api/console/keys')).json.data.find((k: { name: string }) => k.name === name);
  let cliSecret = '';

  it('a key the CLI made with --rpm 0 --concurrency 0 is listed with 0s', async () => {
    const out: string[] = [];
    const code = await keyCommand(t.admin(), 'create', [], { account: 'ada', name: 'from-cli', rpm: '0', concurrency: '0' }, { out: (line) => out.push(line) });
    assert.equal(code, 0);
    cliSecret = out[0]!;
    const k = await listed('from-cli');
    assert.deepEqual([k.rpm, k.concurrency], [0, 0]);
  });

  it("editing only its spending limit with the console editor's body works, and it stays unlimited", async () => {
    const k = await listed('from-cli');
    const body = limitsBody({ ...limitsFormOf(k), spend: '2' }, true);
    const changed = await ada.post('/api/console/keys/limits', { id: k.id, ...body });
    assert.equal(changed.status, 200, changed.text);
    assert.deepEqual([changed.json.key.rpm, changed.json.key.concurrency, changed.json.key.spend_limit.usd], [0, 0, '2.00']);
  });

  it('the API makes such a key, and sets a limited one back to unlimited; below 0 is still refused', async () => {
    const made = await ada.post('/api/console/keys', { name: 'from-api', rpm: 0, concurrency: 0 });
    assert.equal(made.status, 201, made.text);
    assert.deepEqual([made.json.key.rpm, made.json.key.concurrency], [0, 0]);
    const limited = await ada.post('/api/console/keys', { name: 'was-limited', rpm: 5, concurrency: 2 });
    const opened = await ada.post('/api/console/keys/limits', { id: limited.json.key.id, rpm: 0, concurrency: 0 });
    assert.deepEqual([opened.json.key.rpm, opened.json.key.concurrency], [0, 0]);
    assertError(await ada.post('/api/console/keys/limits', { id: limited.json.key.id, rpm: -1 }), 400, 'invalid_request');
    assertError(await ada.post('/api/console/keys', { name: 'never', concurrency: -1 }), 400, 'invalid_request');
  });

  it('"unlimited" is true: quick and parallel requests all pass, where rpm 1 refuses the second', async () => {
    const one = await ada.post('/api/console/keys', { name: 'one-a-minute', rpm: 1 });
    assert.equal((await chat(one.json.secret)).status, 200);
    assertError(await chat(one.json.secret), 429, 'rate_limited');

    for (let i = 0; i < 5; i++) assert.equal((await chat(cliSecret)).status, 200, `request ${i + 1} in a row`);
    const parallel = await Promise.all(Array.from({ length: 8 }, () => chat(cliSecret)));
    assert.deepEqual(parallel.map((a) => a.status), new Array(8).fill(200));
  });
});
