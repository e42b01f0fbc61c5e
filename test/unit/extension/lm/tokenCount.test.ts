// provideTokenCount's estimate: VS Code's chat budgets the prompt it builds for a model with it (against the model's
// maxInputTokens), so an estimate far under the real count overflows the model's context. Four characters per token
// holds for English and code; Chinese, Japanese and Korean text takes about one token per character.
import assert from 'node:assert/strict';
import { estimateMessageTokens } from '../../../../src/extension/lm/tokenCount.ts';
import { estimateTokens } from '../../../../src/extension/tokens.ts';

describe('lm token count estimate', () => {
  it('English and code: about four characters per token, as before', () => {
    assert.equal(estimateTokens('abcdefgh'), 2);
    assert.equal(estimateTokens('export const answer = 42;\n'), 7);
  });

  it('Chinese, Japanese and Korean text: about one token per character, not a quarter', () => {
    const chinese = '请把这个函数改成异步的，并说明原因。'.repeat(50);
    assert.ok(estimateTokens(chinese) >= chinese.length, `${estimateTokens(chinese)} tokens for ${chinese.length} characters`);
    assert.ok(estimateTokens('日本語のテキスト') >= 8);
    assert.ok(estimateTokens('한국어 텍스트') >= 6);
  });

  it('a message: its text, tool calls and tool results, each counted the same way', () => {
    const text = '解释这段代码';
    const content = [
      { value: text },
      { callId: 'c1', name: 'read_file', input: { path: 'a.ts' } },
      { callId: 'c1', content: [{ value: '文件内容' }] },
    ];
    const expected = estimateTokens(text) + estimateTokens('read_file' + JSON.stringify({ path: 'a.ts' })) + estimateTokens('文件内容');
    assert.equal(estimateMessageTokens(content), expected);
    assert.ok(estimateMessageTokens(content) >= text.length + 4);
  });
});
