/** GET /api/status (contract 4.1) as this gateway answers it; clients of other gateways read it loosely (../status.ts). */
import { z } from 'zod';
import { IsoTime, named } from './schema.ts';

export const GatewayStatus = named('Status', z.strictObject({
  success: z.boolean().describe('false while the gateway cannot write its store (it then refuses billable requests)'),
  message: z.string(),
  data: z.strictObject({
    version: z.string(),
    uptime_seconds: z.int(),
    started_at: IsoTime,
    store: z.enum(['sqlite', 'memory', 'postgres']),
    device_authorization_endpoint: z.string().describe('RFC 8414: where a device starts signing in (contract 4.11)'),
    token_endpoint: z.string(),
  }),
}));

/** GET /api/openapi.json: this document, OpenAPI 3.1. */
export const OpenApiDocument = named('OpenApiDocument', z.looseObject({ openapi: z.string(), info: z.looseObject({ title: z.string(), version: z.string() }), paths: z.record(z.string(), z.unknown()) }));
