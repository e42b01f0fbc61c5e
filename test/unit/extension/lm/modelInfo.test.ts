import assert from 'node:assert/strict';
import { ECHO_OWNER } from '../../../../src/contract/index.ts';
import { DEFAULT_CONTEXT_TOKENS, DEFAULT_OUTPUT_TOKENS, estimateTokens, supportsToolCalling, toModelInfo, toModelInfos } from '../../../../src/extension/lm/modelInfo.ts';

describe('lm/modelInfo', () => {
  it('declares tool calling for ordinary chat models and not for the echo model', () => {
    assert.equal(supportsToolCalling({ id: 'gpt-4o', owned_by: 'openai' }), true);
    assert.equal(supportsToolCalling({ id: 'echo', owned_by: ECHO_OWNER }), false);
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
      { id: 'echo', owned_by: ECHO_OWNER },
      { id: 'gpt-4o' },
      { id: 'deepseek-reasoner', name: 'DeepSeek R1' },
    ]);
    assert.deepEqual(infos.map((info) => [info.id, info.name, info.capabilities.toolCalling]), [
      ['deepseek-reasoner', 'DeepSeek R1', true],
      ['echo', 'echo', false],
      ['gpt-4o', 'gpt-4o', true],
    ]);
  });

  it('estimates tokens at about four characters each', () => {
    assert.equal(estimateTokens(''), 0);
    assert.equal(estimateTokens('abcdefgh'), 2);
    assert.equal(estimateTokens('abcde'), 2);
  });
});
