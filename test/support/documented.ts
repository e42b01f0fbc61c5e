/** What the management API's table (and so its OpenAPI document) says a route can answer, checked on a real answer. */
import assert from 'node:assert/strict';
import { API_ROUTES, errorCodesOf, type ApiRoute } from '../../src/contract/index.ts';
import { assertError, type Answer } from './answer.ts';

/** The error codes the management API's row for `method path` documents (null: not a route of the management API). */
export function documentedCodes(method: string, path: string): string[] | null {
  const route = Object.values(API_ROUTES).find((r) => r.method === method && r.path === path);
  return route ? errorCodesOf(route) : null;
}

/** The answer is the refusal `code`, and, on the management API, a code its row documents. */
export function assertRefusal(answer: Answer, method: string, path: string, status: number, code: string): void {
  assertError(answer, status, code);
  const codes = documentedCodes(method, path);
  if (codes) assert.ok(codes.includes(code), `${method} ${path} answered ${code}, which its row does not document (${codes.join(', ')})`);
}


/** The route's query has a parameter that must be given (a GET asked without one is 400 invalid_request once past its auth). */
export function needsQuery(method: string, path: string): boolean {
  const route: ApiRoute | undefined = Object.values(API_ROUTES).find((r) => r.method === method && r.path === path);
  return route?.query !== undefined && !route.query.safeParse({}).success;
}
