// `model-gateway channel update` beside a running gateway, on its data folder: only the settings given change,
// the key is replaced from standard input (never argv) or removed, the rules of `channel add` hold for the
// result, a refusal changes nothing, the audit row never holds the key, and the serving gateway follows.
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { main } from '../../../src/gateway/cli.ts';
import type { RunningGateway } from '../../../src/gateway/server.ts';
import { openStore } from '../../../src/gateway/store/index.ts';
import type { ChannelRecord } from '../../../src/gateway/store/types.ts';
import { startFakeUpstream, type FakeUpstream } from '../../support/fakeUpstream.ts';
import { besideGateway, runCli } from './serveProcess.ts';
import { poll } from '../../support/poll.ts';

describe('model-gateway channel update', () => {
  let dir = '';
  let gw: RunningGateway;
  let first: FakeUpstream;
  let second: FakeUpstream;
  const cli = (...args: string[]) => runCli(['--data', dir, ...args]);
  const channelOf = async (name: string): Promise<ChannelRecord | undefined> => {
    const store = openStore({ dataDir: dir });
    try {
      return (await store.listChannels()).find((c) => c.name === name);
    } finally {
      await store.close();
    }
  };

  besideGateway(async (folder, running) => {
    dir = folder;
    gw = running;
    first = await startFakeUpstream({ pieces: ['from the first upstream'] });
    second = await startFakeUpstream({ pieces: ['from the second upstream'] });
    assert.equal((await cli('channel', 'add', '--name', 'up', '--base-url', first.url, '--api-key', 'sk-old', '--models', 'm1', '--priority', '3')).code, 0);
    assert.equal((await cli('model', 'price', 'm1', '--input', '1', '--output', '2')).code, 0);
  });
  after(async () => {
    await first?.close();
    await second?.close();
  });

  it('changes only what is given: a new base URL and a key from standard input; priority and models stay', async () => {
    let stdout = '';
    const io = { out: (l: string) => void (stdout += l), err: () => undefined, readStdin: async () => 'sk-new\n' };
    assert.equal(await main(['--data', dir, 'channel', 'update', 'up', '--base-url', second.url, '--api-key', '-'], io, {}), 0);
    assert.match(stdout, /channel "up" updated \(its key replaced\), serving m1/);
    const c = (await channelOf('up'))!;
    assert.equal(c.baseUrl, second.url);
    assert.equal(c.apiKey, 'sk-new');
    assert.equal(c.priority, 3);
    assert.deepEqual(c.models, { m1: 'm1' });
  });

  it('the running gateway follows: the next request goes to the new upstream, with the new key', async () => {
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.bootstrapKey!, maxRetries: 0 });
    await poll('the new upstream answers', async () => {
      const a = await client.chat.completions.create({ model: 'm1', messages: [{ role: 'user', content: 'hi' }] });
      return a.choices[0]?.message.content === 'from the second upstream' ? a : undefined;
    }, 5000);
    assert.equal(second.requests.at(-1)?.headers.authorization, 'Bearer sk-new');
  });

  it('--models and --map replace the models; --proxy none and --remove-api-key take them away', async () => {
    assert.equal((await cli('channel', 'update', 'up', '--proxy', 'http://127.0.0.1:3128')).code, 0);
    assert.equal((await channelOf('up'))!.proxy, 'http://127.0.0.1:3128');
    const run = await cli('channel', 'update', 'up', '--models', 'm1', '--map', 'm2=upstream-m2', '--proxy', 'none', '--remove-api-key');
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /no price yet for m2/);
    const c = (await channelOf('up'))!;
    assert.deepEqual(c.models, { m1: 'm1', m2: 'upstream-m2' });
    assert.equal(c.proxy, null);
    assert.equal(c.apiKey, null);
  });

  it('refuses, changing nothing: nothing to change, both key flags, a bad value, a rule add would break, an unknown channel', async () => {
    const before = await channelOf('up');
    for (const [args, message] of [
      [[], /nothing to change/],
      [['--api-key', 'sk-x', '--remove-api-key'], /--api-key or --remove-api-key, not both/],
      [['--priority', 'high'], /--priority must be a whole number/],
      [['--base-url', 'ftp://example.com'], /base-url/],
      [['--base-url', 'http://example.com/v1\u0000'], /--base-url must be an http:\/\/ or https:\/\/ URL/],
      [['--proxy', 'http://proxy\tx:3128'], /--proxy must be an http:\/\/ or https:\/\/ URL/],
      [['--map', 'no-equals'], /--map takes PLATFORM=UPSTREAM/],
      [['--models', ''], /--models is required/],
      [['--api-key', 'k\u00e9y-1234'], /--api-key must be printable ASCII/],
    ] as const) {
      const run = await cli('channel', 'update', 'up', ...args);
      assert.notEqual(run.code, 0, args.join(' '));
      assert.match(run.stderr, message, args.join(' '));
    }
    assert.deepEqual(await channelOf('up'), before);
    assert.match((await cli('channel', 'update', 'nope', '--priority', '1')).stderr, /no channel named "nope"/);
  });

  it('records each update in the audit log under cli, whether the key was replaced or removed, never the key', async () => {
    const store = openStore({ dataDir: dir });
    try {
      const rows = (await store.listAudit({ actor: 'cli', limit: 100 })).filter((r) => r.action === 'channel.update');
      assert.ok(rows.length >= 3, JSON.stringify(rows));
      const text = JSON.stringify(rows);
      assert.ok(text.includes('"upstream_key":"replaced"') && text.includes('"upstream_key":"removed"'), text);
      assert.ok(!text.includes('sk-new') && !text.includes('sk-old'), 'no key in the audit log');
    } finally {
      await store.close();
    }
  });

  it('a model priced as a kind its only channel cannot serve: warned of at price and add, refused in words, never tried upstream', async () => {
    const priced = await cli('model', 'price', 'emb-1', '--kind', 'embedding', '--input', '0.1');
    assert.equal(priced.code, 0, priced.stderr);
    assert.doesNotMatch(priced.stderr, /warning/, 'no channel lists it yet: nothing to warn of');
    const added = await cli('channel', 'add', '--type', 'anthropic', '--name', 'claude-side', '--base-url', first.url, '--api-key', 'sk-a', '--models', 'emb-1');
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stderr, /warning: an anthropic channel serves chat models only; "claude-side" will not serve emb-1 \(embedding\)/);
    const again = await cli('model', 'price', 'emb-1', '--kind', 'embedding', '--input', '0.2');
    assert.match(again.stderr, /warning: no enabled channel that lists "emb-1" can serve embedding models \("claude-side" is anthropic\): it is not served/);
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.bootstrapKey!, maxRetries: 0 });
    const sent = first.requests.length;
    const refused = await poll('the gateway follows the new channel', async () => {
      try {
        await client.embeddings.create({ model: 'emb-1', input: 'x' });
      } catch (error) {
        if (error instanceof OpenAI.APIError && error.status === 503) return error;
      }
      return undefined;
    }, 5000);
    assert.equal(refused.code, 'upstream_unavailable');
    assert.match(refused.message, /"emb-1" is priced as an embedding model, which its channel "claude-side" \(anthropic\) cannot serve/);
    assert.equal(first.requests.length, sent, 'nothing went upstream');
    assert.ok(!(await client.models.list()).data.some((m) => m.id === 'emb-1'), 'not listed as a model clients can use');
  });

  it('secrets in a channel\'s URLs: a password in the base URL is refused; query values and a proxy password are masked in the list and redacted from what the upstream says', async () => {
    const refused = await cli('channel', 'add', '--name', 'userinfo', '--base-url', `http://user:pw-secret@127.0.0.1:9/v1`, '--api-key', 'sk-a', '--models', 'u1');
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /--base-url must not carry a user or password/);
    const added = await cli('channel', 'add', '--name', 'query-key', '--base-url', `${first.url}?key=QUERYSECRET42`, '--proxy', 'http://proxyuser:PROXYPASS77@127.0.0.1:3128',
      '--api-key', 'sk-a', '--models', 'q1');
    assert.equal(added.code, 0, added.stderr);
    await cli('channel', 'update', 'query-key', '--proxy', 'none');
    assert.equal((await cli('model', 'price', 'q1', '--input', '1', '--output', '1')).code, 0);
    const listed = await cli('channel', 'list');
    assert.match(listed.stdout, /query-key\topenai\tenabled\thttp:\/\/127\.0\.0\.1:\d+\/v1\?key=\*\*\*\*\t/);
    assert.doesNotMatch(listed.stdout, /QUERYSECRET42/);
    // An upstream that repeats the URL it was called with in its error: the client never sees the query's key.
    first.behaviour = { status: 400, errorMessage: 'bad url /v1/chat/completions?key=QUERYSECRET42' };
    try {
      const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.bootstrapKey!, maxRetries: 0 });
      const error = await poll('the gateway follows', async () => {
        try {
          await client.chat.completions.create({ model: 'q1', messages: [{ role: 'user', content: 'hi' }] });
        } catch (e) {
          if (e instanceof OpenAI.APIError && e.status === 400) return e;
        }
        return undefined;
      }, 5000);
      assert.match(error.message, /bad url \/v1\/chat\/completions\?key=\*\*\*\*/);
      assert.doesNotMatch(error.message, /QUERYSECRET42/);
    } finally {
      first.behaviour = {};
    }
  });
});
