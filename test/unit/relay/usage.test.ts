// Token counts an upstream reports are taken only when they are counts a request can have: anything else
// (negative, fractional, absurdly large) leaves the usage to be estimated, never a number a store refuses.
import assert from 'node:assert/strict';
import { inputUsage, MAX_REPORTED_TOKENS, messagesUsage, openaiUsage, responsesUsage, toOpenaiUsage } from '../../../src/gateway/relay/formats/usage.ts';
import { toResponsesUsage } from '../../../src/gateway/relay/formats/chatResponses/answer.ts';

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

  it('an Anthropic usage without an input count is none (estimated by the caller), unless message_start said it', () => {
    // An upstream that reported only its output would have had the prompt charged as nothing.
    for (const partial of [{ output_tokens: 3 }, { input_tokens: -5, output_tokens: 3 }, { input_tokens: null, output_tokens: 3 }]) assert.equal(messagesUsage(partial), null, JSON.stringify(partial));
    const start = messagesUsage({ input_tokens: 20, output_tokens: 1 })!;
    assert.deepEqual(messagesUsage({ output_tokens: 9 }, start), { promptTokens: 20, completionTokens: 9, estimated: false }, "a message_delta's output, message_start's input");
    assert.equal(messagesUsage({}, start), null, 'a message_delta that says nothing is not the final count');
  });

  it("0 in an Anthropic usage is a placeholder (SGLang, Ollama): a message_delta's counts are the larger of its own and message_start's, and a usage of no input at all is none", () => {
    const start = messagesUsage({ input_tokens: 5000, output_tokens: 1, cache_read_input_tokens: 300 })!;
    assert.deepEqual(messagesUsage({ input_tokens: 0, output_tokens: 40, cache_read_input_tokens: 0 }, start), { promptTokens: 5300, completionTokens: 40, estimated: false, cacheReadTokens: 300 });
    assert.equal(messagesUsage({ input_tokens: 0, output_tokens: 0 }), null, 'a message_start of zeros says nothing');
    assert.equal(messagesUsage({ input_tokens: 0, output_tokens: 40 }), null, 'a whole answer with no input is estimated');
    assert.deepEqual(messagesUsage({ input_tokens: 7, output_tokens: 40 }, messagesUsage({ input_tokens: 7, output_tokens: 1 })), { promptTokens: 7, completionTokens: 40, estimated: false }, 'Anthropic itself: the input again, the output grown');
  });

  it("cache reads in OpenAI's shape or DeepSeek's (prompt_cache_hit_tokens, with no cached_tokens)", () => {
    assert.equal(openaiUsage({ prompt_tokens: 100, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 60 } })!.cacheReadTokens, 60);
    assert.equal(openaiUsage({ prompt_tokens: 100, completion_tokens: 5, prompt_cache_hit_tokens: 80, prompt_cache_miss_tokens: 20 })!.cacheReadTokens, 80);
    assert.equal(openaiUsage({ prompt_tokens: 100, completion_tokens: 5, prompt_cache_hit_tokens: 0 })!.cacheReadTokens, undefined);
  });

  it('reasoning tokens an upstream reports are told on in the client\'s format (within the output, never priced apart)', () => {
    const chat = openaiUsage({ prompt_tokens: 10, completion_tokens: 50, completion_tokens_details: { reasoning_tokens: 40 } })!;
    assert.equal(chat.reasoningTokens, 40);
    assert.deepEqual((toResponsesUsage(chat)['output_tokens_details'] as object), { reasoning_tokens: 40 });
    assert.deepEqual(toOpenaiUsage(chat)['completion_tokens_details'], { reasoning_tokens: 40 });
    assert.equal(responsesUsage({ input_tokens: 1, output_tokens: 5, output_tokens_details: { reasoning_tokens: 9 } })!.reasoningTokens, 5, 'at most the output');
    assert.equal(openaiUsage({ prompt_tokens: 1, completion_tokens: 2 })!.reasoningTokens, undefined);
  });
});
