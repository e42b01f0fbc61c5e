/**
 * Gateway instances on one fresh database of the test PostgreSQL, as several behind a load balancer run:
 * the database's URL, the environment holding its secret key, a store on it for the test's own admin
 * writes (close it in the suite's after hook), and `start` for each instance (port 0, the offline echo
 * model answering at once, the options given).
 */
import { randomBytes } from 'node:crypto';
import { startGateway, type GatewayOptions, type RunningGateway } from '../../src/gateway/server.ts';
import { openAnyStore } from '../../src/gateway/store/index.ts';
import type { Store } from '../../src/gateway/store/types.ts';
import { freshDatabase } from './postgres.ts';

export interface FreshDatabase {
  readonly url: string;
  readonly env: NodeJS.ProcessEnv;
  readonly store: Store;
  start(options?: GatewayOptions): Promise<RunningGateway>;
}

export async function onFreshDatabase(): Promise<FreshDatabase> {
  const url = await freshDatabase();
  const env = { MODEL_GATEWAY_SECRET_KEY: randomBytes(32).toString('base64') };
  const store = await openAnyStore({ databaseUrl: url, env });
  return { url, env, store, start: (options = {}) => startGateway({ port: 0, databaseUrl: url, env, echoDelayMs: 0, ...options }) };
}

/** Two instances on one fresh database, the first bootstrapped, for the `describe` this is called in: started before its tests, stopped after. */
export function useTwoInstances(): { readonly a: RunningGateway; readonly b: RunningGateway; readonly store: Store } {
  const held = {} as { a: RunningGateway; b: RunningGateway; store: Store };
  before(async () => {
    const database = await onFreshDatabase();
    held.store = database.store;
    held.a = await database.start({ bootstrap: true });
    held.b = await database.start();
  });
  after(async () => {
    await held.a?.stop();
    await held.b?.stop();
    await held.store?.close();
  });
  return held;
}
