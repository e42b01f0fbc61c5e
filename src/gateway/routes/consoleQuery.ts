/**
 * The query strings of the console's lists (the account's logs, the admins' users and audit log): an
 * unknown parameter or a bad value is a 400 invalid_request naming it, and pages are `limit` rows
 * (1..200, default 50) continued from an id the answer gives.
 */
import { HttpError } from '../http/errors.ts';
import type { RequestContext } from '../context.ts';

export const DEFAULT_PAGE = 50;
export const MAX_PAGE = 200;

/** The request's query parameters, refusing any not in `known`. */
export function consoleQuery(ctx: RequestContext, known: readonly string[]): URLSearchParams {
  const params = new URLSearchParams(ctx.req.url?.split('?')[1] ?? '');
  const unknown = [...params.keys()].filter((k) => !known.includes(k));
  if (unknown.length > 0) throw new HttpError('invalid_request', `unknown parameter ${JSON.stringify(unknown[0])}.`);
  return params;
}

/** An integer parameter from 1 to `max`; undefined when absent or empty. */
export function positiveInt(params: URLSearchParams, name: string, max: number): number | undefined {
  const raw = params.get(name);
  if (raw === null || raw === '') return undefined;
  if (!/^\d{1,15}$/.test(raw) || Number(raw) < 1 || Number(raw) > max) throw new HttpError('invalid_request', `${name} must be an integer from 1 to ${max}.`);
  return Number(raw);
}

/** A text parameter of at most `max` characters ('' when absent). */
export function textParam(params: URLSearchParams, name: string, max: number): string {
  const value = params.get(name) ?? '';
  if (value.length > max) throw new HttpError('invalid_request', `${name} must be at most ${max} characters.`);
  return value;
}

/** The page size asked for (`limit`), or the default. */
export function pageLimit(params: URLSearchParams): number {
  return positiveInt(params, 'limit', MAX_PAGE) ?? DEFAULT_PAGE;
}
