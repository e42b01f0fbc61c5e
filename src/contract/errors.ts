/**
 * The contract's error table (docs/contract.md, section 7), written once.
 * The gateway builds its error responses from it and the client builds its
 * explanations from it, so a status, a code, its meaning and the user's fix
 * can never drift apart between the two sides.
 */
import { cutWithMarker, MAX_ERROR_DETAIL_CHARS } from './values.ts';

/** The one service-specific `type` our gateway puts in every error body (7.1). */
export const GATEWAY_ERROR_TYPE = 'model_gateway_error';

/** Opening words of every 401 message: the contract's invalid-token notice (7.1). */
export const INVALID_TOKEN_NOTICE = 'Invalid token';

/** The troubleshooting order of section 7.3, as stable identifiers. */
export const TROUBLESHOOTING_STEPS = [
  { id: 'address', text: 'Check the API address (the base address, and whether /v1 is needed).' },
  { id: 'key', text: 'Check the API key (complete, no extra spaces).' },
  { id: 'balance', text: 'Check the balance.' },
  { id: 'model', text: 'Check that the model name matches the console exactly.' },
  { id: 'permission', text: 'Check key permission and model permission.' },
  { id: 'logs', text: "Read the console's request logs." },
  { id: 'restart', text: 'After changing the configuration, restart the terminal or application.' },
] as const;

export type TroubleshootingStep = (typeof TROUBLESHOOTING_STEPS)[number]['id'];

/** One row per status family of section 7.2, plus the client-side failures that have no status. */
export interface StatusFamily {
  readonly title: string;
  readonly meaning: string;
  readonly action: string;
  /** Where in the 7.3 order the user should start looking. */
  readonly firstCheck: TroubleshootingStep;
  /** Safe to send the same idempotent request again. */
  readonly retryable: boolean;
}

export type StatusFamilyId =
  | 'bad_request'
  | 'authentication'
  | 'permission'
  | 'not_found'
  | 'payload_too_large'
  | 'rate_limit'
  | 'server'
  | 'connection'
  | 'timeout'
  | 'aborted'
  | 'invalid_response';

export const STATUS_FAMILIES: Readonly<Record<StatusFamilyId, StatusFamily>> = {
  bad_request: {
    title: 'Invalid request',
    meaning: 'The gateway could not accept the request as sent.',
    action: 'Check the request body: model (string) and messages (array of {role, content}).',
    firstCheck: 'model',
    retryable: false,
  },
  authentication: {
    title: 'Authentication failed (401)',
    meaning: 'The API key is wrong, invalid, missing, badly formatted, or has spaces around it.',
    action: 'Re-copy the key in full, with no spaces, and send it as "Authorization: Bearer <API_KEY>".',
    firstCheck: 'key',
    retryable: false,
  },
  permission: {
    title: 'Request refused (403)',
    meaning: 'The key is valid but was refused: insufficient balance, key disabled or expired, or no permission for this model.',
    action: 'Check the balance, the key permissions and the model permission in the console.',
    firstCheck: 'balance',
    retryable: false,
  },
  not_found: {
    title: 'Path or model not found (404)',
    meaning: 'The path does not exist at this address, or the model name does not exist or does not match.',
    action: 'Check the base address (with or without /v1) and copy the exact model name from the console.',
    firstCheck: 'address',
    retryable: false,
  },
  payload_too_large: {
    title: 'Request too large (413)',
    meaning: 'The request body is larger than the gateway accepts.',
    action: 'Send a shorter conversation or smaller attachments.',
    firstCheck: 'model',
    retryable: false,
  },
  rate_limit: {
    title: 'Too many requests (429)',
    meaning: 'Requests are too frequent, or the service is busy.',
    action: 'Lower concurrency, wait and retry, or switch model.',
    firstCheck: 'logs',
    retryable: true,
  },
  server: {
    title: 'Service busy or temporary fault (5xx)',
    meaning: 'The service is busy, an upstream failed, or there was a temporary fault.',
    action: 'Retry later; keep the error text and request id for support.',
    firstCheck: 'logs',
    retryable: true,
  },
  connection: {
    title: 'Cannot reach the gateway',
    meaning: 'No connection could be made to the base address.',
    action: 'Check the base address, your network and any proxy settings.',
    firstCheck: 'address',
    retryable: true,
  },
  timeout: {
    title: 'The gateway did not answer in time',
    meaning: 'The request timed out before an answer arrived.',
    action: 'Retry later, or raise the request timeout setting.',
    firstCheck: 'address',
    retryable: true,
  },
  aborted: {
    title: 'Request cancelled',
    meaning: 'The request was stopped before it finished.',
    action: 'Nothing to fix: send it again when you want the answer.',
    firstCheck: 'logs',
    retryable: false,
  },
  invalid_response: {
    title: 'Unexpected answer from the gateway',
    meaning: 'Something answered at this address, but not in the OpenAI-compatible format.',
    action: 'Check the base address (with or without /v1): it may point at a web page instead of the API.',
    firstCheck: 'address',
    retryable: false,
  },
};

/** Status family for an HTTP status, per section 7.2. */
export function familyOfStatus(status: number): StatusFamilyId {
  if (status === 401) return 'authentication';
  if (status === 403) return 'permission';
  if (status === 404 || status === 405) return 'not_found';
  if (status === 413) return 'payload_too_large';
  if (status === 429) return 'rate_limit';
  if (status >= 500) return 'server';
  return 'bad_request';
}

/** A stable machine-readable condition, with the status the gateway sends for it. */
export interface ErrorCodeSpec {
  readonly status: number;
  /** What happened, in words a user understands. Request-specific detail is appended by the sender. */
  readonly message: string;
  /** The 7.3 step to check first, when it differs from the family's. */
  readonly firstCheck?: TroubleshootingStep;
}

export const ERROR_CODES = {
  // 401: every message begins with the invalid-token notice (7.1).
  missing_api_key: { status: 401, message: `${INVALID_TOKEN_NOTICE}: no API key was sent. Send the header "Authorization: Bearer <API_KEY>".` },
  invalid_auth_header: { status: 401, message: `${INVALID_TOKEN_NOTICE}: the Authorization header must be "Bearer <API_KEY>".` },
  api_key_whitespace: { status: 401, message: `${INVALID_TOKEN_NOTICE}: the API key has spaces or line breaks around it. Copy the key again, without leading or trailing whitespace.` },
  invalid_api_key: { status: 401, message: `${INVALID_TOKEN_NOTICE}: the API key is wrong or no longer exists. Copy the key again from the console.` },
  metrics_token_required: { status: 401, message: `${INVALID_TOKEN_NOTICE}: these metrics are for a scraper with the gateway's metrics token. Send "Authorization: Bearer <token>" (the value of MODEL_GATEWAY_METRICS_TOKEN).` },
  // The web console's own sign-in (issue 10): a session cookie instead of a key.
  not_signed_in: { status: 401, message: `${INVALID_TOKEN_NOTICE}: you are not signed in to the console, or your session has ended. Sign in again.` },
  // One answer for an unknown user, a wrong password and a disabled user: nobody learns which names exist.
  invalid_credentials: { status: 401, message: `${INVALID_TOKEN_NOTICE}: the user name or the password is wrong.` },
  // Credentials of the wrong kind (issue 10): API keys are for the model endpoints, admin access tokens for the admins' management API.
  api_key_not_accepted: { status: 401, message: `${INVALID_TOKEN_NOTICE}: an API key is for the model endpoints (/v1), not the management API. Sign in to the console, or send an admin access token (Authorization: Bearer mgt-...) to the admin routes.` },
  admin_token_not_accepted: { status: 401, message: `${INVALID_TOKEN_NOTICE}: an admin access token (mgt-...) is accepted only by the admin routes of the management API (/api/console/admin/...), and cannot make tokens. The model endpoints take an API key (sk-...).`, firstCheck: 'key' },
  // An admin access token (Authorization: Bearer mgt-...) the gateway does not know.
  invalid_admin_token: { status: 401, message: `${INVALID_TOKEN_NOTICE}: the admin access token is wrong or no longer exists. An admin makes a new one in the console (Tokens).` },
  // 403
  key_disabled: { status: 403, message: 'This API key is disabled. Enable it in the console or use another key.', firstCheck: 'permission' },
  key_expired: { status: 403, message: 'This API key has expired. Create a new key in the console.', firstCheck: 'permission' },
  insufficient_balance: { status: 403, message: 'Insufficient balance: the account cannot cover this request. Top up the account.', firstCheck: 'balance' },
  model_not_permitted: { status: 403, message: 'This API key has no permission for the requested model.', firstCheck: 'permission' },
  // A channel serves the model, but the operator has not priced it: nothing is served free by accident.
  model_not_priced: { status: 403, message: 'This model has no price yet, so the gateway does not serve it. Ask the operator to price it.', firstCheck: 'model' },
  // A console request that changes something came from another site's page (no same-origin Origin, no console header).
  cross_site_request: { status: 403, message: 'This request did not come from the console page of this gateway, so it was refused. Use the console itself.' },
  // The first-admin setup link: wrong, used, expired, or an admin exists already.
  setup_link_invalid: { status: 403, message: 'This setup link is not valid: it works once, for one hour, and only while the gateway has no admin. If an admin was made, sign in; if not, restart the gateway for a new link, or run model-gateway user create NAME --admin.' },
  // A password change (4.10) whose current password is wrong: 403, not 401, the session is still good.
  current_password_wrong: { status: 403, message: 'The current password is wrong, so the password was not changed.' },
  // Every admin route of the console (4.10: users, top-ups, the audit log, redemption codes, channels, prices) refuses a signed-in user who is not an admin.
  admin_required: { status: 403, message: 'Only an admin of this gateway may do this. Ask an admin.' },
  // The key's own spending limit (total, or per UTC day or month) is spent, whatever the account's balance.
  key_spend_limit_reached: { status: 403, message: 'This API key has reached its spending limit. Wait until the limit resets, or raise the limit (or use another key) in the console.', firstCheck: 'permission' },
  // The key has an IP allow-list and the request came from another address (the message names the address seen).
  ip_not_allowed: { status: 403, message: 'This API key may not be used from this address: it only works from the addresses on its IP allow-list. Use an allowed address, or change the list in the console.', firstCheck: 'permission' },
  // A known admin access token that was revoked, or is past its expiry (issue 10).
  admin_token_revoked: { status: 403, message: 'This admin access token was revoked. An admin makes a new one in the console (Tokens).' },
  admin_token_expired: { status: 403, message: 'This admin access token has expired. An admin makes a new one in the console (Tokens).' },
  // Self sign-up (issue 10) when the admins' setting sign_up is off (the default).
  sign_up_closed: { status: 403, message: 'This gateway does not take sign-ups: its admins create the accounts. Ask an admin of this gateway for one.' },
  // 404
  not_found: { status: 404, message: 'Path not found. Check the base address, with or without /v1.', firstCheck: 'address' },
  // An OpenAI-style path the base address reaches correctly, for a feature this gateway does not have.
  endpoint_not_supported: { status: 404, message: 'This gateway does not serve this endpoint.', firstCheck: 'logs' },
  // A key id that is not on the signed-in user's account answers as if it did not exist (no 403: nothing to learn).
  key_not_found: { status: 404, message: 'No API key with this id on your account.', firstCheck: 'key' },
  // The admins' console (4.10): the user or the account named in the request does not exist.
  user_not_found: { status: 404, message: 'No user with this name.' },
  account_not_found: { status: 404, message: 'No account with this name.' },
  model_not_found: { status: 404, message: 'model not found: no model has this name. Copy the exact model name from the console.', firstCheck: 'model' },
  // An admin's disable of a code id or batch that has no code.
  code_not_found: { status: 404, message: 'No redemption code with this id, or none in this batch.' },
  // An admin's disable of an invitation code id or batch that has no invitation code.
  invitation_not_found: { status: 404, message: 'No invitation code with this id, or none in this batch.' },
  // The admins' channels (4.10): no channel has the name in the request.
  channel_not_found: { status: 404, message: 'No channel with this name.' },
  // An admin's revocation of an admin access token id that does not exist.
  admin_token_not_found: { status: 404, message: 'No admin access token with this id.' },
  // A request log id that is not of the signed-in user's account answers as if it did not exist (no 403: nothing to learn).
  log_not_found: { status: 404, message: 'No request log with this id: it was never written, is not of your account, or was deleted by the log retention. Pick the request from the logs list again.' },
  // A device sign-in's user code (4.11) that is not pending: mistyped, expired, or already approved or denied.
  user_code_invalid: { status: 404, message: 'No sign-in request is waiting with this code: it is mistyped, has expired (codes last 10 minutes), or was already answered. Start Sign In again in your editor for a new code.' },
  // 405: the path exists, the method does not (the Allow header lists the ones that do).
  method_not_allowed: { status: 405, message: 'This path does not accept this method.' },
  // 400 / 413
  invalid_json: { status: 400, message: 'The request body is not valid JSON.' },
  invalid_request: { status: 400, message: 'Invalid request.' },
  // A redemption code (4.10) that is unknown (mistyped), used, expired or disabled: one answer for all,
  // so trying codes tells nothing about which exist.
  redemption_code_invalid: { status: 400, message: 'This redemption code cannot be used: it is mistyped, used already, expired or disabled. Check it, or ask whoever gave it to you.' },
  // Self sign-up when the setting sign_up is invitation: no code given, or one that is unknown (mistyped),
  // used, expired or disabled (one answer for all, so trying codes tells nothing about which exist).
  invitation_required: { status: 400, message: 'Signing up on this gateway needs an invitation code. Ask an admin of this gateway for one, and give it with your name and password.' },
  invitation_invalid: { status: 400, message: 'This invitation code cannot be used: it is mistyped, used already, expired or disabled. Check it, or ask the admin who gave it to you for another.' },
  // A new password shorter than the rule (admin.ts MIN_PASSWORD_LENGTH).
  password_too_short: { status: 400, message: 'The password is too short: choose one of at least 10 characters.' },
  wrong_endpoint: { status: 400, message: 'This model is not served at this endpoint.', firstCheck: 'model' },
  request_too_large: { status: 413, message: 'The request body is too large.' },
  // The console's JSON API takes JSON only: a form or text/plain post (what another site can send) is refused.
  json_required: { status: 415, message: 'This endpoint takes a JSON body: send Content-Type: application/json.' },
  // Key names are unique on the gateway (the CLI addresses keys by name).
  key_name_taken: { status: 409, message: 'A key with this name exists already on your account. Choose another name.' },
  // The admins' console (4.10): a new user's name is taken; with no account given, an account of the new user's name exists.
  user_exists: { status: 409, message: 'A user with this name exists already. Choose another name.' },
  account_exists: { status: 409, message: "An account with the new user's name exists already: name it as the user's account to put the user on it, or choose another name." },
  // The admins' channels (4.10): a new channel's name is taken.
  channel_exists: { status: 409, message: 'A channel with this name exists already. Choose another name, or edit that channel.' },
  // Admin access tokens not revoked have unique names (the CLI revokes by name).
  admin_token_name_taken: { status: 409, message: 'An admin access token with this name exists already (not revoked). Choose another name, or revoke that one first.' },
  // Disabling or demoting the last enabled admin would leave nobody able to run the gateway from the console.
  last_admin: { status: 409, message: 'This is the last enabled admin, so it was not disabled or demoted. Make another user admin first.' },
  // Self sign-up: the name is a user's or an account's already (the one thing a sign-up must tell).
  sign_up_name_taken: { status: 409, message: 'This name is taken. Choose another name.' },
  // Refused by the HTTP layer before the request is read whole.
  uri_too_long: { status: 414, message: 'The request URL is too long.' },
  headers_too_large: { status: 431, message: "The request's headers are too large." },
  request_timeout: { status: 408, message: 'The request did not arrive in time. Send it again.' },
  // 429
  rate_limited: { status: 429, message: 'Too many requests for this API key. Wait and retry.' },
  concurrency_limited: { status: 429, message: 'Too many concurrent requests for this API key. Lower concurrency and retry.' },
  // Failed sign-ins are throttled per user name and per source address, with a growing wait (Retry-After).
  sign_in_throttled: { status: 429, message: 'Too many failed sign-ins. Wait before trying again.', firstCheck: 'key' },
  // Wrong user codes are throttled like sign-ins: a code cannot be found by guessing.
  user_code_throttled: { status: 429, message: 'Too many wrong sign-in codes. Wait before trying again.' },
  // Wrong redemption codes are throttled per account and per address, with a growing wait (Retry-After).
  redemption_throttled: { status: 429, message: 'Too many wrong redemption codes. Wait before trying again.' },
  // Sign-ups are throttled per client address, with a growing wait (Retry-After).
  sign_up_throttled: { status: 429, message: 'Too many sign-ups from this address. Wait before trying again.' },
  upstream_rate_limited: { status: 429, message: 'The upstream model provider is busy (rate limited). Wait and retry, or switch model.' },
  // The balance would pay, but this account's requests in flight hold it until they are charged.
  balance_in_use: { status: 429, message: "This account's requests in flight are holding its balance; it would pay for this one. Retry when they finish, or send fewer at once." },
  // 5xx
  internal_error: { status: 500, message: 'Internal error in the gateway. Retry later; keep this error for support.' },
  upstream_error: { status: 502, message: 'The upstream model provider failed. Retry later.' },
  upstream_unavailable: { status: 503, message: 'No upstream could serve this model right now. Retry later.' },
  upstream_timeout: { status: 503, message: 'The upstream model provider did not answer in time. Retry later.' },
  store_unavailable: { status: 503, message: "The gateway cannot record charges right now (its store cannot write), so it takes no billable request. Retry later; the operator is told." },
  gateway_busy: { status: 503, message: 'The gateway is busy receiving other requests. Retry in a moment.' },
  password_checks_busy: { status: 503, message: 'Too many passwords are being checked at once. Retry in a moment.' },
  gateway_stopping: { status: 503, message: 'The gateway is stopping and takes no new request. Retry in a moment (another instance, or this one once restarted, will answer).' },
} as const satisfies Record<string, ErrorCodeSpec>;

export type ErrorCode = keyof typeof ERROR_CODES;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}

/** The 7.3 step to check first for a given error: the code's own if it has one, else its status family's. */
export function firstCheckFor(status: number, code?: string): TroubleshootingStep {
  if (code !== undefined && isErrorCode(code)) {
    const spec: ErrorCodeSpec = ERROR_CODES[code];
    if (spec.firstCheck) return spec.firstCheck;
  }
  return STATUS_FAMILIES[familyOfStatus(status)].firstCheck;
}

/**
 * Codes a request log can carry that no answer is refused with (the answer went out, or the client had
 * gone): their words for the logs, beside the table's (logErrorMessage).
 */
export const LOGGED_ONLY_CODES = {
  client_aborted: 'The client closed the connection before the answer was complete. Check the client\'s own timeout, or whether it was cancelled.',
  upstream_ignored_max_tokens: 'The upstream kept writing past the completion cap, so the gateway cut the answer there. Tell the operator: this channel ignores max_tokens.',
  charge_withheld: 'The answer went out, but the account could no longer pay all of it when it was recorded (the gateway instance that served it had been paused past its hold on the balance): the charge was cut to what the balance allowed. Nothing for the client to do; the operator sees why in the gateway\'s log.',
} as const satisfies Record<string, string>;

/** The words for an error code of a request log: the table's message, a logged-only code's, or null for none or another's (an OAuth error). */
export function logErrorMessage(code: string | null): string | null {
  if (code === null) return null;
  if (isErrorCode(code)) return ERROR_CODES[code].message;
  return Object.hasOwn(LOGGED_ONLY_CODES, code) ? LOGGED_ONLY_CODES[code as keyof typeof LOGGED_ONLY_CODES] : null;
}

/** The JSON error body of section 7.1, with our stable `code`. */
export interface ErrorBody {
  error: { message: string; type: string; code: string | null; [extra: string]: unknown };
}

/**
 * The error body for `code`: the table's message, the detail, then the request id (every error message ends with it).
 * The detail is cut past MAX_ERROR_DETAIL_CHARS: whatever of a client's request it quotes, no error message is long.
 */
export function errorBody(code: ErrorCode, requestId: string, detail?: string): ErrorBody {
  const message = `${ERROR_CODES[code].message}${detail ? ` ${cutWithMarker(detail, MAX_ERROR_DETAIL_CHARS)}` : ''} (request id: ${requestId})`;
  return { error: { message, type: GATEWAY_ERROR_TYPE, code } };
}
