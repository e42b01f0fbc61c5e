// A stand-in gateway on loopback that records what it gets: the Authorization of every request (for the tests that
// a key only ever reaches its own gateway) and the body of every chat and completion request (for the tests of what
// the extension sends a model). It lists one chat model, answers the billing reads, and answers every chat and every
// completion with its answer for the model asked (a chat streamed when asked).
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listenOnLoopback } from '../../support/loopback.ts';
import type { Listening } from '../../support/loopback.ts';
import type { ModelGatewayApi } from '../../../src/extension/extension.ts';
import { resetConfiguration, setKey, setSettings, waitFor } from './helpers.ts';

export interface RecordingGateway extends Listening {
  /** The Authorization header of every request, in order ('' when none came). */
  readonly seen: string[];
  /** The parsed body of every POST /v1/chat/completions, in order. */
  readonly chats: Array<{ model: string; messages: Array<{ role: string; content: unknown }>; stream?: boolean }>;
  /** The parsed body of every POST /v1/completions, in order. */
  readonly completions: Array<{ model: string; prompt: string; suffix?: string }>;
}

function answerChat(res: ServerResponse, model: string, stream: boolean, answer: string): void {
  const usage = { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12, cost: 0.000042 };
  if (!stream) {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
      id: 'chatcmpl-recorded', object: 'chat.completion', created: 0, model,
      choices: [{ index: 0, message: { role: 'assistant', content: answer }, finish_reason: 'stop' }], usage,
    }));
    return;
  }
  const chunk = (body: object) => `data: ${JSON.stringify({ id: 'chatcmpl-recorded', object: 'chat.completion.chunk', created: 0, model, ...body })}\n\n`;
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.end(chunk({ choices: [{ index: 0, delta: { role: 'assistant', content: answer }, finish_reason: null }] })
    + chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }) + chunk({ choices: [], usage }) + 'data: [DONE]\n\n');
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

/** What the stand-in answers a model: the same text for all, or each its own; a model it answers null for is not served (404). */
export type Answers = string | ((model: string) => string | null);

/** `entry`: more fields of the model's /v1/models entry (its context_length, say). */
export async function startRecordingGateway(model: string, answers: Answers = 'ok', entry: Record<string, unknown> = {}): Promise<RecordingGateway> {
  const answerFor = (asked: string) => (typeof answers === 'string' ? answers : answers(asked));
  const seen: string[] = [];
  const chats: RecordingGateway['chats'] = [];
  const completions: RecordingGateway['completions'] = [];
  const listening = await listenOnLoopback(createServer((req, res) => {
    seen.push(req.headers.authorization ?? '');
    const json = (body: object) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.url === '/v1/models') return void json({ object: 'list', data: [{ id: model, object: 'model', ...entry }] });
    if (req.url?.startsWith('/v1/dashboard/billing/subscription')) return void json({ object: 'billing_subscription', hard_limit_usd: 5 });
    if (req.url?.startsWith('/v1/dashboard/billing/usage')) return void json({ object: 'list', total_usage: 0 });
    if (req.method === 'POST' && req.url === '/v1/chat/completions') {
      return void bodyOf(req).then((text) => {
        const body = JSON.parse(text) as RecordingGateway['chats'][number];
        chats.push(body);
        const answer = answerFor(body.model);
        if (answer === null) {
          res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `The model "${body.model}" does not exist or you do not have access to it.`, type: 'invalid_request_error', code: 'model_not_found' } }));
          return;
        }
        answerChat(res, body.model, body.stream === true, answer);
      });
    }
    if (req.method === 'POST' && req.url === '/v1/completions') {
      return void bodyOf(req).then((text) => {
        const body = JSON.parse(text) as RecordingGateway['completions'][number];
        completions.push(body);
        json({ id: 'cmpl-recorded', object: 'text_completion', created: 0, model: body.model, choices: [{ index: 0, text: answerFor(body.model) ?? '', finish_reason: 'stop' }], usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 } });
      });
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not here","type":"x"}}');
  }));
  return Object.assign(listening, { seen, chats, completions });
}

/** A new recording gateway with the extension pointed at it (its address, `model`, a key of its own), once the connection uses it. */
export async function useRecordingGateway(api: ModelGatewayApi, model: string, answers: Answers, entry: Record<string, unknown> = {}): Promise<RecordingGateway> {
  await resetConfiguration(api);
  const gateway = await startRecordingGateway(model, answers, entry);
  await setSettings(api, { baseUrl: gateway.origin, model });
  await setKey(api, `sk-suite-recorded-${model}`);
  await waitFor('the connection to be configured', () => api.services.connection.state.configured || undefined);
  return gateway;
}
