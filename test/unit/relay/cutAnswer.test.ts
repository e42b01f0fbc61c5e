// A whole answer past its cap is cut in every part that was generated, in each upstream format
// (relay/formats/cutAnswer.ts): text, reasoning, tool call arguments; never a Messages tool_use half-made.
import assert from 'node:assert/strict';
import { cutAnswer } from '../../../src/gateway/relay/formats/cutAnswer.ts';

const TEN = '0123456789';

describe('cutAnswer', () => {
  it('chat: content, reasoning and every call\'s arguments cut in proportion; finish "length", usage the cap', () => {
    const answer = { choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: TEN, reasoning_content: TEN.repeat(2), tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: TEN.repeat(4) } }] } }], usage: { prompt_tokens: 3, completion_tokens: 100 } };
    const cut = cutAnswer('chat', answer, 100, 50) as any;
    assert.deepEqual(cut.choices[0].message, { role: 'assistant', content: '01234', reasoning_content: TEN, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: TEN.repeat(2) } }] });
    assert.equal(cut.choices[0].finish_reason, 'length');
    assert.deepEqual(cut.usage, { prompt_tokens: 3, completion_tokens: 50, total_tokens: 53 });
  });

  it('messages: text and thinking cut, a tool_use left out (its input cannot be cut), stop_reason "max_tokens"', () => {
    const answer = { content: [{ type: 'thinking', thinking: TEN, signature: 's' }, { type: 'text', text: TEN }, { type: 'tool_use', id: 't', name: 'f', input: { a: TEN } }], stop_reason: 'tool_use', usage: { input_tokens: 3, output_tokens: 10 } };
    const cut = cutAnswer('messages', answer, 10, 5) as any;
    assert.deepEqual(cut.content, [{ type: 'thinking', thinking: '01234', signature: 's' }, { type: 'text', text: '01234' }]);
    assert.deepEqual([cut.stop_reason, cut.usage.output_tokens], ['max_tokens', 5]);
  });

  it('responses: message text, reasoning summary and call arguments cut; status "incomplete" for max_output_tokens', () => {
    const answer = {
      status: 'completed',
      output: [
        { type: 'reasoning', summary: [{ type: 'summary_text', text: TEN }] },
        { type: 'message', status: 'completed', content: [{ type: 'output_text', text: TEN }] },
        { type: 'function_call', status: 'completed', name: 'f', arguments: TEN },
      ],
      usage: { input_tokens: 3, output_tokens: 10 },
    };
    const cut = cutAnswer('responses', answer, 10, 5) as any;
    assert.deepEqual(cut.output.map((item: any) => item.summary?.[0].text ?? item.content?.[0].text ?? item.arguments), ['01234', '01234', '01234']);
    assert.deepEqual([cut.status, cut.incomplete_details, cut.usage], ['incomplete', { reason: 'max_output_tokens' }, { input_tokens: 3, output_tokens: 5, total_tokens: 8 }]);
  });

  it('nothing to cut in embeddings and images', () => {
    assert.equal(cutAnswer('embedding', { data: [] }, 10, 5), null);
    assert.equal(cutAnswer('image', { data: [] }, 10, 5), null);
  });
});
