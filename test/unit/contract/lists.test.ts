import assert from 'node:assert/strict';
import { ChatRequest, CompletionRequest, EmbeddingRequest, MessagesRequest, ResponsesRequest } from '../../../src/contract/index.ts';
import { MAX_REQUEST_LIST } from '../../../src/contract/values.ts';

// A list is refused at its first bad element: one issue, however many bad elements follow (zod's own arrays
// gave one per element, and a union one per element per option: seconds and gigabytes for one body).
describe('request lists: refused at the first bad element, and over their cap by length alone', () => {
  it('chat: a message with thousands of bad parts, in a list of thousands, is one issue', () => {
    const body = { model: 'm', messages: Array.from({ length: 1500 }, () => ({ role: 'user', content: Array.from({ length: 2500 }, () => 1) })) };
    const parsed = ChatRequest.safeParse(body);
    assert.equal(parsed.success, false);
    assert.equal(parsed.error!.issues.length, 1);
    assert.deepEqual(parsed.error!.issues[0]!.path, ['messages', 0, 'content']);
  });

  it('every endpoint\'s lists are capped: too many elements is one "too big" issue, elements unread', () => {
    const many = Array.from({ length: MAX_REQUEST_LIST + 1 }, () => ({}));
    for (const [schema, body, path] of [
      [ChatRequest, { model: 'm', messages: many }, 'messages'],
      [MessagesRequest, { model: 'm', max_tokens: 1, messages: many }, 'messages'],
      [ResponsesRequest, { model: 'm', input: many }, 'input'],
    ] as const) {
      const parsed = schema.safeParse(body);
      assert.equal(parsed.success, false);
      assert.deepEqual(parsed.error!.issues.map((i) => i.path.join('.')), [path]);
      assert.match(JSON.stringify(parsed.error!.issues), /"too_big"/);
    }
  });

  it('token arrays: checked to the first id that is not a whole number; good ones pass', () => {
    assert.equal(CompletionRequest.safeParse({ model: 'm', prompt: [1, 2, 3] }).success, true);
    assert.equal(EmbeddingRequest.safeParse({ model: 'm', input: [[1, 2], [3]] }).success, true);
    const bad = CompletionRequest.safeParse({ model: 'm', prompt: [1, -2, 'x', 0.5] });
    assert.equal(bad.success, false);
    assert.match(JSON.stringify(bad.error!.issues), /a token id is a whole number/);
    assert.equal(EmbeddingRequest.safeParse({ model: 'm', input: [] }).success, false, 'an empty list is still refused');
  });
});
