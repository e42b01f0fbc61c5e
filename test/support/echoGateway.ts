/**
 * Mocha hooks for a suite that talks to the real bundled gateway: in memory, bootstrapped with its
 * offline `echo` model (answering at once), and a client holding the bootstrap key.
 */
import { GatewayClient } from '../../src/client/index.ts';
import { startGateway } from '../../src/gateway/server.ts';
import type { RunningGateway } from '../../src/gateway/server.ts';

export interface EchoGateway {
  readonly gw: RunningGateway;
  readonly client: GatewayClient;
}

export function useEchoGateway(): EchoGateway {
  const state = {} as { gw: RunningGateway; client: GatewayClient };
  before(async () => {
    state.gw = await startGateway({ inMemory: true, port: 0, bootstrap: true, echoDelayMs: 0 });
    state.client = new GatewayClient({ baseUrl: state.gw.url, apiKey: state.gw.bootstrapKey!, maxRetries: 0 });
  });
  after(async () => {
    await state.client?.close();
    await state.gw?.stop();
  });
  return state;
}
