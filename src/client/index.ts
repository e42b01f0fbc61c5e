/** The typed client for the gateway contract (no vscode import; used by the extension and tests). */
export { GatewayClient, DEFAULT_TIMEOUT_MS } from './client.ts';
export type { BodyEndpoint, GatewayClientOptions, RequestOptions, ResponseInfo, StatusResult, Balance } from './client.ts';
export type { Embeddings } from './embeddings.ts';
export { imageFormat, MAX_IMAGE_BYTES } from './images.ts';
export type { GeneratedImage, Images } from './images.ts';
export {
  GatewayError,
  BadRequestError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  RateLimitError,
  ServerError,
  ConnectionError,
  TimeoutError,
  AbortError,
  InvalidResponseError,
  CLIENT_ERROR_CODES,
  errorFromResponse,
  errorOfFamily,
  isErrorBody,
} from './errors.ts';
export type { GatewayErrorInit, ClientErrorCode } from './errors.ts';
export { ERROR_PHRASES, FOREIGN_CODES, classifyError } from './classify.ts';
export { normalizeBaseUrl, addressCandidates, addressHint } from './baseUrl.ts';
export type { NormalizedBaseUrl, AddressCandidate } from './baseUrl.ts';
export { normalizeApiKey, redactKey } from './apiKey.ts';
export type { NormalizedApiKey } from './apiKey.ts';
export { shouldRetry, retryDelayMs, DEFAULT_MAX_RETRIES } from './retry.ts';
export { retryAfterMs } from '../contract/index.ts';
export { computeBalance, UNLIMITED_USD } from './balance.ts';
export { sseEvents, chatChunks } from './sse.ts';
export { createDispatcher, send, readText } from './transport.ts';
export type { DispatcherOptions, SendOptions, Exchange } from './transport.ts';
export type { SseEvent } from './sse.ts';
