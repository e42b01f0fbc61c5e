/**
 * Signing in with the browser, the device's side of RFC 8628 (contract 4.11), without vscode so it is
 * tested directly against the real gateway: find the endpoints in GET /api/status (RFC 8414 names),
 * ask for a device code, then poll the token endpoint at the interval the gateway sets (5 s more after
 * each slow_down) until the user approves, denies, or the code expires, or the caller cancels.
 * The device code and the key stay in memory here: never in a URL, a message or a log line.
 */
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

type Fetch = typeof fetch;

export interface FlowOptions {
  readonly fetch?: Fetch;
  readonly signal?: AbortSignal;
}

/** RFC 8628's step after each slow_down. */
const SLOW_DOWN_STEP_SECONDS = 5;
const DEFAULT_INTERVAL_SECONDS = 5;

/**
 * The device endpoints the gateway at `root` advertises, or null when it advertises none (one-api,
 * new-api, an older gateway) or names another origin (the device code goes nowhere but the gateway).
 */
export async function findDeviceFlow(root: string, options: FlowOptions = {}): Promise<DeviceFlowEndpoints | null> {
  const doFetch = options.fetch ?? fetch;
  const res = await doFetch(`${root.replace(/\/+$/, '')}${STATUS_PATH}`, { ...(options.signal ? { signal: options.signal } : {}) });
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) return null;
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
  const doFetch = options.fetch ?? fetch;
  try {
    const res = await doFetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams(params).toString(),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return { status: res.status, body: await res.json().catch(() => null) };
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
