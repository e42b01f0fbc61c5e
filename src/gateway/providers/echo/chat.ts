/**
 * The `echo` channel's chat: answers locally (see model.ts for what it says, tool calls included)
 * in OpenAI's completion and chunk shapes, written in the client's format through the same
 * translation an OpenAI upstream's answer takes (so a Messages client gets Messages), with `model`
 * set to the platform name. Streams token by token with a small delay, honours the client's abort,
 * reports exact usage.
 */
import { answerWithCost } from '../../relay/formats/cost.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChatRequest } from '../../../contract/index.ts';
import { messagesToChatRequest } from '../../relay/formats/chatMessages/request.ts';
import { responsesToChatRequest } from '../../relay/formats/chatResponses/request.ts';
import { translationFor } from '../../relay/formats/translation.ts';
import { elapsedMs, type AttemptContext, type AttemptResult } from '../../relay/attempt.ts';
import { clientGone } from '../../relay/clientGone.ts';
import { startEventStream, write, writeJson } from '../../relay/respond.ts';
import type { RelayUsage } from '../../relay/types.ts';
import { toOpenaiUsage } from '../../relay/formats/usage.ts';
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

/** The request as chat completions: the echo model reads chat. */
function chatBodyOf(request: AttemptContext['request']): ChatRequest {
  switch (request.operation) {
    case 'chat':
      return request.body;
    case 'messages':
      return messagesToChatRequest(request.body) as ChatRequest;
    case 'responses':
      return responsesToChatRequest(request.body) as ChatRequest;
    default:
      throw new Error(`echo chat cannot answer ${request.operation}`);
  }
}

export async function echoChat(ctx: AttemptContext): Promise<AttemptResult> {
  const { request, channel } = ctx;
  const body = chatBodyOf(request);
  const translation = translationFor(request.operation, 'chat')!;
  const plan = planEcho(body, request.maxCompletionTokens);
  const delay = ctx.deps.echoDelayMs;
  const id = `chatcmpl-${request.requestId}`;
  const created = Math.floor(Date.now() / 1000);
  let generated = 0;
  const usage = (): RelayUsage => ({ promptTokens: plan.promptTokens, completionTokens: generated, estimated: false });
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
      const answer = { id, object: 'chat.completion', created, model: request.model, choices: [{ index: 0, message, finish_reason: plan.finishReason }], usage: toOpenaiUsage(usage()) };
      const raw = JSON.stringify(answer);
      const { body, headers } = answerWithCost(request, usage(), translation.answer(raw, answer, request, usage()), raw);
      writeJson(request, 200, body, headers);
      return { kind: 'final', outcome: { kind: 'success', status: 200, channel: channel.name, firstByteMs: elapsedMs(ctx.startedAt), usage: usage() } };
    }

    const shaper = translation.shaper(request);
    const event = (json: Record<string, unknown>) => shaper.event({ event: null, data: JSON.stringify(json), json });
    const chunk = (delta: object, finishReason: string | null = null) =>
      event({ id, object: 'chat.completion.chunk', created, model: request.model, choices: [{ index: 0, delta, finish_reason: finishReason }] });
    if (request.signal.aborted) return clientGone(ctx, usage());
    startEventStream(request);
    firstByteMs = elapsedMs(ctx.startedAt);
    if (!(await write(request.res, chunk({ role: 'assistant', content: plan.toolCall ? null : '' })))) return clientGone(ctx, usage(), firstByteMs);
    for (const token of plan.tokens) {
      if (delay > 0) await sleep(delay, undefined, { signal: request.signal });
      if (request.signal.aborted) return clientGone(ctx, usage(), firstByteMs);
      generated++;
      const text = chunk(deltaOf(token, plan.toolCall?.id ?? ''));
      if (text && !(await write(request.res, text))) return clientGone(ctx, usage(), firstByteMs);
    }
    const tail = chunk({}, plan.finishReason) + event({ id, object: 'chat.completion.chunk', created, model: request.model, choices: [], usage: toOpenaiUsage(usage()) });
    if (!(await write(request.res, tail + shaper.finish(usage())))) return clientGone(ctx, usage(), firstByteMs);
    request.res.end();
    return { kind: 'final', outcome: { kind: 'success', status: 200, channel: channel.name, firstByteMs, usage: usage() } };
  } catch (err) {
    if (request.signal.aborted) return clientGone(ctx, usage(), firstByteMs);
    throw err;
  }
}
