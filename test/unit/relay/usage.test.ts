// Token counts an upstream reports are taken only when they are counts a request can have: anything else
// (negative, fractional, absurdly large) leaves the usage to be estimated, never a number a store refuses.
import assert from 'node:assert/strict';
import { inputUsage, MAX_REPORTED_TOKENS, messagesUsage, openaiUsage, responsesUsage } from '../../../src/gateway/relay/formats/usage.ts';

describe('usage reported by an upstream', () => {
  it('takes counts up to the bound, in every format', () => {
    assert.deepEqual(openaiUsage({ prompt_tokens: MAX_REPORTED_TOKENS, completion_tokens: 3 }), { promptTokens: MAX_REPORTED_TOKENS, completionTokens: 3, estimated: false });
    assert.deepEqual(responsesUsage({ input_tokens: 5, output_tokens: 7 }), { promptTokens: 5, completionTokens: 7, estimated: false });
    assert.deepEqual(inputUsage({ prompt_tokens: 9 }), { promptTokens: 9, completionTokens: 0, estimated: false });
  });

  it('refuses a count past the bound, negative or fractional: the usage is then estimated by the caller', () => {
    for (const bad of [MAX_REPORTED_TOKENS + 1, 1e30, -1, 2.5, Number.NaN, '12']) {
      assert.equal(openaiUsage({ prompt_tokens: bad, completion_tokens: 1 }), null, String(bad));
      assert.equal(responsesUsage({ input_tokens: 1, output_tokens: bad }), null, String(bad));
      assert.equal(inputUsage({ prompt_tokens: bad }), null, String(bad));
    }
    assert.equal(messagesUsage({ input_tokens: 1e30, output_tokens: 1e30 }), null);
  });
});
