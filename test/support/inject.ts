/** Requests handed to a gateway's handler in process (light-my-request's fake socket): no port, no network. */
import inject from 'light-my-request';
import type { GatewayInstance } from '../../src/gateway/server.ts';
import { answerOf, requestOf, type Answer, type CallOptions } from './answer.ts';

export async function injectRequest(
  gateway: GatewayInstance,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Answer> {
  const { headers, body } = requestOf(options);
  const res = await inject(gateway.handle, { method: method as 'GET', url: path, headers, ...(body !== undefined ? { payload: body } : {}) });
  const answerHeaders = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) answerHeaders.append(name, String(one));
  }
  return answerOf(res.statusCode, answerHeaders, res.payload);
}
