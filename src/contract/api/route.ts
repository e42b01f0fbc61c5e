/**
 * What one route of the management API is, as data: its method and path, who may call it, the query,
 * body and answer schemas, and the error codes it can answer. The gateway serves exactly the routes of
 * the table (routes.ts) through one layer that authenticates and parses by these fields, and the OpenAPI
 * document is generated from the same table (openapi.ts): a route cannot be served undocumented.
 */
import type { z } from 'zod';
import type { ErrorCode } from '../errors.ts';

/**
 * Who may call a route:
 * - `public`: anyone, no credentials;
 * - `sign_in`: anyone, but a change must come from the console page (the CSRF proof of contract 4.10);
 * - `key`: an API key (`Authorization: Bearer sk-...`), as on /v1;
 * - `session`: a signed-in user, by the browser's session cookie only;
 * - `admin`: an admin, by session cookie or by an admin access token (`Authorization: Bearer mgt-...`);
 * - `admin_session`: an admin by session cookie only (a token cannot make tokens).
 */
export const API_AUTHS = ['public', 'sign_in', 'key', 'session', 'admin', 'admin_session'] as const;
export type ApiAuth = (typeof API_AUTHS)[number];

/** The groups of the document, in its order. */
export const API_TAGS = {
  gateway: 'The gateway itself: its status and this document.',
  session: 'Signing in to the console, and who is signed in.',
  account: "A signed-in user's own account: keys, models, request logs, dashboard, password, top-up.",
  key: 'The console opened with an API key.',
  device: 'Device sign-in with the browser (RFC 8628).',
  users: 'Admins: users and balances.',
  audit: 'Admins: the audit log of admin actions.',
  codes: 'Admins: redemption codes, and invitation codes for sign-up.',
  settings: 'Admins: gateway settings (sign-up, a new account\'s balance, log retention, the sign-in notice).',
  channels: 'Admins: channels (upstreams), models and their prices.',
  tokens: 'Admins: access tokens for scripts.',
  activity: 'Admins: the request logs of every account, and the whole gateway\'s dashboard.',
} as const;
export type ApiTag = keyof typeof API_TAGS;

export interface ApiRoute {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly tag: ApiTag;
  readonly summary: string;
  readonly description?: string;
  readonly auth: ApiAuth;
  /** Query parameters, one per key of the object (strict objects refuse any other parameter). */
  readonly query?: z.ZodObject;
  /** A JSON body (`Content-Type: application/json`), parsed before the handler runs. */
  readonly body?: z.ZodType;
  /** OAuth parameters (form-encoded, or a JSON object of strings), read by the handler (RFC 6749). */
  readonly form?: z.ZodType;
  readonly response: {
    readonly status: 200 | 201;
    readonly schema: z.ZodType;
    /** The same answer as CSV, when asked for (the words say how). */
    readonly csv?: string;
    /** Answered as server-sent events instead of one JSON body (the words say what): `schema` is each event's data. */
    readonly stream?: string;
  };
  /** The codes this route answers beyond those its auth and body bring (errorCodesOf adds them). */
  readonly errors: readonly ErrorCode[];
  /** Refusals in RFC 6749's body, not 7.1's (the device's OAuth endpoints). */
  readonly oauthErrors?: true;
}

/** The codes every route of a kind of auth can answer (contract 4.10, 5.3). */
const AUTH_CODES: Readonly<Record<ApiAuth, readonly ErrorCode[]>> = {
  public: [],
  sign_in: [],
  key: ['missing_api_key', 'invalid_auth_header', 'api_key_whitespace', 'invalid_api_key', 'key_disabled', 'key_expired', 'admin_token_not_accepted', 'rate_limited'],
  session: ['not_signed_in', 'api_key_not_accepted', 'admin_token_not_accepted'],
  admin: ['not_signed_in', 'admin_required', 'api_key_not_accepted', 'invalid_admin_token', 'admin_token_revoked', 'admin_token_expired'],
  admin_session: ['not_signed_in', 'admin_required', 'api_key_not_accepted', 'admin_token_not_accepted'],
};

/** What a change refused before its body is used can answer: not from the console page, not JSON, too large, not what the schema takes. */
const BODY_CODES: readonly ErrorCode[] = ['cross_site_request', 'json_required', 'invalid_json', 'request_too_large', 'invalid_request'];

/** Every error code `route` can answer (7.1's body; the OAuth endpoints' own are RFC 6749's): its auth's, its body's, its own, and internal_error. */
export function errorCodesOf(route: ApiRoute): ErrorCode[] {
  if (route.oauthErrors) return ['internal_error'];
  const codes = new Set<ErrorCode>(AUTH_CODES[route.auth]);
  if (route.method === 'POST' && route.auth !== 'public') codes.add('cross_site_request');
  if (route.body) for (const code of BODY_CODES) codes.add(code);
  if (route.query) codes.add('invalid_request');
  for (const code of route.errors) codes.add(code);
  codes.add('internal_error');
  return [...codes];
}
