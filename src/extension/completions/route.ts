/**
 * Which request a model answers for inline completion: fill-in-the-middle on /v1/completions, or a chat
 * turn. Found out once per gateway and model, then remembered (the glue keeps it in globalState, so a
 * restart does not ask again). No vscode import.
 */
import type { StatusFamilyId } from '../../contract/index.ts';

export type CompletionRoute = 'fim' | 'chat';

export interface RouteMemory {
  get(key: string): CompletionRoute | undefined;
  set(key: string, route: CompletionRoute): void;
}

/** A memory that lives as long as the object: for tests, and the layer in front of globalState. */
export function memoryInMap(map = new Map<string, CompletionRoute>()): RouteMemory {
  return { get: (key) => map.get(key), set: (key, route) => void map.set(key, route) };
}

export function routeKey(baseUrl: string, model: string): string {
  return `${baseUrl.replace(/\/+$/, '')}|${model}`;
}

/** The fields of the client's GatewayError this decision reads (structurally, as errors/explain.ts does). */
interface FailureLike {
  readonly family?: StatusFamilyId;
  readonly code?: string | null;
  readonly status?: number | null;
}

/**
 * Whether a failed FIM request says "not this way" (the model is not served at /v1/completions, or its
 * server refuses `suffix`): a 400, 404, 405, 415, 422 or 501 that is not about the key, the money or the
 * model's name. Those others would fail a chat request just the same, so they are shown, not worked around.
 */
export function fimRefused(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const failure = error as FailureLike;
  if (failure.code === 'model_not_found') return false;
  if (failure.family === 'bad_request') return true;
  if (failure.family === 'not_found') return true;
  return failure.status === 405 || failure.status === 415 || failure.status === 422 || failure.status === 501;
}

/** Whether a failure is the request being cancelled (a keystroke, VS Code's token): never shown, never remembered. */
export function isAbort(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  return (error as FailureLike).family === 'aborted' || (error as { name?: unknown }).name === 'AbortError';
}
