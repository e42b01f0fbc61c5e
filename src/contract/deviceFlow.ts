/**
 * Signing in a device (VS Code) with the browser: OAuth 2.0 Device Authorization Grant (RFC 8628),
 * contract 4.11. The endpoints are advertised in GET /api/status under the names RFC 8414 gives them
 * in server metadata; gateways without them (one-api, new-api) simply do not advertise them.
 * Shared by the gateway (what it answers) and the extension (what it reads).
 */
import { z } from 'zod';
import { named } from './api/schema.ts';

export const DEVICE_AUTHORIZATION_PATH = '/api/oauth/device_authorization';
export const TOKEN_PATH = '/api/oauth/token';
/** The page where a signed-in user enters (or confirms) the user code. */
export const DEVICE_PAGE_PATH = '/device';
/** RFC 8628 section 3.4's grant type. */
export const DEVICE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';

/** The two metadata fields of RFC 8414 that /api/status's `data` carries when the gateway signs devices in. */
export const DeviceFlowMetadata = z.looseObject({
  device_authorization_endpoint: z.string().min(1),
  token_endpoint: z.string().min(1),
});
export type DeviceFlowMetadata = z.infer<typeof DeviceFlowMetadata>;

/** RFC 8628 section 3.2. */
export const DeviceAuthorizationResponse = named('DeviceAuthorization', z.looseObject({
  device_code: z.string().min(1),
  user_code: z.string().min(1),
  verification_uri: z.string().min(1),
  verification_uri_complete: z.string().min(1).optional(),
  expires_in: z.number().int().positive(),
  /** Seconds between polls; RFC 8628 says 5 when absent. */
  interval: z.number().int().positive().optional(),
}));
export type DeviceAuthorizationResponse = z.infer<typeof DeviceAuthorizationResponse>;

/** RFC 6749 section 5.1, with the name of the key the gateway made (for messages; the key is access_token). */
export const DeviceTokenResponse = named('DeviceToken', z.looseObject({
  access_token: z.string().min(1),
  token_type: z.string(),
  key_name: z.string().optional(),
}));
export type DeviceTokenResponse = z.infer<typeof DeviceTokenResponse>;

/**
 * The error codes of RFC 6749 section 5.2 and RFC 8628 section 3.5 this gateway answers on the OAuth
 * endpoints (always status 400, except temporarily_unavailable: 429 or 503 with Retry-After).
 */
export const OAUTH_ERRORS = [
  'authorization_pending', 'slow_down', 'access_denied', 'expired_token',
  'invalid_request', 'invalid_grant', 'unsupported_grant_type', 'temporarily_unavailable',
] as const;
export type OAuthErrorCode = (typeof OAUTH_ERRORS)[number];

/** RFC 6749 section 5.2's body: what OAuth clients read on these endpoints (not the contract's 7.1 body). */
export const OAuthErrorBody = named('OAuthError', z.looseObject({
  error: z.string(),
  error_description: z.string().optional(),
}));
export type OAuthErrorBody = z.infer<typeof OAuthErrorBody>;
