/**
 * The management API's routes for everyone (contract 4.1, 4.5, 4.10, 4.11): the gateway's status and
 * this document, signing in, a signed-in user's own account, the console opened with a key, and device
 * sign-in. The admins' routes are in adminRoutes.ts; routes.ts joins both into the one table.
 */
import { ADMIN_TOKEN_PREFIX } from './tokens.ts';
import { AccountAnswer, PasswordChangeBody, SessionAnswer, SetupBody, SignInBody } from './session.ts';
import { CreatedKey, KeyChanged, KeyIdBody, KeyLimitsBody, KeyList, KEY_LIMITS_PATH, NewKeyBody } from './keys.ts';
import { Catalogue, CatalogueQuery, ConsoleMe, KeyLogList, KeyLogsQuery } from './account.ts';
import { ApproveBody, DeviceAuthorizationParams, DeviceDecision, DeviceRequestView, DeviceTokenParams, UserCodeBody } from './device.ts';
import { GatewayStatus, OpenApiDocument } from './status.ts';
import { RedeemBody, Redeemed, REDEEM_PATH } from './codes.ts';
import { DeviceAuthorizationResponse, DeviceTokenResponse, DEVICE_AUTHORIZATION_PATH, TOKEN_PATH } from '../deviceFlow.ts';
import { STATUS_PATH } from '../status.ts';
import type { ApiRoute } from './route.ts';

export const OPENAPI_PATH = '/api/openapi.json';

const keyAction = (verb: 'disable' | 'enable' | 'delete', summary: string) => ({
  method: 'POST', path: `/api/console/keys/${verb}`, tag: 'account', summary, auth: 'session', body: KeyIdBody,
  response: { status: 200, schema: KeyChanged }, errors: ['key_not_found'],
}) as const satisfies ApiRoute;

export const CONSOLE_ROUTES = {
  getStatus: {
    method: 'GET', path: STATUS_PATH, tag: 'gateway', summary: 'Whether the gateway is up, its version, and where a device signs in', auth: 'public',
    response: { status: 200, schema: GatewayStatus }, errors: [],
  },
  getOpenApi: {
    method: 'GET', path: OPENAPI_PATH, tag: 'gateway', summary: 'This document: the management API as OpenAPI 3.1', auth: 'public',
    description: 'Generated from the same table the gateway serves its routes from. Cacheable: an ETag, and 304 to If-None-Match.',
    response: { status: 200, schema: OpenApiDocument }, errors: [],
  },
  startDeviceAuthorization: {
    method: 'POST', path: DEVICE_AUTHORIZATION_PATH, tag: 'device', summary: "A device asks to sign in: its device code, and the user code a person confirms at /device", auth: 'public',
    form: DeviceAuthorizationParams, response: { status: 200, schema: DeviceAuthorizationResponse }, errors: [], oauthErrors: true,
  },
  pollDeviceToken: {
    method: 'POST', path: TOKEN_PATH, tag: 'device', summary: "The device polls: authorization_pending until a person answers, then a new API key", auth: 'public',
    form: DeviceTokenParams, response: { status: 200, schema: DeviceTokenResponse }, errors: [], oauthErrors: true,
  },
  getMe: {
    method: 'GET', path: '/api/console/me', tag: 'key', summary: 'The key (masked), its balance and the models it may use, with their prices', auth: 'key',
    response: { status: 200, schema: ConsoleMe }, errors: [],
  },
  listKeyLogs: {
    method: 'GET', path: '/api/console/logs', tag: 'key', summary: "The key's request logs, newest first", auth: 'key', query: KeyLogsQuery,
    response: { status: 200, schema: KeyLogList }, errors: [],
  },
  signIn: {
    method: 'POST', path: '/api/console/login', tag: 'session', summary: 'Sign in with a user name and password: sets the session cookie', auth: 'sign_in', body: SignInBody,
    response: { status: 200, schema: SessionAnswer }, errors: ['invalid_credentials', 'sign_in_throttled', 'password_checks_busy'],
  },
  signOut: {
    method: 'POST', path: '/api/console/logout', tag: 'session', summary: 'End the session and clear its cookie', auth: 'sign_in',
    response: { status: 200, schema: SessionAnswer }, errors: [],
  },
  getSession: {
    method: 'GET', path: '/api/console/session', tag: 'session', summary: 'Who is signed in with this cookie (user null: nobody)', auth: 'public',
    response: { status: 200, schema: SessionAnswer }, errors: [],
  },
  setUp: {
    method: 'POST', path: '/api/console/setup', tag: 'session', summary: 'The first admin, with the setup link serve prints; signs them in', auth: 'sign_in', body: SetupBody,
    response: { status: 201, schema: SessionAnswer }, errors: ['setup_link_invalid', 'password_too_short', 'password_checks_busy'],
  },
  listKeys: {
    method: 'GET', path: '/api/console/keys', tag: 'account', summary: "The API keys of the user's account, never a secret", auth: 'session',
    response: { status: 200, schema: KeyList }, errors: [],
  },
  createKey: {
    method: 'POST', path: '/api/console/keys', tag: 'account', summary: 'A new API key: its secret answered this once', auth: 'session', body: NewKeyBody,
    response: { status: 201, schema: CreatedKey }, errors: ['key_name_taken'],
  },
  disableKey: keyAction('disable', 'Disable a key of the account'),
  enableKey: keyAction('enable', 'Enable a key of the account'),
  deleteKey: keyAction('delete', 'Delete a key of the account'),
  rotateKey: {
    method: 'POST', path: '/api/console/keys/rotate', tag: 'account', summary: 'A new secret for a key, every setting kept; the old one stops at once', auth: 'session', body: KeyIdBody,
    response: { status: 200, schema: CreatedKey }, errors: ['key_not_found'],
  },
  setKeyLimits: {
    method: 'POST', path: KEY_LIMITS_PATH, tag: 'account', summary: "Change a key's limits (the ones given; every other setting and the secret kept)", auth: 'session', body: KeyLimitsBody,
    response: { status: 200, schema: KeyChanged }, errors: ['key_not_found'],
  },
  listModels: {
    method: 'GET', path: '/api/console/models', tag: 'account', summary: "The models open to the user's account, with their prices", auth: 'session', query: CatalogueQuery,
    response: { status: 200, schema: Catalogue }, errors: [],
  },
  changePassword: {
    method: 'POST', path: '/api/console/password', tag: 'account', summary: "The user's own password: every other session ends, this one is renewed", auth: 'session', body: PasswordChangeBody,
    response: { status: 200, schema: SessionAnswer }, errors: ['current_password_wrong', 'sign_in_throttled', 'password_too_short', 'password_checks_busy'],
  },
  getAccount: {
    method: 'GET', path: '/api/console/account', tag: 'account', summary: "The user's account and its balance", auth: 'session',
    response: { status: 200, schema: AccountAnswer }, errors: [],
  },
  redeemCode: {
    method: 'POST', path: REDEEM_PATH, tag: 'account', summary: "Top up the user's account with a redemption code", auth: 'session', body: RedeemBody,
    response: { status: 200, schema: Redeemed }, errors: ['redemption_code_invalid', 'redemption_throttled'],
  },
  lookUpDevice: {
    method: 'POST', path: '/api/console/device/lookup', tag: 'device', summary: 'Which client asks to sign in with this user code', auth: 'session', body: UserCodeBody,
    response: { status: 200, schema: DeviceRequestView }, errors: ['user_code_invalid', 'user_code_throttled'],
  },
  approveDevice: {
    method: 'POST', path: '/api/console/device/approve', tag: 'device', summary: 'Approve a device sign-in: the device collects a new key of the account', auth: 'session', body: ApproveBody,
    response: { status: 200, schema: DeviceDecision }, errors: ['user_code_invalid', 'user_code_throttled'],
  },
  denyDevice: {
    method: 'POST', path: '/api/console/device/deny', tag: 'device', summary: 'Deny a device sign-in', auth: 'session', body: UserCodeBody,
    response: { status: 200, schema: DeviceDecision }, errors: ['user_code_invalid', 'user_code_throttled'],
  },
} as const satisfies Record<string, ApiRoute>;

/** Words of the document about the two credentials scripts and browsers use. */
export const CREDENTIALS_TEXT = `The browser signs in (POST /api/console/login) and holds the session cookie; its changes must come from the console page (Origin, or X-Model-Gateway-Console: 1). Scripts send an admin access token instead, Authorization: Bearer ${ADMIN_TOKEN_PREFIX}..., made by an admin in the console or with model-gateway token create: no cookie, no CSRF proof.`;
