/**
 * GET /api/status (contract 4.1): no key, says the service is up, and where a device signs in with the
 * browser (contract 4.11), under the names RFC 8414 gives those endpoints in server metadata.
 */
import { DEVICE_AUTHORIZATION_PATH, GATEWAY_VERSION, TOKEN_PATH } from '../../contract/index.ts';
import { requestOrigin } from '../http/origin.ts';
import type { ApiHandler } from './api.ts';

export const status: ApiHandler<'getStatus'> = (gw, ctx) => {
  const durable = gw.logs.durable;
  return {
    logged: true,
    body: {
      success: durable,
      message: durable ? 'Model Gateway is running' : 'Model Gateway cannot write its store (disk full?): it refuses billable requests until writes work again',
      data: {
        version: GATEWAY_VERSION,
        uptime_seconds: Math.floor((Date.now() - gw.startedAt) / 1000),
        started_at: new Date(gw.startedAt).toISOString(),
        store: gw.store.kind,
        device_authorization_endpoint: `${requestOrigin(ctx.req, ctx.trustProxy)}${DEVICE_AUTHORIZATION_PATH}`,
        token_endpoint: `${requestOrigin(ctx.req, ctx.trustProxy)}${TOKEN_PATH}`,
      },
    },
  };
};
