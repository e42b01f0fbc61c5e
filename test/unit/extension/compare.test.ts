import assert from 'node:assert/strict';
import type { ChatCompletionChunk } from '../../../src/contract/index.ts';
import { ModelRun } from '../../../src/extension/compare/modelRun.ts';
import { compareTable, duration, runLine } from '../../../src/extension/compare/compareTable.ts';
import { english } from '../../../src/extension/translate.ts';

const chunk = (delta: Record<string, unknown>, usage?: object): ChatCompletionChunk =>
  ({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: null }], ...(usage ? { usage } : {}) }) as unknown as ChatCompletionChunk;

/** A stream whose chunks are let through one at a time by `next()`. */
function gatedStream(chunks: readonly ChatCompletionChunk[], failAfter?: number) {
  const gates: Array<() => void> = [];
  let opened = 0;
  return {
    next: () => {
      const gate = gates.shift();
      if (gate) gate();
      else opened++;
    },
    async *stream(): AsyncGenerator<ChatCompletionChunk> {
      for (const [i, c] of chunks.entries()) {
        if (opened > 0) opened--;
        else await new Promise<void>((r) => gates.push(r));
        if (i === failAfter) throw new Error('connection reset');
        yield c;
      }
    },
  };
}

describe('/compare: one model\'s run', () => {
  it('gives a late reader the chunks that came before it, then the rest as they come', async () => {
    const gate = gatedStream([chunk({ role: 'assistant' }), chunk({ content: 'one ' }), chunk({ content: 'two' }), chunk({}, { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 })]);
    let clock = 0;
    const run = new ModelRun('m', () => gate.stream(), () => clock);
    gate.next(); clock = 5; gate.next(); // the role chunk, then the first text at 5 ms
    await new Promise((r) => setImmediate(r));
    const read: string[] = [];
    const reading = (async () => {
      for await (const c of run.chunks()) read.push(c.choices[0]?.delta?.content ?? (c.usage ? 'usage' : 'role'));
    })();
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(read, ['role', 'one '], 'what came before reading began');
    clock = 9; gate.next(); gate.next();
    await reading;
    assert.deepEqual(read, ['role', 'one ', 'two', 'usage']);
    const result = await run.result;
    assert.equal(result.firstTokenMs, 5, 'the role chunk is not a token');
    assert.equal(result.totalMs, 9);
    assert.deepEqual(result.usage, { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 });
    assert.equal(result.error, undefined);
  });

  it('keeps what came before a failure, and reports the failure', async () => {
    const gate = gatedStream([chunk({ content: 'partial' }), chunk({ content: 'never' })], 1);
    const run = new ModelRun('m', () => gate.stream(), () => 0);
    gate.next(); gate.next();
    const read: string[] = [];
    for await (const c of run.chunks()) read.push(c.choices[0]!.delta!.content!);
    assert.deepEqual(read, ['partial']);
    assert.match(String((await run.result).error), /connection reset/);
  });

  it('counts reasoning as the first token', async () => {
    const gate = gatedStream([chunk({ reasoning_content: 'hmm' })]);
    let clock = 0;
    const run = new ModelRun('m', () => gate.stream(), () => clock);
    clock = 7; gate.next();
    assert.equal((await run.result).firstTokenMs, 7);
  });
});

describe('/compare: what it says of each model', () => {
  const usage = { prompt_tokens: 1200, completion_tokens: 34, total_tokens: 1234, cost: 0.00125 };

  it('a line per answer: first token, in all, tokens and cost where the gateway tells it', () => {
    assert.equal(runLine({ model: 'a', firstTokenMs: 420, totalMs: 1830, usage, failed: false }, english), 'first token after 420 ms · 1.8 s in all · 1,200 + 34 tokens · $0.00125');
    assert.equal(runLine({ model: 'a', firstTokenMs: null, totalMs: 90, failed: false }, english), '90 ms in all');
    assert.equal(duration(999.6), '1000 ms');
    assert.equal(duration(12_340), '12.3 s');
  });

  it('a table in the order asked, a failed model marked, names as code, a pipe in a name escaped', () => {
    const table = compareTable([
      { model: 'gpt|x', firstTokenMs: 420, totalMs: 1830, usage, failed: false },
      { model: 'broken', firstTokenMs: null, totalMs: 10, failed: true },
    ], english);
    assert.equal(table, [
      '| Model | First token | In all | Tokens (in + out) | Cost |',
      '| --- | --- | --- | --- | --- |',
      '| `gpt\\|x` | 420 ms | 1.8 s | 1,200 + 34 | $0.00125 |',
      '| `broken` | failed | 10 ms | — | — |',
    ].join('\n'));
  });
});
