/**
 * Turning a gateway's answer (status, headers, text) into a validated value or a typed
 * error: error bodies (also on HTTP 200) become errorFromResponse(); a web page, broken
 * JSON or the wrong JSON becomes an InvalidResponseError that says what was found.
 */
import type { z } from 'zod';
import { CLIENT_ERROR_CODES, InvalidResponseError, errorFromResponse, isErrorBody } from './errors.ts';
import { headerValue, requestIdFromHeaders } from '../contract/index.ts';
import type { HeaderBag } from '../contract/index.ts';

export function looksLikeHtml(text: string, headers: HeaderBag): boolean {
  const type = headerValue(headers, 'content-type') ?? '';
  return /html/i.test(type) || /^\s*(<!doctype|<html|<head|<body|<\?xml|<)/i.test(text);
}

/** JSON.parse, or undefined when the text is not JSON. */
export function parseJsonOrUndefined(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The error for an answer that is not JSON at all. */
export function notJsonError(status: number, text: string, headers: HeaderBag): InvalidResponseError {
  const requestId = requestIdFromHeaders(headers);
  if (looksLikeHtml(text, headers)) {
    return new InvalidResponseError({
      status,
      requestId,
      code: CLIENT_ERROR_CODES.html_response,
      detail: `The address answered with a web page (HTML, HTTP ${status}) instead of JSON. The base URL may point at a web site or the console, not at the API.`,
    });
  }
  return new InvalidResponseError({
    status,
    requestId,
    code: CLIENT_ERROR_CODES.malformed_json,
    detail: `The address answered HTTP ${status} with something that is not JSON (${text.trim().slice(0, 80) || 'an empty body'}).`,
  });
}

/** Validated body of a successful answer, or the typed error the answer describes. */
export function interpretAnswer<S extends z.ZodType>(status: number, headers: HeaderBag, text: string, schema: S, what: string): z.output<S> {
  const json = parseJsonOrUndefined(text);
  if (json === undefined) {
    if (status >= 400) {
      // A plain-text or HTML error page: the status says what happened; keep short plain text as the message.
      return throwing(errorFromResponse(status, looksLikeHtml(text, headers) ? null : text.trim().slice(0, 300), headers));
    }
    throw notJsonError(status, text, headers);
  }
  if (status >= 400 || isErrorBody(json)) throw errorFromResponse(status, json, headers);
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidResponseError({
      status,
      requestId: requestIdFromHeaders(headers),
      code: CLIENT_ERROR_CODES.unexpected_shape,
      detail: `The answer is JSON but not ${what} (${issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'wrong shape'}). The base URL may point at another kind of service.`,
    });
  }
  return parsed.data;
}

function throwing(error: Error): never {
  throw error;
}
