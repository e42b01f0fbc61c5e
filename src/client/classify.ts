/**
 * Which contract condition an error body describes: the one place that holds the
 * heuristics for gateways that do not send our stable `code`s.
 *
 * Gateways of the one-api / new-api family answer errors as
 * `{"error": {"message": "...", "type": "one_api_error" | "new_api_error" | "*_error", "code": ...}}`,
 * often in Chinese, sometimes with a status that does not match the condition
 * (401 for an exhausted token, 503 for "no channel for this model") and sometimes
 * with HTTP 200. So the body is read first and the status is the fallback:
 *
 *   1. `code` is one of the contract's ERROR_CODES (our gateway, or a compatible one) -> that condition;
 *   2. `code` is a known foreign code (FOREIGN_CODES below)                           -> its condition;
 *   3. the message contains a phrase of ERROR_PHRASES (English or Chinese)             -> its condition;
 *   4. otherwise the HTTP status (section 7.2), or on HTTP 200 the error `type`, else "server".
 *
 * A condition's family is the family of its contract status (ERROR_CODES[condition].status).
 */
import { ERROR_CODES, familyOfStatus, isErrorCode } from '../contract/index.ts';
import type { ErrorCode, StatusFamilyId } from '../contract/index.ts';

export interface ErrorPhrase {
  readonly pattern: RegExp;
  readonly condition: ErrorCode;
  /** A real-looking message this row recognises (also used by the tests). */
  readonly example: string;
}

/**
 * Phrases seen in error messages, first match wins (so "model ... does not exist or you
 * do not have access" is a missing model, not a permission problem).
 *
 * | condition             | English                                              | Chinese (one-api / new-api)                 |
 * |-----------------------|------------------------------------------------------|---------------------------------------------|
 * | model_not_found       | model not found; model ... does not exist; no available channel | 模型 ... 不存在; 当前分组 ... 下对于模型 ... 无可用渠道 |
 * | missing_api_key       | no token provided; missing api key; didn't provide an API key | 未提供令牌                        |
 * | invalid_api_key       | invalid token; invalid/incorrect api key             | 无效的令牌                                   |
 * | key_expired           | token expired                                        | 该令牌已过期; 令牌已过期                      |
 * | key_disabled          | token disabled; user banned                          | 令牌已被禁用; 该令牌状态不可用; 用户已被封禁     |
 * | insufficient_balance  | insufficient quota/balance; quota exhausted; exceeded your current quota | 令牌额度已用尽; 额度不足; 余额不足; 额度已用尽 |
 * | model_not_permitted   | no permission for model; not allowed to use model    | 无权使用模型; 无权访问; 没有权限               |
 * | upstream_rate_limited | upstream busy / saturated                            | 负载已饱和                                   |
 * | rate_limited          | too many requests; rate limit                        | 请求过于频繁; 请求数限制                      |
 */
export const ERROR_PHRASES: readonly ErrorPhrase[] = [
  { pattern: /无可用渠道|no available channels?\b/i, condition: 'model_not_found', example: '当前分组 default 下对于模型 gpt-5 无可用渠道' },
  { pattern: /模型\s*\S*\s*不存在|model\b.*\b(not found|does not exist|not exist)/i, condition: 'model_not_found', example: 'The model `gpt-9` does not exist or you do not have access to it.' },
  { pattern: /未提供令牌|no token provided|missing api key|didn't provide an api key/i, condition: 'missing_api_key', example: '未提供令牌' },
  { pattern: /无效的令牌|invalid token|(invalid|incorrect) api key/i, condition: 'invalid_api_key', example: '无效的令牌 (request id: 20250101000000000000001)' },
  { pattern: /令牌已过期|token (has )?expired/i, condition: 'key_expired', example: '该令牌已过期' },
  { pattern: /令牌已被禁用|令牌状态不可用|用户已被封禁|token (has been |is )?disabled|user (has been |is )?banned/i, condition: 'key_disabled', example: '该令牌状态不可用' },
  { pattern: /额度已用尽|额度不足|余额不足|insufficient[ _](user[ _])?(quota|balance)|quota (is )?(exhausted|exceeded|insufficient)|exceeded your current quota/i, condition: 'insufficient_balance', example: '该令牌额度已用尽 TokenStatusExhausted[sk-****]' },
  { pattern: /无权使用模型|无权访问|没有权限|no permission|not allowed to use (this |the )?model/i, condition: 'model_not_permitted', example: '该令牌无权使用模型：gpt-4o' },
  { pattern: /负载已饱和|upstream\b.*\b(busy|saturated|overloaded)/i, condition: 'upstream_rate_limited', example: '当前分组上游负载已饱和，请稍后再试' },
  { pattern: /请求过于频繁|请求数限制|too many requests|rate limit/i, condition: 'rate_limited', example: '您已达到请求数限制：1分钟内最多请求60次' },
];

/** Error codes other gateways send (OpenAI, one-api, new-api), mapped to the contract's conditions. */
export const FOREIGN_CODES: Readonly<Record<string, ErrorCode>> = {
  insufficient_quota: 'insufficient_balance',
  insufficient_user_quota: 'insufficient_balance',
  pre_consume_token_quota_failed: 'insufficient_balance',
  access_denied: 'model_not_permitted',
  model_not_allowed: 'model_not_permitted',
  token_expired: 'key_expired',
  token_disabled: 'key_disabled',
  rate_limit_exceeded: 'rate_limited',
};

/** `type` values that name a family, for error bodies that arrive with HTTP 200. */
const TYPE_FAMILIES: Readonly<Record<string, StatusFamilyId>> = {
  authentication_error: 'authentication',
  permission_error: 'permission',
  permission_denied: 'permission',
  insufficient_quota: 'permission',
  not_found_error: 'not_found',
  rate_limit_error: 'rate_limit',
  invalid_request_error: 'bad_request',
};

export interface Classification {
  readonly family: StatusFamilyId;
  /** The contract condition recognised, or null when only the family is known. */
  readonly condition: ErrorCode | null;
}

export interface ErrorFacts {
  /** HTTP status of the response (200 for an error body sent with success). */
  readonly status: number;
  readonly code: string | null;
  readonly type: string | null;
  readonly message: string | null;
}

/** The condition named by a code or a message, or null. */
export function conditionOf(code: string | null, message: string | null): ErrorCode | null {
  if (code !== null && isErrorCode(code)) return code;
  if (code !== null && Object.hasOwn(FOREIGN_CODES, code)) return FOREIGN_CODES[code]!;
  if (message) {
    for (const phrase of ERROR_PHRASES) if (phrase.pattern.test(message)) return phrase.condition;
  }
  return null;
}

export function classifyError(facts: ErrorFacts): Classification {
  const condition = conditionOf(facts.code, facts.message);
  if (condition !== null) return { family: familyOfStatus(ERROR_CODES[condition].status), condition };
  if (facts.status >= 400) return { family: familyOfStatus(facts.status), condition: null };
  if (facts.type !== null && Object.hasOwn(TYPE_FAMILIES, facts.type)) return { family: TYPE_FAMILIES[facts.type]!, condition: null };
  return { family: 'server', condition: null };
}
