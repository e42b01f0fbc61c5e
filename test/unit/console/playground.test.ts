// The playground's conversation as data (src/console/playground/conversation.ts): what each streamed event
// adds (text, the usage with its cost, an error event in the contract's body, the end), and the request for
// the conversation so far (finished turns only, the system prompt when there is one).
import assert from 'node:assert/strict';
import { readChunk, requestOf, type PlaygroundTurn } from '../../../src/console/playground/conversation.ts';

describe('console playground conversation', () => {
  it('reads a delta, the usage with its cost, an error event and [DONE]', () => {
    assert.deepEqual(readChunk('{"choices":[{"index":0,"delta":{"content":"You said"}}]}'), { text: 'You said', usage: null, failure: null, done: false });
    assert.deepEqual(readChunk('{"choices":[],"usage":{"prompt_tokens":9,"completion_tokens":7,"total_tokens":16,"cost":0.000074}}').usage, { prompt: 9, completion: 7, cost: 0.000074 });
    assert.deepEqual(readChunk('{"error":{"code":"upstream_error","message":"The upstream broke. (request id: x)"}}').failure, { code: 'upstream_error', message: 'The upstream broke. (request id: x)' });
    assert.equal(readChunk('[DONE]').done, true);
    assert.deepEqual(readChunk('not json'), { text: '', usage: null, failure: null, done: false });
  });

  it('asks with every finished turn, oldest first, and the system prompt only when given', () => {
    const turns: PlaygroundTurn[] = [
      { role: 'user', content: 'first' }, { role: 'assistant', content: 'You said: first' },
      { role: 'user', content: 'second' }, { role: 'assistant', content: '', stopped: true }, { role: 'user', content: 'third' },
    ];
    assert.deepEqual(requestOf('echo', '  ', turns), {
      model: 'echo',
      messages: [{ role: 'user', content: 'first' }, { role: 'assistant', content: 'You said: first' }, { role: 'user', content: 'second' }, { role: 'user', content: 'third' }],
    });
    assert.equal(requestOf('echo', 'Be brief.', turns).system, 'Be brief.');
    assert.equal(requestOf('echo', '', [...turns, { role: 'assistant', content: 'half', writing: true }]).messages.length, 4, 'an answer still arriving is not sent');
  });
});
