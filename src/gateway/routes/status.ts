/** GET /api/status (contract 4.1): no key, says the service is up. */
import { GATEWAY_VERSION } from '../../contract/index.ts';
import { sendJson } from '../http/json.ts';
import type { Handler } from './common.ts';

export const status: Handler = (gw, ctx) => {
  const durable = gw.logs.durable;
  sendJson(ctx.res, ctx.id, 200, {
    success: durable,
    message: durable ? 'Model Gateway is running' : 'Model Gateway cannot write its store (disk full?): it refuses billable requests until writes work again',
    data: {
      version: GATEWAY_VERSION,
      uptime_seconds: Math.floor((Date.now() - gw.startedAt) / 1000),
      started_at: new Date(gw.startedAt).toISOString(),
      store: gw.store.kind,
    },
  });
};
