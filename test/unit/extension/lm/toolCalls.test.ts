import assert from 'node:assert/strict';
import { ToolCallAccumulator, ToolCallError } from '../../../../src/extension/lm/toolCalls.ts';
import type { ToolCallFragment } from '../../../../src/extension/lm/toolCalls.ts';

/** Split a string into pieces of `size` characters. */
function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

describe('lm/toolCalls ToolCallAccumulator', () => {
  it('joins arguments streamed one character at a time, split mid-token', () => {
    const args = JSON.stringify({ path: 'src/a b.ts', lines: [1, 2], note: 'naïve “quotes” \\ done' });
    const acc = new ToolCallAccumulator();
    acc.add([{ index: 0, id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '' } }]);
    for (const piece of pieces(args, 1)) acc.add([{ index: 0, function: { arguments: piece } }]);
    assert.equal(acc.pending, true);
    const calls = acc.finish();
    assert.deepEqual(calls, [{ callId: 'call_1', name: 'read_file', input: JSON.parse(args) }]);
    assert.equal(acc.pending, false);
  });

  it('keeps several parallel calls apart by index, interleaved, and returns them in index order', () => {
    const a = JSON.stringify({ city: 'Paris' });
    const b = JSON.stringify({ city: 'Tokyo', unit: 'C' });
    const acc = new ToolCallAccumulator();
    const frames: ToolCallFragment[][] = [
      [{ index: 1, id: 'call_b', function: { name: 'weather', arguments: '' } }],
      [{ index: 0, id: 'call_a', function: { name: 'weather', arguments: '' } }],
    ];
    const pa = pieces(a, 3);
    const pb = pieces(b, 4);
    for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
      const frame: ToolCallFragment[] = [];
      if (pb[i]) frame.push({ index: 1, function: { arguments: pb[i] } });
      if (pa[i]) frame.push({ index: 0, function: { arguments: pa[i] } });
      frames.push(frame);
    }
    for (const frame of frames) acc.add(frame);
    assert.deepEqual(acc.finish(), [
      { callId: 'call_a', name: 'weather', input: { city: 'Paris' } },
      { callId: 'call_b', name: 'weather', input: { city: 'Tokyo', unit: 'C' } },
    ]);
  });

  it('accepts a name repeated whole in every fragment, or streamed in pieces', () => {
    const acc = new ToolCallAccumulator();
    acc.add([{ index: 0, id: 'x', function: { name: 'get_weather', arguments: '{"a":' } }]);
    acc.add([{ index: 0, id: 'x', function: { name: 'get_weather', arguments: '1}' } }]);
    acc.add([{ index: 1, id: 'y', function: { name: 'get_', arguments: '' } }]);
    acc.add([{ index: 1, function: { name: 'time', arguments: '{}' } }]);
    assert.deepEqual(acc.finish(), [
      { callId: 'x', name: 'get_weather', input: { a: 1 } },
      { callId: 'y', name: 'get_time', input: {} },
    ]);
  });

  it('treats empty arguments as an empty object and invents an id when the upstream sent none', () => {
    const acc = new ToolCallAccumulator(() => 'generated');
    acc.add([{ index: 0, function: { name: 'list_files' } }]);
    assert.deepEqual(acc.finish(), [{ callId: 'generated', name: 'list_files', input: {} }]);
  });

  it('refuses malformed arguments with a coded error naming the tool', () => {
    const acc = new ToolCallAccumulator();
    acc.add([{ index: 0, id: 'c', function: { name: 'edit', arguments: '{"path": "a.ts", ' } }]);
    assert.throws(
      () => acc.finish(),
      (error: unknown) => error instanceof ToolCallError && error.code === 'tool_call_arguments_invalid' && error.toolName === 'edit',
    );
  });

  it('refuses arguments that are JSON but not an object', () => {
    const acc = new ToolCallAccumulator();
    acc.add([{ index: 0, id: 'c', function: { name: 'edit', arguments: '[1,2]' } }]);
    assert.throws(() => acc.finish(), (error: unknown) => error instanceof ToolCallError && error.code === 'tool_call_arguments_invalid');
  });

  it('refuses a call without a name', () => {
    const acc = new ToolCallAccumulator();
    acc.add([{ index: 0, id: 'c', function: { arguments: '{}' } }]);
    assert.throws(() => acc.finish(), (error: unknown) => error instanceof ToolCallError && error.code === 'tool_call_name_missing');
  });
});
