/** Requests handed to a gateway's handler in process (light-my-request's fake socket): no port, no network. */
import inject from 'light-my-request';
import type { GatewayInstance } from '../../src/gateway/server.ts';
import { answerOf, type Answer } from './answer.ts';

export async function injectRequest(
  gateway: GatewayInstance,
  method: string,
  path: string,
  options: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers['authorization'] = `Bearer ${options.key}`;
  let payload: string | undefined;
  if (options.body !== undefined) {
    payload = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await inject(gateway.handle, { method: method as 'GET', url: path, headers, ...(payload !== undefined ? { payload } : {}) });
  const answerHeaders = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) answerHeaders.append(name, String(one));
  }
  return answerOf(res.statusCode, answerHeaders, res.payload);
}
