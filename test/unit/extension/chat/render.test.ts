import assert from 'node:assert/strict';
import type { ChatCompletionChunk } from '../../../../src/contract/index.ts';
import { AnswerRenderer } from '../../../../src/extension/chat/render.ts';
import type { DisplayOp } from '../../../../src/extension/chat/render.ts';
import { ThinkTagSplitter } from '../../../../src/extension/chat/thinkTags.ts';

const labels = { thinking: 'Thinking', thinkingProgress: 'Thinking…' };
const delta = (d: Record<string, unknown>, finish: string | null = null): ChatCompletionChunk => ({ choices: [{ index: 0, delta: d, finish_reason: finish }] });

function run(chunks: ChatCompletionChunk[]): { renderer: AnswerRenderer; ops: DisplayOp[] } {
  const renderer = new AnswerRenderer(labels);
  const ops = chunks.flatMap((chunk) => renderer.push(chunk));
  ops.push(...renderer.finish());
  return { renderer, ops };
}
const markdownOf = (ops: DisplayOp[]) => ops.filter((op) => op.kind === 'markdown').map((op) => op.value).join('');

describe('chat/render AnswerRenderer', () => {
  it('streams plain content as markdown, piece by piece', () => {
    const { renderer, ops } = run([delta({ role: 'assistant', content: '' }), delta({ content: 'Hel' }), delta({ content: 'lo' }, 'stop')]);
    assert.deepEqual(ops, [
      { kind: 'markdown', value: 'Hel' },
      { kind: 'markdown', value: 'lo' },
    ]);
    assert.equal(renderer.answer, 'Hello');
    assert.equal(renderer.finishReason, 'stop');
  });

  it('shows reasoning_content apart, as a quoted Thinking block before the answer', () => {
    const { renderer, ops } = run([delta({ reasoning_content: 'First line\nsec' }), delta({ reasoning_content: 'ond line' }), delta({ content: 'Answer' })]);
    assert.deepEqual(ops[0], { kind: 'progress', value: 'Thinking…' });
    assert.equal(markdownOf(ops), '> **Thinking**\n>\n> First line\n> second line\n\nAnswer');
    assert.equal(renderer.answer, 'Answer');
    assert.equal(renderer.reasoning, 'First line\nsecond line');
  });

  it('reads the `reasoning` field too', () => {
    const { renderer } = run([delta({ reasoning: 'hmm' }), delta({ content: 'ok' })]);
    assert.equal(renderer.reasoning, 'hmm');
    assert.equal(renderer.answer, 'ok');
  });

  it('separates a leading <think> block in the content, with tags split across chunks', () => {
    const text = '<think>Let me see.\nYes.</think>\n\nThe answer is 4.';
    for (let size = 1; size <= text.length; size++) {
      const chunks: ChatCompletionChunk[] = [];
      for (let i = 0; i < text.length; i += size) chunks.push(delta({ content: text.slice(i, i + size) }));
      const { renderer, ops } = run(chunks);
      assert.equal(renderer.reasoning, 'Let me see.\nYes.', `size ${size}`);
      assert.equal(renderer.answer, 'The answer is 4.', `size ${size}`);
      assert.equal(markdownOf(ops), '> **Thinking**\n>\n> Let me see.\n> Yes.\n\nThe answer is 4.', `size ${size}`);
    }
  });

  it('leaves content that merely mentions <think> later alone', () => {
    const { renderer } = run([delta({ content: 'Use the ' }), delta({ content: '<think> tag' })]);
    assert.equal(renderer.answer, 'Use the <think> tag');
    assert.equal(renderer.reasoning, '');
  });
});

describe('chat/thinkTags ThinkTagSplitter', () => {
  it('gives back held text at the end: unfinished reasoning stays reasoning', () => {
    const splitter = new ThinkTagSplitter();
    assert.deepEqual(splitter.push('<thi'), { reasoning: '', content: '' });
    assert.deepEqual(splitter.push('nk>abc</thi'), { reasoning: 'abc', content: '' });
    assert.deepEqual(splitter.finish(), { reasoning: '</thi', content: '' });
  });

  it('a short answer that looks like the start of a tag is still shown', () => {
    const splitter = new ThinkTagSplitter();
    assert.deepEqual(splitter.push('<'), { reasoning: '', content: '' });
    assert.deepEqual(splitter.finish(), { reasoning: '', content: '<' });
  });
});
