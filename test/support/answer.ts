/** A gateway request as tests write it and its answer as they read it (over HTTP or in process), and the contract's error shape checked on an answer. */
import assert from 'node:assert/strict';
import { anthropicErrorType, GATEWAY_ERROR_TYPE } from '../../src/contract/index.ts';

export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly json: any;
}

/** What a test asks for: a key (sent as Bearer), a body (JSON unless a string), extra headers. */
export interface CallOptions {
  readonly key?: string;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
}

/** The headers and body text to send for `options`. */
export function requestOf(options: CallOptions): { headers: Record<string, string>; body: string | undefined } {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers['authorization'] = `Bearer ${options.key}`;
  if (options.body === undefined) return { headers, body: undefined };
  headers['content-type'] ??= 'application/json';
  return { headers, body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) };
}

export function answerOf(status: number, headers: Headers, text: string): Answer {
  let json: any = undefined;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status, headers, text, json };
}

/** The contract error shape: status, stable code, our type, and the message ending with the X-Request-Id. */
export function assertError(answer: Answer, status: number, code: string): void {
  assert.equal(answer.status, status, `status (body: ${answer.text})`);
  assert.ok(answer.json && typeof answer.json.error === 'object', `JSON error body expected, got: ${answer.text}`);
  assert.equal(answer.json.error.code, code);
  assert.equal(answer.json.error.type, GATEWAY_ERROR_TYPE);
  assert.match(answer.json.error.type, /_error$/);
  const id = answer.headers.get('x-request-id');
  assert.ok(id, 'X-Request-Id header');
  assert.ok(String(answer.json.error.message).endsWith(`(request id: ${id})`), `message ends with the request id: ${answer.json.error.message}`);
}

/** The same error in Anthropic's shape (the Messages API): its type for the status, our code, the request id. */
export function assertAnthropicError(answer: Answer, status: number, code: string): void {
  assert.equal(answer.status, status, `status (body: ${answer.text})`);
  assert.equal(answer.json?.type, 'error', `Anthropic error body expected, got: ${answer.text}`);
  assert.equal(answer.json.error.type, anthropicErrorType(status));
  assert.equal(answer.json.error.code, code);
  const id = answer.headers.get('x-request-id');
  assert.ok(id, 'X-Request-Id header');
  assert.equal(answer.json.request_id, id);
  assert.ok(String(answer.json.error.message).endsWith(`(request id: ${id})`), `message ends with the request id: ${answer.json.error.message}`);
}
