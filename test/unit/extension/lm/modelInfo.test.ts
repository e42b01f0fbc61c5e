import assert from 'node:assert/strict';
import { ECHO_OWNER } from '../../../../src/contract/index.ts';
import { DEFAULT_CONTEXT_TOKENS, DEFAULT_OUTPUT_TOKENS, fallbackModelInfos, supportsImageInput, supportsToolCalling, toModelInfo, toModelInfos } from '../../../../src/extension/lm/modelInfo.ts';
import { estimateTokens } from '../../../../src/extension/tokens.ts';

describe('lm/modelInfo', () => {
  it('declares tool calling for ordinary chat models; the echo model follows its capabilities like any other', () => {
    assert.equal(supportsToolCalling({ id: 'gpt-4o', owned_by: 'openai' }), true);
    assert.equal(supportsToolCalling({ id: 'echo', owned_by: ECHO_OWNER, capabilities: { tool_calling: true } }), true);
    assert.equal(supportsToolCalling({ id: 'echo', owned_by: ECHO_OWNER, capabilities: { tool_calling: false } }), false);
  });

  it('declares image input only where the entry says so, in the shapes gateways use', () => {
    assert.equal(supportsImageInput({ id: 'gpt-4o' }), false, 'not said: no');
    assert.equal(supportsImageInput({ id: 'a', capabilities: { tool_calling: true, image_input: true } }), true, 'this gateway');
    assert.equal(supportsImageInput({ id: 'b', capabilities: { image_input: false }, architecture: { input_modalities: ['text', 'image'] } }), false, 'its own word first');
    assert.equal(supportsImageInput({ id: 'c', capabilities: { vision: true } }), true);
    assert.equal(supportsImageInput({ id: 'd', supports_vision: true }), true, 'LiteLLM');
    assert.equal(supportsImageInput({ id: 'e', architecture: { input_modalities: ['text', 'image'] } }), true, 'OpenRouter');
    assert.equal(supportsImageInput({ id: 'f', architecture: { input_modalities: ['text'] } }), false);
    assert.equal(toModelInfo({ id: 'g', capabilities: { image_input: true } }).capabilities.imageInput, true);
  });

  it('follows the entry hints when the gateway gives them', () => {
    assert.equal(supportsToolCalling({ id: 'a', supported_parameters: ['temperature', 'tools'] }), true);
    assert.equal(supportsToolCalling({ id: 'b', supported_parameters: ['temperature'] }), false);
    assert.equal(supportsToolCalling({ id: 'c', capabilities: { tool_calling: false } }), false);
    assert.equal(supportsToolCalling({ id: 'd', capabilities: { function_calling: true }, supported_parameters: [] }), true);
  });

  it('takes token limits from context_length and output fields, else defaults', () => {
    const plain = toModelInfo({ id: 'm', owned_by: 'x' });
    assert.equal(plain.maxOutputTokens, DEFAULT_OUTPUT_TOKENS);
    assert.equal(plain.maxInputTokens, DEFAULT_CONTEXT_TOKENS - DEFAULT_OUTPUT_TOKENS);
    const rich = toModelInfo({ id: 'r', context_length: 200_000, top_provider: { max_completion_tokens: 32_000 } });
    assert.equal(rich.maxOutputTokens, 32_000);
    assert.equal(rich.maxInputTokens, 168_000);
    const small = toModelInfo({ id: 's', context_length: 8_192 });
    assert.equal(small.maxOutputTokens, 2_048);
    assert.equal(small.maxInputTokens, 6_144);
    assert.deepEqual(plain.capabilities, { toolCalling: true, imageInput: false });
  });

  it('lists chat models only, once each, sorted', () => {
    const infos = toModelInfos([
      { id: 'gpt-4o' },
      { id: 'text-embedding-3-small' },
      { id: 'dall-e-3' },
      { id: 'whisper-1' },
      { id: 'echo', owned_by: ECHO_OWNER, capabilities: { tool_calling: false } },
      { id: 'gpt-4o' },
      { id: 'deepseek-reasoner', name: 'DeepSeek R1' },
    ]);
    assert.deepEqual(infos.map((info) => [info.id, info.name, info.capabilities.toolCalling]), [
      ['deepseek-reasoner', 'DeepSeek R1', true],
      ['echo', 'echo', false],
      ['gpt-4o', 'gpt-4o', true],
    ]);
  });

  describe('when /v1/models fails', () => {
    const texts = { detail: 'not verified', tooltip: (id: string, why: string) => `${id} unverified: ${why}` };

    it('offers the configured model, marked as not verified, so chat still reaches the provider and @gateway', () => {
      const [only, ...rest] = fallbackModelInfos(' gpt-4o ', undefined, 'API key refused (401)', texts);
      assert.deepEqual(rest, []);
      assert.equal(only!.id, 'gpt-4o');
      assert.equal(only!.name, 'gpt-4o');
      assert.equal(only!.detail, 'not verified');
      assert.equal(only!.tooltip, 'gpt-4o unverified: API key refused (401)');
      assert.ok(only!.maxInputTokens > 0 && only!.maxOutputTokens > 0);
      // Listed in Agent mode too: the failure is explained when it is used, whatever the mode.
      assert.equal(only!.capabilities.toolCalling, true);
    });

    it('keeps the last good list when there is one', () => {
      const cached = toModelInfos([{ id: 'a' }, { id: 'b' }]);
      assert.deepEqual(fallbackModelInfos('c', cached, 'x', texts), cached);
      assert.equal(fallbackModelInfos('c', [], 'x', texts)[0]!.id, 'c');
    });

    it('offers nothing when no model is configured', () => {
      assert.deepEqual(fallbackModelInfos('', undefined, 'x', texts), []);
      assert.deepEqual(fallbackModelInfos('   ', [], 'x', texts), []);
    });
  });

  it('estimates tokens at about four characters each', () => {
    assert.equal(estimateTokens(''), 0);
    assert.equal(estimateTokens('abcdefgh'), 2);
    assert.equal(estimateTokens('abcde'), 2);
  });
});
