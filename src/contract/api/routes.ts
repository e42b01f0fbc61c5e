/**
 * The management API, everything under /api/, as one table: the gateway serves exactly these routes
 * (src/gateway/routes/api.ts binds a handler to each id) and the OpenAPI document is generated from
 * them (openapi.ts). The ids are the document's operationIds.
 */
import { ADMIN_ROUTES } from './adminRoutes.ts';
import { CHANNEL_ROUTES } from './channelRoutes.ts';
import { CONSOLE_ROUTES } from './consoleRoutes.ts';
import { LOG_ROUTES } from './logRoutes.ts';
import { PLAYGROUND_ROUTES } from './playground.ts';
import { SETTINGS_ROUTES } from './settingsRoutes.ts';
import type { ApiRoute } from './route.ts';

export const API_ROUTES = { ...CONSOLE_ROUTES, ...PLAYGROUND_ROUTES, ...LOG_ROUTES, ...ADMIN_ROUTES, ...CHANNEL_ROUTES, ...SETTINGS_ROUTES } as const satisfies Record<string, ApiRoute>;

export type ApiRoutes = typeof API_ROUTES;
export type ApiRouteId = keyof ApiRoutes;

/** Every path of the management API begins with this. */
export const API_PREFIX = '/api/';
