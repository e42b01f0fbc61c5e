/**
 * The console's one way to the gateway: a management API route by its id in the contract's route
 * table (src/contract/api/routes.ts), typed by that route's schemas. Every change carries the console
 * header (the server's CSRF check also sees the Origin); a refusal becomes an ApiError with the
 * contract's stable code and the server's words. A session's call refused with `not_signed_in` also
 * tells whoever listens (the console app) that the session ended, whichever page made the call.
 */
import type { z } from 'zod';
import type { ApiRouteId, ApiRoutes } from '../contract/api/routes.ts';
import { CONSOLE_HEADER } from '../contract/headers.ts';
import { SseDecoder } from '../wire/sse.ts';

/** Each route's method and path, from the route table at build time (esbuild.js). */
declare const API_ROUTE_PATHS: { readonly [K in ApiRouteId]: readonly [ApiRoutes[K]['method'], ApiRoutes[K]['path']] };

type Route<K extends ApiRouteId> = ApiRoutes[K];
type SchemaOf<R, F extends string> = R extends { readonly [P in F]: infer S extends z.ZodType } ? S : never;

export type Answer<K extends ApiRouteId> = z.output<Route<K>['response']['schema']>;
export type QueryOf<K extends ApiRouteId> = z.input<SchemaOf<Route<K>, 'query'>>;
export type BodyOf<K extends ApiRouteId> = z.input<SchemaOf<Route<K>, 'body'>>;

export interface CallOptions<K extends ApiRouteId> {
  readonly query?: Partial<Record<keyof QueryOf<K> & string, string | number | undefined>>;
  readonly body?: BodyOf<K>;
  /** An API key instead of the session (the console opened with a key). */
  readonly apiKey?: string;
  readonly signal?: AbortSignal;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  /** Seconds the gateway asked to wait (Retry-After), when it did. */
  readonly retryAfter: number | null;

  constructor(status: number, code: string, message: string, retryAfter: number | null = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
  }
}

/** The path with its query string, empty values left out. */
export function urlOf(path: string, query: Record<string, string | number | undefined> | undefined): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined && value !== '') params.set(name, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

type SessionEndedListener = () => void;
const sessionEndedListeners = new Set<SessionEndedListener>();

/**
 * Calls `listener` whenever the gateway answers a session's call with `not_signed_in`: the session ended
 * elsewhere (sign-out or password change in another tab, the user disabled, idle or absolute expiry).
 * Answers the function that stops listening.
 */
export function onSessionEnded(listener: SessionEndedListener): () => void {
  sessionEndedListeners.add(listener);
  return () => sessionEndedListeners.delete(listener);
}

async function refusalOf(res: Response): Promise<ApiError> {
  const retry = Number(res.headers.get('Retry-After'));
  const retryAfter = Number.isFinite(retry) && retry > 0 ? retry : null;
  try {
    const body = (await res.json()) as { error?: { code?: string; message?: string } };
    if (body.error?.code) return new ApiError(res.status, body.error.code, body.error.message ?? res.statusText, retryAfter);
  } catch {
    // Not the contract's body (a proxy's page): fall through.
  }
  return new ApiError(res.status, 'http_error', `The gateway answered ${res.status} ${res.statusText}.`, retryAfter);
}

export async function call<K extends ApiRouteId>(id: K, options: CallOptions<K> = {}): Promise<Answer<K>> {
  return (await (await answered(id, options)).json()) as Answer<K>;
}

/**
 * A route whose answer is a stream of server-sent events (its row's `response.stream`, the playground's
 * chat): `onData` gets each event's data as it arrives, read by the project's one SSE decoder. A refusal
 * before the stream is an ApiError, as for call(); aborting `signal` ends the reading (rejecting with it).
 */
export async function callStream<K extends ApiRouteId>(id: K, options: CallOptions<K>, onData: (data: string) => void, onStart?: (res: Response) => void): Promise<void> {
  const res = await answered(id, options, 'text/event-stream');
  onStart?.(res);
  if (!res.body) throw new ApiError(res.status, 'http_error', 'The gateway answered without a body.');
  const decoder = new SseDecoder();
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    for (const item of done ? decoder.end() : decoder.push(value)) if (item.type === 'event') onData(item.data);
    if (done) return;
  }
}

/** The route's answer when it is a success; a refusal is thrown as an ApiError (after telling the listeners of a session that ended). */
async function answered<K extends ApiRouteId>(id: K, options: CallOptions<K>, accept = 'application/json'): Promise<Response> {
  const [method, path] = API_ROUTE_PATHS[id];
  const headers: Record<string, string> = { Accept: accept };
  if (method === 'POST') headers[CONSOLE_HEADER] = '1';
  if (options.apiKey) headers['Authorization'] = `Bearer ${options.apiKey}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let res: Response;
  try {
    res = await fetch(urlOf(path, options.query), {
      method, headers, body, credentials: 'same-origin', cache: 'no-store', signal: options.signal,
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ApiError(0, 'network_error', 'The gateway could not be reached. Check that it is running, then try again.');
  }
  if (!res.ok) {
    const refusal = await refusalOf(res);
    // Only a session's call: a page opened with an API key has no session to end.
    if (refusal.code === 'not_signed_in' && !options.apiKey) for (const listener of sessionEndedListeners) listener();
    throw refusal;
  }
  return res;
}

/** The address of a route's CSV answer (the browser downloads it with the session cookie). */
export function csvUrl<K extends ApiRouteId>(id: K, query: CallOptions<K>['query']): string {
  return urlOf(API_ROUTE_PATHS[id][1], { ...query, format: 'csv' });
}
