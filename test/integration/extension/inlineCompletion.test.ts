// Inline completion's engine (src/extension/completions, no vscode import) against the real bundled gateway
// on loopback: fill-in-the-middle on the offline echo-completion model and on a fake upstream standing for
// a FIM provider; the chat fallback for a chat model; a superseded request aborted, logged 499 and charged
// only what the gateway charges for aborts.
import assert from 'node:assert/strict';
import { GatewayClient } from '../../../src/client/index.ts';
import { ECHO_INPUT_PRICE, ECHO_OUTPUT_PRICE, BOOTSTRAP_ACCOUNT } from '../../../src/gateway/admin.ts';
import { costOfTokens } from '../../../src/gateway/accounts/money.ts';
import type { Store } from '../../../src/gateway/store/types.ts';
import { buildContext } from '../../../src/extension/completions/context.ts';
import { CompletionEngine } from '../../../src/extension/completions/engine.ts';
import { LatestOnly } from '../../../src/extension/completions/latestOnly.ts';
import { SINGLE_LINE, MULTI_LINE } from '../../../src/extension/completions/lineMode.ts';
import { memoryInMap, routeKey } from '../../../src/extension/completions/route.ts';
import type { CompletionRoute } from '../../../src/extension/completions/route.ts';
import { addChannelPricedFree, newChannel } from '../../support/channels.ts';
import { startFakeUpstream, type FakeUpstream } from '../../support/fakeUpstream.ts';
import { poll } from '../../support/poll.ts';
import { startTestGateway, type Started } from '../gateway/helpers.ts';

/** The editor's context for `text` with the cursor at `|`. */
function at(path: string, marked: string, languageId = 'typescript') {
  const offset = marked.indexOf('|');
  return buildContext({ path, languageId, text: marked.replace('|', ''), offset, openFiles: [] });
}

async function logsOf(admin: Store, path: string) {
  return (await admin.listLogs(1000)).filter((l) => l.path === path);
}

describe('inline completion over the bundled gateway', () => {
  let t: Started;
  let fake: FakeUpstream;
  let admin: Store;
  let client: GatewayClient;
  let routes: Map<string, CompletionRoute>;
  let engine: CompletionEngine;

  before(async () => {
    t = await startTestGateway();
    fake = await startFakeUpstream();
    admin = t.admin();
    await addChannelPricedFree(admin, newChannel({ baseUrl: fake.url, models: { 'coder-fim': 'coder-fim', chatty: 'chatty' } }));
    await admin.setModel({ name: 'coder-fim', kind: 'completion', inputPrice: 0, outputPrice: 0, imagePrice: null, contextLength: null, toolCalling: null });
    client = new GatewayClient({ baseUrl: t.gw.url, apiKey: t.key, maxRetries: 0 });
  });
  beforeEach(() => {
    routes = new Map();
    engine = new CompletionEngine(memoryInMap(routes));
    fake.behaviour = {};
  });
  after(async () => {
    await client?.close();
    await t?.close();
    await fake?.close();
  });

  it('FIM on the offline echo-completion model: prompt and suffix both reach it, the ghost text comes back, and the spot is cached', async () => {
    const context = at('greet.ts', 'let greeting = | + name');
    const answer = await engine.complete(client, { baseUrl: t.gw.url, model: 'echo-completion', context, shape: SINGLE_LINE });
    // The echo model answers "You said: <prompt> then <suffix>"; the repeated suffix is dropped from the ghost text.
    assert.equal(answer.text, 'You said: let greeting =  then');
    assert.equal(answer.route, 'fim');
    assert.equal(routes.get(routeKey(t.gw.url, 'echo-completion')), 'fim');
    const rows = await poll('the completion log row', async () => {
      const found = await logsOf(admin, '/v1/completions');
      return found.length === 1 ? found : undefined;
    }, 5000, 20);
    assert.equal(rows[0]!.status, 200);
    assert.equal(rows[0]!.model, 'echo-completion');

    const again = await engine.complete(client, { baseUrl: t.gw.url, model: 'echo-completion', context, shape: SINGLE_LINE });
    assert.equal(again.fromCache, true);
    assert.equal(again.text, answer.text);
    assert.equal((await logsOf(admin, '/v1/completions')).length, 1, 'going back to the spot sent nothing');
  });

  it('FIM on a provider: the upstream receives prompt, suffix, stop, max_tokens and a low temperature', async () => {
    fake.behaviour = { pieces: ['a + b'] };
    const before = fake.requests.length;
    const context = at('sum.ts', 'function sum(a, b) {\n  return |;\n}\n');
    const answer = await engine.complete(client, { baseUrl: t.gw.url, model: 'coder-fim', context, shape: SINGLE_LINE });
    assert.equal(answer.text, 'a + b');
    const seen = fake.requests.slice(before);
    assert.deepEqual(seen.map((r) => r.path), ['/v1/completions']);
    const body = seen[0]!.body;
    assert.equal(body.prompt, 'function sum(a, b) {\n  return ');
    assert.equal(body.suffix, ';\n}\n');
    assert.deepEqual(body.stop, ['\n']);
    assert.equal(body.max_tokens, SINGLE_LINE.maxTokens);
    assert.ok(body.temperature > 0 && body.temperature <= 0.2);
    assert.notEqual(body.stream, true);
  });

  it('a chat model (the gateway refuses /v1/completions for it) falls back to a chat turn, cleaned; the route is remembered', async () => {
    fake.behaviour = { pieces: ['```ts\n', '  const total = a + b;\n', '```'] };
    const before = fake.requests.length;
    const first = await engine.complete(client, { baseUrl: t.gw.url, model: 'chatty', context: at('t.ts', 'function f(a, b) {\n  const total = |\n}\n'), shape: SINGLE_LINE });
    assert.equal(first.text, 'a + b;', 'no fence, no repeated line');
    assert.equal(first.route, 'chat');
    assert.equal(routes.get(routeKey(t.gw.url, 'chatty')), 'chat');
    const refused = await poll('the refused FIM request in the log', async () => {
      const found = (await logsOf(admin, '/v1/completions')).filter((l) => l.errorCode === 'wrong_endpoint');
      return found.length > 0 ? found : undefined;
    }, 5000, 20);
    assert.deepEqual(refused.map((l) => [l.status, l.model]), [[400, 'chatty']]);

    fake.behaviour = { pieces: ['return a * b;\n}'] };
    // The real client, counted: the remembered route sends no FIM request first.
    const sent: string[] = [];
    const counted = {
      completion: (...args: Parameters<GatewayClient['completion']>) => (sent.push('fim'), client.completion(...args)),
      chat: (...args: Parameters<GatewayClient['chat']>) => (sent.push('chat'), client.chat(...args)),
    };
    const second = await engine.complete(counted, { baseUrl: t.gw.url, model: 'chatty', context: at('t.ts', 'function g(a, b) {\n|\n}\n'), shape: MULTI_LINE });
    assert.equal(second.text, 'return a * b;', 'the closing brace already after the cursor is not repeated');
    assert.deepEqual(fake.requests.slice(before).map((r) => r.path), ['/v1/chat/completions', '/v1/chat/completions']);
    assert.deepEqual(sent, ['chat'], 'FIM was not tried again');
    const chat = fake.requests.at(-1)!.body;
    assert.ok(String(chat.messages.at(-1).content).includes('function g(a, b) {\n<FILL_HERE>\n}'));
  });

  it('a completion model whose upstream refuses `suffix`: the upstream\'s 400 is what the user sees (chat is refused for it too), nothing is remembered', async () => {
    fake.behaviour = (request) => (request.body?.suffix ? { status: 400, errorMessage: 'suffix is not supported for this model' } : {});
    let caught: unknown;
    try {
      await engine.complete(client, { baseUrl: t.gw.url, model: 'coder-fim', context: at('x.ts', 'const x = |;'), shape: SINGLE_LINE });
    } catch (error) {
      caught = error;
    }
    const failure = caught as { status?: number; family?: string; gatewayMessage?: string };
    assert.equal(failure.family, 'bad_request');
    assert.equal(failure.status, 400);
    assert.match(failure.gatewayMessage ?? '', /suffix is not supported/);
    assert.equal(routes.size, 0);
  });
});

describe('inline completion: a keystroke aborts the request in flight', () => {
  let t: Started;
  let admin: Store;
  let client: GatewayClient;

  before(async () => {
    // The echo model takes 40 ms per token here, so a request is still being answered when the next keystroke comes.
    t = await startTestGateway({ echoDelayMs: 40 });
    admin = t.admin();
    client = new GatewayClient({ baseUrl: t.gw.url, apiKey: t.key, maxRetries: 0 });
  });
  after(async () => {
    await client?.close();
    await t?.close();
  });

  it('the superseded request is logged 499 client_aborted and charged only its prompt and the tokens made before the abort', async () => {
    const balanceBefore = (await admin.getAccount(BOOTSTRAP_ACCOUNT))!.balance;
    const engine = new CompletionEngine(memoryInMap());
    const latest = new LatestOnly();
    const long = `const story = "${'once upon a time '.repeat(20)}|`;
    const first = engine.complete(client, { baseUrl: t.gw.url, model: 'echo-completion', context: at('a.ts', long), shape: SINGLE_LINE, signal: latest.start() });
    const firstOutcome = first.then(() => 'answered', (error: { family?: string }) => error.family);
    // The next keystroke, while the gateway is still generating (about 60 tokens at 40 ms each).
    await new Promise((resolve) => setTimeout(resolve, 300));
    const second = await engine.complete(client, { baseUrl: t.gw.url, model: 'echo-completion', context: at('a.ts', 'x|'), shape: SINGLE_LINE, signal: latest.start() });
    assert.equal(await firstOutcome, 'aborted');
    assert.equal(second.text, 'You said: x');

    const rows = await poll('both log rows', async () => {
      const found = await logsOf(admin, '/v1/completions');
      return found.length === 2 ? found : undefined;
    }, 5000, 20);
    const aborted = rows.find((l) => l.errorCode === 'client_aborted');
    assert.ok(aborted, `rows: ${JSON.stringify(rows.map((l) => [l.status, l.errorCode]))}`);
    assert.equal(aborted.status, 499);
    assert.ok(aborted.completionTokens < SINGLE_LINE.maxTokens, 'stopped before the end');
    assert.equal(aborted.cost, costOfTokens([[aborted.promptTokens, ECHO_INPUT_PRICE], [aborted.completionTokens, ECHO_OUTPUT_PRICE]]));
    const served = rows.find((l) => l.status === 200)!;
    const balanceAfter = await poll('the debits', async () => {
      const balance = (await admin.getAccount(BOOTSTRAP_ACCOUNT))!.balance;
      return balance === balanceBefore - aborted.cost - served.cost ? balance : undefined;
    }, 5000, 20);
    assert.equal(balanceBefore - balanceAfter, aborted.cost + served.cost, 'nothing charged beyond the two logged costs');
  });
});
