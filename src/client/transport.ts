/**
 * One HTTP exchange through undici: the dispatcher (keep-alive Agent, or a proxy agent),
 * per-request timeouts, an AbortSignal that aborts the request itself, and the mapping of
 * transport failures to ConnectionError / TimeoutError / AbortError.
 */
import { Agent, EnvHttpProxyAgent, request } from 'undici';
import type { Dispatcher } from 'undici';
import type { IncomingHttpHeaders } from 'node:http';
import { AbortError, ConnectionError, GatewayError, InvalidResponseError, TimeoutError } from './errors.ts';

export interface DispatcherOptions {
  /** Proxy URL (VS Code's `http.proxy`); without it, HTTPS_PROXY / HTTP_PROXY from the environment apply. */
  readonly proxy?: string | undefined;
  /** Hosts that bypass the proxy (VS Code's `http.noProxy`, comma-separated); without it, NO_PROXY applies. */
  readonly noProxy?: string | undefined;
}

const AGENT_OPTIONS = { keepAliveTimeout: 30_000, connect: { timeout: 30_000 } } as const;

function environmentProxy(): string | undefined {
  const env = process.env;
  return env['https_proxy'] || env['HTTPS_PROXY'] || env['http_proxy'] || env['HTTP_PROXY'] || undefined;
}

/** One dispatcher per client: keep-alive, and a proxy when one is configured or set in the environment. */
export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const proxy = options.proxy?.trim() || undefined;
  const noProxy = options.noProxy?.trim() || undefined;
  try {
    if (proxy) {
      new URL(proxy);
      return new EnvHttpProxyAgent({ ...AGENT_OPTIONS, httpProxy: proxy, httpsProxy: proxy, ...(noProxy ? { noProxy } : {}) });
    }
    if (environmentProxy()) return new EnvHttpProxyAgent({ ...AGENT_OPTIONS, ...(noProxy ? { noProxy } : {}) });
  } catch (error) {
    throw new ConnectionError({ detail: `The proxy setting "${proxy ?? environmentProxy()}" is not a valid URL.`, cause: error });
  }
  return new Agent(AGENT_OPTIONS);
}

export interface SendOptions {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
  /** Bounds the wait for headers and each silence in the body. */
  readonly timeoutMs: number;
  readonly signal?: AbortSignal | undefined;
}

export interface Exchange {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Dispatcher.ResponseData['body'];
  /** Abort the request (closes the socket if the body is still arriving). */
  abort(): void;
  /** Stop listening to the caller's signal; call once the exchange is over. */
  release(): void;
}

function undiciCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The typed error for anything thrown while sending a request or reading its body. */
export function transportError(error: unknown, userSignal: AbortSignal | undefined, url: string): GatewayError {
  if (error instanceof GatewayError) return error;
  if (userSignal?.aborted) return new AbortError({ cause: error });
  const code = undiciCode(error);
  const detail = `${(error as Error)?.message ?? String(error)} (${new URL(url).origin})`;
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new TimeoutError({ detail, cause: error });
  }
  if (code === 'UND_ERR_INVALID_ARG' || code === 'ERR_INVALID_URL') return new InvalidResponseError({ code: 'invalid_base_url', detail, cause: error });
  return new ConnectionError({ detail, cause: error });
}

export async function send(dispatcher: Dispatcher, options: SendOptions): Promise<Exchange> {
  const { signal } = options;
  if (signal?.aborted) throw new AbortError({});
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  const release = () => signal?.removeEventListener('abort', onAbort);
  try {
    const response = await request(options.url, {
      dispatcher,
      method: options.method,
      headers: options.headers,
      ...(options.body === undefined ? {} : { body: options.body }),
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      signal: controller.signal,
    });
    return {
      status: response.statusCode,
      headers: response.headers,
      body: response.body,
      abort: () => controller.abort(),
      release,
    };
  } catch (error) {
    release();
    throw transportError(error, signal, options.url);
  }
}

/** The whole body as text, mapping transport failures. */
export async function readText(exchange: Exchange, signal: AbortSignal | undefined, url: string): Promise<string> {
  try {
    return await exchange.body.text();
  } catch (error) {
    throw transportError(error, signal, url);
  }
}

/** The whole body as bytes, refused (and the request aborted) past `maxBytes`. */
export async function readBytes(exchange: Exchange, signal: AbortSignal | undefined, url: string, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of exchange.body) {
      length += (chunk as Buffer).length;
      if (length > maxBytes) {
        exchange.abort();
        throw new InvalidResponseError({ status: exchange.status, code: 'unexpected_shape', detail: `${new URL(url).origin} sent more than ${Math.round(maxBytes / 1024 / 1024)} MB.` });
      }
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    throw transportError(error, signal, url);
  }
  return Buffer.concat(chunks, length);
}
