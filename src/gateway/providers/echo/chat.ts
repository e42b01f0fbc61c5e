/**
 * The `echo` channel's chat: answers locally (see model.ts for what it says, tool calls included),
 * in exactly OpenAI's completion and chunk shapes, with `model` set to the platform name. Streams
 * token by token with a small delay, honours the client's abort, reports exact usage.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { elapsedMs, type AttemptContext, type AttemptResult } from '../../relay/attempt.ts';
import { clientGone } from '../../relay/clientGone.ts';
import { SSE_DONE, startEventStream, write, writeJson } from '../../relay/respond.ts';
import type { ChatRequest } from '../../../contract/index.ts';
import type { RelayUsage } from '../../relay/types.ts';
import { planEcho, type EchoToken } from './model.ts';

/** One streamed token as an OpenAI chunk delta; a tool call's first delta carries its id and name. */
function deltaOf(token: EchoToken, callId: string): object {
  switch (token.kind) {
    case 'reasoning':
      return { reasoning_content: token.text };
    case 'tool_name':
      return { tool_calls: [{ index: 0, id: callId, type: 'function', function: { name: token.text, arguments: '' } }] };
    case 'tool_arguments':
      return { tool_calls: [{ index: 0, function: { arguments: token.text } }] };
    default:
      return { content: token.text };
  }
}

export async function echoChat(ctx: AttemptContext, body: ChatRequest): Promise<AttemptResult> {
  const { request, channel } = ctx;
  const plan = planEcho(body, request.maxCompletionTokens);
  const delay = ctx.deps.echoDelayMs;
  const id = `chatcmpl-${request.requestId}`;
  const created = Math.floor(Date.now() / 1000);
  let generated = 0;
  const usage = (): RelayUsage => ({ promptTokens: plan.promptTokens, completionTokens: generated, estimated: false });
  const usageBody = () => ({ prompt_tokens: plan.promptTokens, completion_tokens: generated, total_tokens: plan.promptTokens + generated });
  let firstByteMs: number | null = null;

  try {
    if (!request.stream) {
      for (; generated < plan.tokens.length; generated++) if (delay > 0) await sleep(delay, undefined, { signal: request.signal });
      if (request.signal.aborted) return clientGone(ctx, usage());
      const text = (kind: EchoToken['kind']) => plan.tokens.filter((t) => t.kind === kind).map((t) => t.text).join('');
      const reasoning = text('reasoning');
      const call = plan.toolCall && plan.tokens.some((t) => t.kind === 'tool_name') ? plan.toolCall : undefined;
      const message = {
        role: 'assistant',
        content: call ? null : text('content'),
        ...(reasoning ? { reasoning_content: reasoning } : {}),
        ...(call ? { tool_calls: [{ id: call.id, type: 'function', function: { name: call.name, arguments: text('tool_arguments') } }] } : {}),
      };
      const body = { id, object: 'chat.completion', created, model: request.model, choices: [{ index: 0, message, finish_reason: plan.finishReason }], usage: usageBody() };
      writeJson(request.res, request.requestId, 200, JSON.stringify(body));
      return { kind: 'final', outcome: { kind: 'success', status: 200, channel: channel.name, firstByteMs: elapsedMs(ctx.startedAt), usage: usage() } };
    }

    const chunk = (delta: object, finishReason: string | null = null) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: request.model, choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;
    if (request.signal.aborted) return clientGone(ctx, usage());
    startEventStream(request.res, request.requestId);
    firstByteMs = elapsedMs(ctx.startedAt);
    if (!(await write(request.res, chunk({ role: 'assistant', content: plan.toolCall ? null : '' })))) return clientGone(ctx, usage(), firstByteMs);
    for (const token of plan.tokens) {
      if (delay > 0) await sleep(delay, undefined, { signal: request.signal });
      if (request.signal.aborted) return clientGone(ctx, usage(), firstByteMs);
      generated++;
      const delta = deltaOf(token, plan.toolCall?.id ?? '');
      if (!(await write(request.res, chunk(delta)))) return clientGone(ctx, usage(), firstByteMs);
    }
    let tail = chunk({}, plan.finishReason);
    if (request.clientWantsUsage) {
      tail += `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: request.model, choices: [], usage: usageBody() })}\n\n`;
    }
    if (!(await write(request.res, tail + SSE_DONE))) return clientGone(ctx, usage(), firstByteMs);
    request.res.end();
    return { kind: 'final', outcome: { kind: 'success', status: 200, channel: channel.name, firstByteMs, usage: usage() } };
  } catch (err) {
    if (request.signal.aborted) return clientGone(ctx, usage(), firstByteMs);
    throw err;
  }
}
