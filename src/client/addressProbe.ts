/**
 * After a path error (a 404 that is not "model not found", or a web page / non-API answer),
 * find which form of the base address works (contract 1.6) by asking each candidate for its
 * model list once. A candidate works when it answers JSON in the API's shape: a model list,
 * or a 401/403 error body (the path exists but wants a valid key, contract 4.2).
 */
import { ModelList } from '../contract/index.ts';
import { parseJsonOrUndefined } from './responseBody.ts';
import { addressCandidates, addressHint, addressRightHint } from './baseUrl.ts';
import type { NormalizedBaseUrl } from './baseUrl.ts';
import { CLIENT_ERROR_CODES, GatewayError, isErrorBody } from './errors.ts';
import type { HeaderBag } from '../contract/index.ts';

/** A 404 on the path itself, or an answer that is not the API: the address form may be wrong. */
export function isPathError(error: GatewayError): boolean {
  if (error.family === 'not_found') return error.condition !== 'model_not_found';
  if (error.family === 'invalid_response') {
    return error.code === CLIENT_ERROR_CODES.html_response || error.code === CLIENT_ERROR_CODES.malformed_json || error.code === CLIENT_ERROR_CODES.unexpected_shape;
  }
  return false;
}

export interface ProbeAnswer {
  readonly status: number;
  readonly headers: HeaderBag;
  readonly text: string;
}

export interface ExplainContext {
  /** The base URL as the user wrote it. */
  readonly configured: string;
  readonly base: NormalizedBaseUrl;
  /** A hint found earlier by this client (undefined: never probed). */
  readonly cached: string | null | undefined;
  /** GET a URL once (no retries). */
  readonly probe: (url: string) => Promise<ProbeAnswer>;
}

export function answersLikeTheApi(answer: ProbeAnswer): boolean {
  const json = parseJsonOrUndefined(answer.text);
  if (json === undefined) return false;
  if (answer.status === 200) return ModelList.safeParse(json).success;
  return (answer.status === 401 || answer.status === 403) && isErrorBody(json);
}

/** The hint for a path error (null: no other form answered), or undefined when the error is not a path error or probing was cut short. */
export async function explainAddress(error: GatewayError, context: ExplainContext): Promise<string | null | undefined> {
  if (!isPathError(error)) return undefined;
  if (context.cached !== undefined) return context.cached;
  // The form in use answering like the API means the address is right: this gateway lacks only the endpoint asked
  // for (billing at vLLM, LiteLLM, OpenAI), and the other forms would not answer, which must not read as a bad address.
  const here = context.base.apiBase;
  for (const candidate of [{ apiBase: here, suggestion: '' }, ...addressCandidates(context.base)]) {
    try {
      if (answersLikeTheApi(await context.probe(`${candidate.apiBase}/models`))) {
        return candidate.apiBase === here ? addressRightHint(context.base) : addressHint(context.configured, context.base, candidate);
      }
    } catch (probeError) {
      if (probeError instanceof GatewayError && probeError.family === 'aborted') return undefined;
    }
  }
  return addressHint(context.configured, context.base, null);
}
