/**
 * One error class per status family (openai-node's habit), each carrying the contract's
 * meaning, action and first troubleshooting step (src/contract/errors.ts, never copied here),
 * plus what the gateway itself said. Callers match on `family`, `condition` or `code`, never on text.
 */
import { ERROR_CODES, STATUS_FAMILIES, errorFields, firstCheckFor, looseErrorMessage, requestIdFromHeaders, retryAfterMs } from '../contract/index.ts';
import type { ErrorCode, HeaderBag, StatusFamilyId, TroubleshootingStep } from '../contract/index.ts';
import { classifyError } from './classify.ts';

/** Stable codes for failures the client detects itself (no gateway code exists for them). */
export const CLIENT_ERROR_CODES = {
  connection_failed: 'connection_failed',
  timeout: 'timeout',
  aborted: 'aborted',
  html_response: 'html_response',
  malformed_json: 'malformed_json',
  unexpected_shape: 'unexpected_shape',
  stream_truncated: 'stream_truncated',
  invalid_base_url: 'invalid_base_url',
} as const;
export type ClientErrorCode = keyof typeof CLIENT_ERROR_CODES;

export interface GatewayErrorInit {
  /** Defaults to the subclass's family. */
  readonly family?: StatusFamilyId;
  readonly status?: number | null;
  /** The gateway's error code, or a CLIENT_ERROR_CODES value for failures found by the client. */
  readonly code?: string | null;
  readonly type?: string | null;
  readonly gatewayMessage?: string | null;
  readonly requestId?: string | null;
  /** The contract condition recognised (ERROR_CODES key), when one was. */
  readonly condition?: ErrorCode | null;
  readonly hint?: string | null;
  readonly retryAfterMs?: number | null;
  readonly detail?: string | null;
  readonly cause?: unknown;
}

export class GatewayError extends Error {
  readonly family: StatusFamilyId;
  readonly status: number | null;
  readonly code: string | null;
  readonly type: string | null;
  readonly gatewayMessage: string | null;
  readonly requestId: string | null;
  readonly condition: ErrorCode | null;
  /** Contract 7.2: what the failure means. */
  readonly meaning: string;
  /** Contract 7.2: what the user should do. */
  readonly action: string;
  /** Contract 7.3: the step of the troubleshooting order to start from. */
  readonly firstCheck: TroubleshootingStep;
  /** A specific suggestion found by the client (for example which base URL form works). */
  hint: string | null;
  readonly retryAfterMs: number | null;

  constructor(init: GatewayErrorInit, defaultFamily: StatusFamilyId = 'server') {
    const family = init.family ?? defaultFamily;
    const spec = STATUS_FAMILIES[family];
    const gatewayMessage = init.gatewayMessage ?? null;
    super(`${spec.title}: ${gatewayMessage ?? init.detail ?? spec.meaning}`, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.family = family;
    this.status = init.status ?? null;
    this.code = init.code ?? null;
    this.type = init.type ?? null;
    this.gatewayMessage = gatewayMessage;
    this.requestId = init.requestId ?? requestIdFromMessage(gatewayMessage);
    this.condition = init.condition ?? null;
    this.meaning = this.condition ? `${spec.meaning} (${ERROR_CODES[this.condition].message})` : spec.meaning;
    this.action = spec.action;
    this.firstCheck = this.condition ? firstCheckFor(ERROR_CODES[this.condition].status, this.condition) : spec.firstCheck;
    this.hint = init.hint ?? null;
    this.retryAfterMs = init.retryAfterMs ?? null;
  }
}

export class BadRequestError extends GatewayError {
  constructor(init: GatewayErrorInit) { super(init, 'bad_request'); }
}
export class AuthenticationError extends GatewayError {
  constructor(init: GatewayErrorInit) { super(init, 'authentication'); }
}
export class PermissionDeniedError extends GatewayError {
  constructor(init: GatewayErrorInit) { super(init, 'permission'); }
}
export class NotFoundError extends GatewayError {
  constructor(init: GatewayErrorInit) { super(init, 'not_found'); }
}
export class RateLimitError extends GatewayError {
  constructor(init: GatewayErrorInit) { super(init, 'rate_limit'); }
}
export class ServerError extends GatewayError {
  constructor(init: GatewayErrorInit) { super(init, 'server'); }
}
export class ConnectionError extends GatewayError {
  constructor(init: GatewayErrorInit) { super({ code: CLIENT_ERROR_CODES.connection_failed, ...init }, 'connection'); }
}
export class TimeoutError extends GatewayError {
  constructor(init: GatewayErrorInit) { super({ code: CLIENT_ERROR_CODES.timeout, ...init }, 'timeout'); }
}
export class AbortError extends GatewayError {
  constructor(init: GatewayErrorInit) { super({ code: CLIENT_ERROR_CODES.aborted, ...init }, 'aborted'); }
}
export class InvalidResponseError extends GatewayError {
  constructor(init: GatewayErrorInit) { super(init, 'invalid_response'); }
}

const CLASS_OF_FAMILY: Readonly<Record<StatusFamilyId, new (init: GatewayErrorInit) => GatewayError>> = {
  bad_request: BadRequestError,
  payload_too_large: BadRequestError,
  authentication: AuthenticationError,
  permission: PermissionDeniedError,
  not_found: NotFoundError,
  rate_limit: RateLimitError,
  server: ServerError,
  connection: ConnectionError,
  timeout: TimeoutError,
  aborted: AbortError,
  invalid_response: InvalidResponseError,
};

/** The error of a family, as its class. */
export function errorOfFamily(family: StatusFamilyId, init: GatewayErrorInit): GatewayError {
  return new CLASS_OF_FAMILY[family]({ ...init, family });
}

/** `(request id: ...)` as new-api appends it to messages. */
export function requestIdFromMessage(message: string | null): string | null {
  if (!message) return null;
  const match = /request[ _-]?id[:：]\s*([A-Za-z0-9._-]+)/i.exec(message);
  return match ? match[1]! : null;
}

/** Whether a parsed body carries an error (gateways of the one-api family send these with HTTP 200 too). */
export function isErrorBody(body: unknown): boolean {
  return errorFields(body) !== null;
}

/**
 * The typed error for a gateway answer: `status` is the HTTP status (200 for an error body
 * sent with success), `body` the parsed JSON (or its text), `headers` the response headers.
 * The family comes from the body when it names a condition, else from the status (see classify.ts).
 */
export function errorFromResponse(status: number, body: unknown, headers?: HeaderBag): GatewayError {
  const fields = errorFields(body) ?? { message: looseErrorMessage(body), type: null, code: null };
  // An error body on HTTP 200 that names an HTTP status in `code` (some gateways do) is classified by that status.
  const named = fields.code !== null && /^[45]\d\d$/.test(fields.code) ? Number(fields.code) : null;
  const { family, condition } = classifyError({ status: status < 400 && named !== null ? named : status, ...fields });
  return errorOfFamily(family, {
    status,
    code: fields.code,
    type: fields.type,
    gatewayMessage: fields.message,
    condition,
    requestId: requestIdFromHeaders(headers) ?? requestIdFromMessage(fields.message),
    retryAfterMs: retryAfterMs(headers),
  });
}
