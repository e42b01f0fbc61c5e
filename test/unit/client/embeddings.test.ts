// The typed client's embeddings answer: vectors in input order from numbers or base64 float32, and a wrong answer refused.
import assert from 'node:assert/strict';
import { embeddingsOf } from '../../../src/client/embeddings.ts';
import { InvalidResponseError } from '../../../src/client/errors.ts';

const base64 = (...values: number[]) => Buffer.from(Float32Array.from(values).buffer).toString('base64');

describe('client: embeddings answers', () => {
  it('puts vectors in input order, from numbers or base64, with the tokens and the cost header', () => {
    const answer = { data: [{ index: 1, embedding: base64(0.5, -1) }, { index: 0, embedding: [0.25, 2] }], usage: { prompt_tokens: 7 } };
    const out = embeddingsOf(answer, 2, 200, { 'x-gateway-cost': '0.00014' });
    assert.deepEqual(out.vectors.map((v) => [...v]), [[0.25, 2], [0.5, -1]]);
    assert.equal(out.promptTokens, 7);
    assert.equal(out.costUsd, 0.00014);
    const bare = embeddingsOf({ data: [{ index: 0, embedding: [1] }] }, 1, 200, {});
    assert.deepEqual([bare.promptTokens, bare.costUsd], [null, null]);
  });

  it('refuses an answer with the wrong count, a repeated index or vectors of different lengths', () => {
    const wrong = (data: Array<{ index: number; embedding: number[] | string }>, inputs: number, message: RegExp) =>
      assert.throws(() => embeddingsOf({ data }, inputs, 200, { 'x-request-id': 'req_1' }), (e: unknown) => e instanceof InvalidResponseError && message.test(e.message) && e.requestId === 'req_1');
    wrong([{ index: 0, embedding: [1] }], 2, /1 vectors for 2 inputs/);
    wrong([{ index: 0, embedding: [1] }, { index: 0, embedding: [1] }], 2, /repeats or overruns index 0/);
    wrong([{ index: 0, embedding: [1] }, { index: 5, embedding: [1] }], 2, /index 5/);
    wrong([{ index: 0, embedding: [1, 2] }, { index: 1, embedding: [1] }], 2, /different or no length/);
    wrong([{ index: 0, embedding: '' }], 1, /different or no length/);
  });
});
