/**
 * A small fake gateway that answers the way the one-api / new-api family does: errors as
 * {"error": {"message", "type": "one_api_error" | "new_api_error"}} with Chinese messages,
 * 401 for every token problem (invalid, expired, exhausted, disabled), 503 "no channel" for a
 * model the group lacks, billing errors sent with HTTP 200, an unlimited key reported as a
 * 100000000 hard limit, unknown /v1 paths as an OpenAI "Invalid URL" 404 and every other
 * unknown path as the web console's HTML with 200. Real HTTP on 127.0.0.1, port 0.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listenOnLoopback, type Listening } from './loopback.ts';

export type Flavour = 'one_api' | 'new_api';

export interface FakeToken {
  readonly state?: 'enabled' | 'disabled' | 'expired' | 'exhausted';
  readonly unlimited?: boolean;
  /** Models this token may use (default: all). */
  readonly models?: readonly string[];
  /** Quota in one-api units (500000 = $1). */
  readonly remainQuota?: number;
  readonly usedQuota?: number;
}

export interface FakeOneApiOptions {
  readonly flavour?: Flavour;
  readonly tokens: Readonly<Record<string, FakeToken>>;
  /** Models the group has channels for. */
  readonly models?: readonly string[];
  /** The usage endpoint answers 400 unless start_date and end_date are given (as OpenAI's did). */
  readonly usageNeedsDates?: boolean;
}

export interface ScriptedFailure {
  readonly status: number;
  readonly headers?: Record<string, string>;
  readonly body: unknown;
}

const QUOTA_PER_USD = 500_000;

export class FakeOneApi {
  readonly flavour: Flavour;
  /** Requests received, by "METHOD /path" (path without query). */
  readonly hits = new Map<string, number>();
  /** Query strings received on the usage endpoint. */
  readonly usageQueries: string[] = [];
  url = '';
  readonly #options: FakeOneApiOptions;
  readonly #server = createServer((req, res) => this.#handle(req, res));
  #listening: Listening | undefined;
  readonly #failures = new Map<string, ScriptedFailure[]>();
  #closeWaiters: Array<() => void> = [];
  #requestSeq = 0;

  constructor(options: FakeOneApiOptions) {
    this.#options = options;
    this.flavour = options.flavour ?? 'one_api';
  }

  async start(): Promise<this> {
    this.#listening = await listenOnLoopback(this.#server);
    this.url = this.#listening.origin;
    return this;
  }

  async stop(): Promise<void> {
    await this.#listening?.close();
  }

  /** The next `times` requests to "METHOD /path" get this answer instead. */
  failNext(route: string, times: number, failure: ScriptedFailure): void {
    this.#failures.set(route, [...(this.#failures.get(route) ?? []), ...Array.from({ length: times }, () => failure)]);
  }

  /** Resolves when the next streaming answer's connection is closed by the client before the answer ended. */
  nextStreamClosedEarly(): Promise<void> {
    return new Promise((resolve) => this.#closeWaiters.push(resolve));
  }

  count(route: string): number {
    return this.hits.get(route) ?? 0;
  }

  get errorType(): string {
    return `${this.flavour}_error`;
  }

  #requestId(): string {
    this.#requestSeq += 1;
    return `2025010112000000${String(this.#requestSeq).padStart(6, '0')}`;
  }

  #json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    res.end(JSON.stringify(body));
  }

  #error(res: ServerResponse, status: number, message: string, requestId: string, code = ''): void {
    const body = this.flavour === 'new_api'
      ? { error: { message: `${message} (request id: ${requestId})`, type: this.errorType, param: '', code } }
      : { error: { message, type: this.errorType } };
    this.#json(res, status, body);
  }

  /** The token problem, as one-api words it, or null for a usable token. */
  #tokenProblem(req: IncomingMessage): { message: string } | { token: FakeToken } {
    const header = req.headers['authorization'];
    if (!header) return { message: '未提供令牌' };
    const key = header.replace(/^Bearer /, '');
    const token = this.#options.tokens[key];
    if (!token) return { message: '无效的令牌' };
    if (token.state === 'disabled') return { message: '该令牌状态不可用' };
    if (token.state === 'expired') return { message: '该令牌已过期' };
    if (token.state === 'exhausted') return { message: '该令牌额度已用尽' };
    return { token };
  }

  #handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://fake');
    const route = `${req.method} ${url.pathname}`;
    this.hits.set(route, this.count(route) + 1);
    const requestId = this.#requestId();
    res.setHeader('x-oneapi-request-id', requestId);
    const scripted = this.#failures.get(route)?.shift();
    if (scripted) return this.#json(res, scripted.status, scripted.body, scripted.headers);

    if (route === 'GET /api/status') return this.#json(res, 200, { success: true, message: '', data: { version: 'v0.6.10', system_name: 'One API' } });

    const known = ['GET /v1/models', 'POST /v1/chat/completions', 'GET /v1/dashboard/billing/subscription', 'GET /v1/dashboard/billing/usage'];
    if (!known.includes(route)) {
      if (url.pathname.startsWith('/v1/')) {
        return this.#json(res, 404, { error: { message: `Invalid URL (${req.method} ${url.pathname})`, type: 'invalid_request_error', param: '', code: '' } });
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return void res.end('<!doctype html><html lang="zh"><head><title>One API</title></head><body><div id="root"></div></body></html>');
    }

    const auth = this.#tokenProblem(req);
    const billing = url.pathname.startsWith('/v1/dashboard/billing/');
    if ('message' in auth) {
      // one-api's billing handlers answer errors with HTTP 200.
      if (billing) return this.#json(res, 200, { error: { message: auth.message, type: 'upstream_error' } });
      return this.#error(res, 401, auth.message, requestId);
    }
    const { token } = auth;
    const allModels = this.#options.models ?? ['gpt-4o-mini'];

    if (route === 'GET /v1/models') {
      const visible = allModels.filter((m) => !token.models || token.models.includes(m));
      return this.#json(res, 200, { object: 'list', data: visible.map((id) => ({ id, object: 'model', created: 1626777600, owned_by: 'openai' })) });
    }
    if (route === 'GET /v1/dashboard/billing/subscription') {
      const quota = (token.remainQuota ?? 0) + (token.usedQuota ?? 0);
      const hard = token.unlimited ? 100000000 : quota / QUOTA_PER_USD;
      return this.#json(res, 200, { object: 'billing_subscription', has_payment_method: true, soft_limit_usd: hard, hard_limit_usd: hard, system_hard_limit_usd: hard, access_until: 0 });
    }
    if (route === 'GET /v1/dashboard/billing/usage') {
      this.usageQueries.push(url.search);
      if (this.#options.usageNeedsDates && !(url.searchParams.has('start_date') && url.searchParams.has('end_date'))) {
        return this.#json(res, 400, { error: { message: "Missing query parameter 'start_date'", type: 'invalid_request_error', param: null, code: null } });
      }
      return this.#json(res, 200, { object: 'list', total_usage: ((token.usedQuota ?? 0) / QUOTA_PER_USD) * 100 });
    }
    this.#chat(req, res, token, allModels, requestId);
  }

  #chat(req: IncomingMessage, res: ServerResponse, token: FakeToken, allModels: readonly string[], requestId: string): void {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (part: string) => (raw += part));
    req.on('end', () => {
      const body = JSON.parse(raw) as { model: string; stream?: boolean };
      const model = body.model;
      if (model === 'rate-limited') return this.#json(res, 429, { error: { message: '当前分组上游负载已饱和，请稍后再试', type: this.errorType } }, { 'retry-after': '0' });
      if (model === 'server-error') return this.#json(res, 500, { error: { message: 'do request failed: upstream error', type: this.errorType } });
      if (model === 'error-on-200') return this.#json(res, 200, { error: { message: '余额不足', type: this.errorType } });
      if (!allModels.includes(model)) return this.#error(res, 503, `当前分组 default 下对于模型 ${model} 无可用渠道`, requestId, 'model_not_found');
      if (token.models && !token.models.includes(model)) return this.#error(res, 403, `该令牌无权使用模型：${model}`, requestId);
      const created = 1735689600;
      if (!body.stream) {
        return this.#json(res, 200, {
          id: `chatcmpl-${requestId}`, object: 'chat.completion', created, model,
          choices: [{ index: 0, message: { role: 'assistant', content: '你好！', reasoning_content: '先想一想' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 },
        });
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.on('close', () => {
        if (res.writableFinished) return;
        for (const resolve of this.#closeWaiters.splice(0)) resolve();
      });
      const chunk = (delta: object, finish: string | null = null) => `data: ${JSON.stringify({ id: `chatcmpl-${requestId}`, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      res.write(': ping\n\n');
      res.write(chunk({ role: 'assistant', reasoning_content: '想' }));
      if (model.startsWith('slow')) return; // one chunk, then silence until the client goes away
      res.write(chunk({ content: '你好' }));
      if (model.startsWith('cut')) return void res.end(); // ends without [DONE]
      if (model.startsWith('fail')) return void res.end(`data: ${JSON.stringify({ error: { message: '该令牌额度已用尽', type: this.errorType } })}\n\n`);
      res.write(chunk({}, 'stop'));
      res.end('data: [DONE]\n\n');
    });
  }
}
