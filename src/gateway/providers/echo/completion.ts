/**
 * The `echo` channel's legacy completions (POST /v1/completions), in OpenAI's `text_completion` shapes.
 * - Text: `You said: <prompt>`; with a `suffix` (fill-in-the-middle), `You said: <prompt> then <suffix>`,
 *   so a test sees both ends were read. Token-array prompts read as their numbers.
 * - One choice per prompt and per `n`; `echo: true` puts the prompt before the text; `stop` cuts the
 *   text before the first stop string (finish reason `stop`); the cap (the client's `max_tokens` and the
 *   account's, whichever is smaller) cuts it with `length`.
 * - Tokens are word-sized, as in the chat model: usage is exact.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { CompletionRequest } from '../../../contract/index.ts';
import { elapsedMs, type AttemptContext, type AttemptResult } from '../../relay/attempt.ts';
import { clientGone } from '../../relay/clientGone.ts';
import { SSE_DONE } from '../../relay/formats/openaiStream.ts';
import { usdOf } from '../../relay/formats/cost.ts';
import { startEventStream, write } from '../../relay/respond.ts';
import { writeEchoAnswer } from './answer.ts';
import type { RelayUsage } from '../../relay/types.ts';
import { tokenize } from './model.ts';

interface CompletionChoicePlan {
  readonly prompt: string;
  readonly tokens: readonly string[];
  readonly finishReason: 'stop' | 'length';
}

/** The prompts of a request as text. */
export function promptsOf(prompt: CompletionRequest['prompt']): string[] {
  if (typeof prompt === 'string') return [prompt];
  if (prompt.every((p) => typeof p === 'number')) return [prompt.join(' ')];
  return prompt.map((p) => (typeof p === 'string' ? p : (p as number[]).join(' ')));
}

/** What the echo completion model answers for each choice. Pure. */
export function planEchoCompletion(body: CompletionRequest, accountCap: number | null): CompletionChoicePlan[] {
  const stops = typeof body.stop === 'string' ? [body.stop] : (body.stop ?? []);
  const caps = [accountCap, body.max_tokens].filter((c): c is number => typeof c === 'number');
  const cap = caps.length > 0 ? Math.min(...caps) : Infinity;
  const choices: CompletionChoicePlan[] = [];
  for (const prompt of promptsOf(body.prompt)) {
    let text = body.suffix ? `You said: ${prompt} then ${body.suffix}` : `You said: ${prompt}`;
    let finishReason: 'stop' | 'length' = 'stop';
    const stopAt = Math.min(...stops.filter((s) => s !== '').map((s) => text.indexOf(s)).filter((i) => i >= 0));
    if (Number.isFinite(stopAt)) text = text.slice(0, stopAt);
    let tokens = tokenize(text);
    if (tokens.length > cap) {
      tokens = tokens.slice(0, cap);
      finishReason = 'length';
    }
    for (let i = 0; i < (body.n ?? 1); i++) choices.push({ prompt, tokens, finishReason });
  }
  return choices;
}

export async function echoCompletion(ctx: AttemptContext, body: CompletionRequest): Promise<AttemptResult> {
  const { request, channel } = ctx;
  const plan = planEchoCompletion(body, request.maxCompletionTokens);
  const promptTokens = promptsOf(body.prompt).reduce((n, p) => n + tokenize(p).length, 0) + tokenize(body.suffix ?? '').length;
  const delay = ctx.deps.echoDelayMs;
  const id = `cmpl-${request.requestId}`;
  const created = Math.floor(Date.now() / 1000);
  let generated = 0;
  const usage = (): RelayUsage => ({ promptTokens, completionTokens: generated, estimated: false });
  const usageBody = () => ({ prompt_tokens: promptTokens, completion_tokens: generated, total_tokens: promptTokens + generated });
  const envelope = { id, object: 'text_completion', created, model: request.model };
  const lead = (choice: CompletionChoicePlan) => (body.echo ? choice.prompt : '');
  let firstByteMs: number | null = null;

  try {
    if (!request.stream) {
      const total = plan.reduce((n, c) => n + c.tokens.length, 0);
      for (; generated < total; generated++) if (delay > 0) await sleep(delay, undefined, { signal: request.signal });
      if (request.signal.aborted) return clientGone(ctx, usage());
      const choices = plan.map((c, index) => ({ index, text: lead(c) + c.tokens.join(''), logprobs: null, finish_reason: c.finishReason }));
      writeEchoAnswer(request, usage(), JSON.stringify({ ...envelope, choices, usage: usageBody() }));
      return { kind: 'final', outcome: { kind: 'success', status: 200, channel: channel.name, firstByteMs: elapsedMs(ctx.startedAt), usage: usage() } };
    }

    const chunk = (index: number, text: string, finishReason: string | null = null) =>
      `data: ${JSON.stringify({ ...envelope, choices: [{ index, text, logprobs: null, finish_reason: finishReason }] })}\n\n`;
    if (request.signal.aborted) return clientGone(ctx, usage());
    startEventStream(request);
    firstByteMs = elapsedMs(ctx.startedAt);
    for (const [index, choice] of plan.entries()) {
      if (lead(choice) && !(await write(request.res, chunk(index, lead(choice))))) return clientGone(ctx, usage(), firstByteMs);
      for (const token of choice.tokens) {
        if (delay > 0) await sleep(delay, undefined, { signal: request.signal });
        if (request.signal.aborted) return clientGone(ctx, usage(), firstByteMs);
        generated++;
        if (!(await write(request.res, chunk(index, token)))) return clientGone(ctx, usage(), firstByteMs);
      }
      if (!(await write(request.res, chunk(index, '', choice.finishReason)))) return clientGone(ctx, usage(), firstByteMs);
    }
    // Its cost in it, as an upstream's usage chunk gets it (openaiStream.ts).
    let tail = '';
    if (request.clientWantsUsage) {
      const usd = usdOf(request, usage());
      tail = `data: ${JSON.stringify({ ...envelope, choices: [], usage: usd === undefined ? usageBody() : { ...usageBody(), cost: usd } })}\n\n`;
    }
    if (!(await write(request.res, tail + SSE_DONE))) return clientGone(ctx, usage(), firstByteMs);
    request.res.end();
    return { kind: 'final', outcome: { kind: 'success', status: 200, channel: channel.name, firstByteMs, usage: usage() } };
  } catch (err) {
    if (request.signal.aborted) return clientGone(ctx, usage(), firstByteMs);
    throw err;
  }
}
