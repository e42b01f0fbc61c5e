/**
 * Signing in with the browser, the device's side of RFC 8628 (contract 4.11), without vscode so it is
 * tested directly against the real gateway: find the endpoints in GET /api/status (RFC 8414 names),
 * ask for a device code, then poll the token endpoint at the interval the gateway sets (5 s more after
 * each slow_down) until the user approves, denies, or the code expires, or the caller cancels.
 * Every request goes through the typed client's transport (undici, VS Code's proxy settings, timeouts,
 * an AbortSignal that aborts the request itself), like every other request of the extension.
 * The device code and the key stay in memory here: never in a URL, a message or a log line.
 */
import type { Dispatcher } from 'undici';
import { DEFAULT_TIMEOUT_MS, createDispatcher, readText, send } from '../../client/index.ts';
import {
  DEVICE_GRANT_TYPE, DeviceAuthorizationResponse, DeviceFlowMetadata, DeviceTokenResponse, OAuthErrorBody, STATUS_PATH, StatusResponse,
} from '../../contract/index.ts';

export interface DeviceFlowEndpoints {
  readonly deviceAuthorization: string;
  readonly token: string;
}

export type DeviceSignInFailure = 'denied' | 'expired' | 'cancelled' | 'failed';

/** Why a sign-in ended without a key; `detail` is the gateway's description (no secret), for the log and messages. */
export class DeviceSignInError extends Error {
  readonly kind: DeviceSignInFailure;
  constructor(kind: DeviceSignInFailure, detail: string) {
    super(detail);
    this.name = 'DeviceSignInError';
    this.kind = kind;
  }
}

export interface FlowOptions {
  /**
   * The transport: the caller's dispatcher (made with the client's createDispatcher from VS Code's proxy
   * settings, closed by the caller), or one made for the call from the environment (HTTPS_PROXY, NO_PROXY).
   */
  readonly dispatcher?: Dispatcher;
  readonly signal?: AbortSignal;
}

/** One request through the client's transport, its body read as JSON (null if it is not JSON); transport failures throw the client's typed errors. */
async function exchange(url: string, init: { method: 'GET' | 'POST'; params?: Record<string, string> }, options: FlowOptions): Promise<{ status: number; body: unknown }> {
  const own = options.dispatcher ? undefined : createDispatcher({});
  try {
    const body = init.params ? new URLSearchParams(init.params).toString() : undefined;
    const headers: Record<string, string> = { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }) };
    const answer = await send(options.dispatcher ?? own!, { method: init.method, url, headers, ...(body === undefined ? {} : { body }), timeoutMs: DEFAULT_TIMEOUT_MS, signal: options.signal });
    try {
      const text = await readText(answer, options.signal, url);
      let json: unknown = null;
      try {
        json = JSON.parse(text);
      } catch {
        // Not JSON (a web page, a proxy's error page): the callers treat it as no answer.
      }
      return { status: answer.status, body: json };
    } finally {
      answer.release();
    }
  } finally {
    await own?.close();
  }
}

/** RFC 8628's step after each slow_down. */
const SLOW_DOWN_STEP_SECONDS = 5;
const DEFAULT_INTERVAL_SECONDS = 5;

/**
 * The device endpoints the gateway at `root` advertises, or null when it advertises none (one-api,
 * new-api, an older gateway) or names another origin (the device code goes nowhere but the gateway).
 */
export async function findDeviceFlow(root: string, options: FlowOptions = {}): Promise<DeviceFlowEndpoints | null> {
  const { status: code, body } = await exchange(`${root.replace(/\/+$/, '')}${STATUS_PATH}`, { method: 'GET' }, options);
  if (code < 200 || code >= 300) return null;
  const status = StatusResponse.safeParse(body);
  const metadata = status.success ? DeviceFlowMetadata.safeParse(status.data.data) : null;
  if (!metadata?.success) return null;
  const origin = new URL(root).origin;
  const deviceAuthorization = new URL(metadata.data.device_authorization_endpoint, root);
  const token = new URL(metadata.data.token_endpoint, root);
  if (deviceAuthorization.origin !== origin || token.origin !== origin) return null;
  return { deviceAuthorization: deviceAuthorization.href, token: token.href };
}

async function post(url: string, params: Record<string, string>, options: FlowOptions): Promise<{ status: number; body: unknown }> {
  try {
    return await exchange(url, { method: 'POST', params }, options);
  } catch (error) {
    if (options.signal?.aborted) throw new DeviceSignInError('cancelled', 'Sign-in cancelled.');
    throw new DeviceSignInError('failed', `Cannot reach the gateway: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function describe(status: number, body: unknown): string {
  const error = OAuthErrorBody.safeParse(body);
  return error.success ? `${error.data.error}: ${error.data.error_description ?? ''}`.trim() : `HTTP ${status}`;
}

/** Asks for a device code for the client named `clientName` ("VS Code on <machine>"). */
export async function startDeviceSignIn(endpoints: DeviceFlowEndpoints, clientId: string, clientName: string, options: FlowOptions = {}): Promise<DeviceAuthorizationResponse> {
  const { status, body } = await post(endpoints.deviceAuthorization, { client_id: clientId, client_name: clientName }, options);
  const parsed = DeviceAuthorizationResponse.safeParse(body);
  if (status !== 200 || !parsed.success) throw new DeviceSignInError('failed', describe(status, body));
  return parsed.data;
}

export interface PollOptions extends FlowOptions {
  /** Waits this many milliseconds (rejects when the signal aborts). Default: a timer. */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Told each time the gateway asks to poll more slowly, with the new interval. */
  readonly onSlowDown?: (intervalSeconds: number) => void;
  readonly now?: () => number;
}

function sleepFor(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new DeviceSignInError('cancelled', 'Sign-in cancelled.'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new DeviceSignInError('cancelled', 'Sign-in cancelled.'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Polls until the key comes (returned once, for SecretStorage) or the sign-in ends without one (DeviceSignInError). */
export async function waitForKey(endpoints: DeviceFlowEndpoints, started: DeviceAuthorizationResponse, options: PollOptions = {}): Promise<{ key: string; keyName: string | null }> {
  const sleep = options.sleep ?? sleepFor;
  const now = options.now ?? Date.now;
  const deadline = now() + started.expires_in * 1000;
  let interval = started.interval ?? DEFAULT_INTERVAL_SECONDS;
  for (;;) {
    await sleep(interval * 1000, options.signal);
    if (now() >= deadline) throw new DeviceSignInError('expired', 'The code expired before it was approved.');
    const { status, body } = await post(endpoints.token, { grant_type: DEVICE_GRANT_TYPE, device_code: started.device_code }, options);
    if (status === 200) {
      const token = DeviceTokenResponse.safeParse(body);
      if (!token.success) throw new DeviceSignInError('failed', 'The gateway answered the sign-in without a key.');
      return { key: token.data.access_token, keyName: token.data.key_name ?? null };
    }
    const error = OAuthErrorBody.safeParse(body);
    const code = error.success ? error.data.error : null;
    if (code === 'authorization_pending') continue;
    if (code === 'slow_down') {
      interval += SLOW_DOWN_STEP_SECONDS;
      options.onSlowDown?.(interval);
      continue;
    }
    if (code === 'access_denied') throw new DeviceSignInError('denied', describe(status, body));
    // invalid_grant: the request is gone (expired and dropped, or the gateway restarted).
    if (code === 'expired_token' || code === 'invalid_grant') throw new DeviceSignInError('expired', describe(status, body));
    throw new DeviceSignInError('failed', describe(status, body));
  }
}
