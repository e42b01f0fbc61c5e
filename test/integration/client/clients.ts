// Shared by the client suites: clients that log every request and are closed after the suite, a rejection
// that must be the client's typed error, and a stream read to its end.
import assert from 'node:assert/strict';
import { GatewayClient, GatewayError } from '../../../src/client/index.ts';
import type { GatewayClientOptions, ResponseInfo } from '../../../src/client/index.ts';

export interface Clients {
  /** A client with the suite's defaults (read when called), `options` on top. */
  client(options?: Partial<GatewayClientOptions>): GatewayClient;
  /** Every request any of them made. */
  readonly logs: ResponseInfo[];
}

/** Mocha hooks: the clients made in the suite are closed after it. */
export function useClients(defaults: () => GatewayClientOptions): Clients {
  const made: GatewayClient[] = [];
  const logs: ResponseInfo[] = [];
  after(async () => {
    await Promise.all(made.map((c) => c.close()));
  });
  return {
    logs,
    client: (options = {}) => {
      const c = new GatewayClient({ ...defaults(), onResponse: (info) => logs.push(info), ...options });
      made.push(c);
      return c;
    },
  };
}

export async function rejection(promise: Promise<unknown>): Promise<GatewayError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof GatewayError, `expected a GatewayError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected a rejection');
}

export async function drain<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const chunk of stream) out.push(chunk);
  return out;
}
