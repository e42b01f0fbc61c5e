/**
 * Every finished request counted for Prometheus (`serve --metrics-port`): requests by endpoint and status,
 * refusals by code, models' requests, tokens and spending, latency and the upstreams' first byte, each
 * upstream attempt's result. Counted as a request's log row is made, before unauthenticated requests are
 * sampled (a flood is counted whole, though only a sample of it is logged).
 * Every label's values are bounded, so no client can grow the series without end: an endpoint is one the
 * gateway serves (else "other"), a model one the catalogue knows (else "(unknown)"), a channel, status or
 * error code one the gateway itself names.
 */
import type { RequestLog } from '../store/types.ts';
import { Counter, Histogram } from './exposition.ts';

/** Seconds: from a quick refusal to a long stream. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
const FIRST_BYTE_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export const UNKNOWN_MODEL = '(unknown)';

/** HTTP statuses as label values, made once each (this runs for every request). */
const STATUS_TEXT = new Map<number, string>();
function statusText(status: number): string {
  let text = STATUS_TEXT.get(status);
  if (text === undefined) {
    text = String(status);
    if (STATUS_TEXT.size < 1000) STATUS_TEXT.set(status, text);
  }
  return text;
}

/** Micro-USD summed as an integer (exact), shown in USD. */
const usd = (microUsd: number): string => (microUsd / 1e6).toFixed(6);

export interface RequestMetricsOptions {
  /** The /v1 paths the gateway serves (each its own endpoint label). */
  readonly endpoints: ReadonlySet<string>;
  /** Whether the catalogue knows a model by this name (priced or served). */
  readonly knownModel: (name: string) => boolean;
}

export class RequestMetrics {
  readonly #endpoints: ReadonlySet<string>;
  readonly #knownModel: (name: string) => boolean;
  readonly #requests = new Counter('model_gateway_requests_total', 'Requests answered, as the request log records them (the console\'s own pages and reads are not counted), by endpoint and HTTP status (499: the client went away first).', ['endpoint', 'status']);
  readonly #errors = new Counter('model_gateway_request_errors_total', "Requests that ended in an error, by the contract's error code.", ['code']);
  readonly #modelRequests = new Counter('model_gateway_model_requests_total', 'Requests for a model, by model and HTTP status.', ['model', 'status']);
  readonly #tokens = new Counter('model_gateway_tokens_total', 'Tokens charged, by model and type (prompt or completion).', ['model', 'type']);
  readonly #cost = new Counter('model_gateway_cost_usd_total', 'What requests were charged as they were settled, in USD (exact to the micro-dollar), by model.', ['model'], usd);
  readonly #duration = new Histogram('model_gateway_request_duration_seconds', 'From the request to the end of its answer, by endpoint.', ['endpoint'], DURATION_BUCKETS);
  readonly #firstByte = new Histogram('model_gateway_upstream_first_byte_seconds', "From the request to the first byte of the upstream's answer, by the channel that served it.", ['channel'], FIRST_BYTE_BUCKETS);
  readonly #attempts = new Counter('model_gateway_upstream_attempts_total', 'Attempts sent to upstreams, by channel and result: ok, or why it failed (the next channel was tried).', ['channel', 'result']);

  constructor(options: RequestMetricsOptions) {
    this.#endpoints = options.endpoints;
    this.#knownModel = options.knownModel;
  }

  observe(log: RequestLog): void {
    const status = statusText(log.status);
    const endpoint = this.#endpointOf(log.path);
    this.#requests.inc([endpoint, status]);
    this.#duration.observe([endpoint], log.latencyMs / 1000);
    if (log.errorCode !== null) this.#errors.inc([log.errorCode]);
    if (log.attempts) this.#failedAttempts(log.attempts);
    if (log.channel !== null) {
      if (log.status < 400) this.#attempts.inc([log.channel, 'ok']);
      if (log.firstByteMs !== null) this.#firstByte.observe([log.channel], log.firstByteMs / 1000);
    }
    if (log.model === null) return;
    const model = this.#knownModel(log.model) ? log.model : UNKNOWN_MODEL;
    this.#modelRequests.inc([model, status]);
    if (log.promptTokens > 0) this.#tokens.inc([model, 'prompt'], log.promptTokens);
    if (log.completionTokens > 0) this.#tokens.inc([model, 'completion'], log.completionTokens);
    if (log.cost > 0) this.#cost.inc([model], log.cost);
  }

  render(out: string[]): void {
    for (const family of [this.#requests, this.#errors, this.#modelRequests, this.#tokens, this.#cost, this.#duration, this.#firstByte, this.#attempts]) family.render(out);
  }

  #endpointOf(path: string): string {
    if (this.#endpoints.has(path)) return path;
    if (path.startsWith('/v1/models/')) return '/v1/models/{model}';
    if (path.startsWith('/api/')) return '/api';
    return 'other';
  }

  /** The log row's failed attempts (JSON written by the relay, relay/index.ts): each one's channel and code. */
  #failedAttempts(json: string): void {
    let attempts: unknown;
    try {
      attempts = JSON.parse(json);
    } catch {
      return;
    }
    if (!Array.isArray(attempts)) return;
    for (const a of attempts as Array<{ channel?: unknown; code?: unknown }>) {
      if (typeof a?.channel === 'string' && typeof a.code === 'string') this.#attempts.inc([a.channel, a.code]);
    }
  }
}
