// A request body sent compressed (Content-Encoding), as some clients and proxies send large prompts: read in
// gzip, deflate, br and zstd; never past the body limit once decompressed (a small bomb is 413, not held);
// an unknown coding is 415 and a body that is not what its coding says is 400, each in the contract's body.
import assert from 'node:assert/strict';
import * as zlib from 'node:zlib';
import { answerOf, assertError, type Answer } from '../../support/answer.ts';
import { call, chatBody, startTestGateway, type Started } from './helpers.ts';

describe('compressed request bodies', () => {
  let t: Started;
  before(async () => {
    t = await startTestGateway({ maxBodyBytes: 64 * 1024 });
  });
  after(async () => {
    await t.close();
  });

  const send = async (body: Buffer, encoding: string): Promise<Answer> => {
    const res = await fetch(`${t.gw.url}/v1/chat/completions`, { method: 'POST', body: new Uint8Array(body), headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json', 'content-encoding': encoding } });
    return answerOf(res.status, res.headers, await res.text());
  };

  it('reads gzip, deflate (zlib or raw), br and zstd bodies as the JSON they hold', async () => {
    const json = Buffer.from(JSON.stringify(chatBody('echo', 'sent compressed')));
    for (const [encoding, packed] of [
      ['gzip', zlib.gzipSync(json)], ['deflate', zlib.deflateSync(json)], ['deflate', zlib.deflateRawSync(json)], ['br', zlib.brotliCompressSync(json)], ['zstd', zlib.zstdCompressSync(json)], ['GZIP', zlib.gzipSync(json)],
    ] as const) {
      const answer = await send(packed, encoding);
      assert.equal(answer.status, 200, `${encoding}: ${answer.text}`);
      assert.equal(answer.json.choices[0].message.content, 'You said: sent compressed');
    }
  });

  it('refuses a body past the limit once decompressed (413), an unknown coding (415), a body that is not its coding (400)', async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(1024 * 1024, 0x20));
    assert.ok(bomb.length < 64 * 1024, 'small on the wire');
    assertError(await send(bomb, 'gzip'), 413, 'request_too_large');
    assertError(await send(Buffer.from('{}'), 'compress'), 415, 'json_required');
    assertError(await send(Buffer.from(JSON.stringify(chatBody())), 'gzip'), 400, 'invalid_request');
    assert.equal((await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: chatBody() })).status, 200, 'and serves on');
  });
});
