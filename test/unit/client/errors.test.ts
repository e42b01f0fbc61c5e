// errorFromResponse over real-looking bodies: ours, OpenAI's, and the one-api / new-api family's
// (Chinese messages, surprising statuses, errors sent with HTTP 200).
import assert from 'node:assert/strict';
import { ERROR_CODES, STATUS_FAMILIES } from '../../../src/contract/index.ts';
import type { ErrorCode, StatusFamilyId, TroubleshootingStep } from '../../../src/contract/index.ts';
import {
  AuthenticationError,
  BadRequestError,
  GatewayError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  errorFromResponse,
} from '../../../src/client/errors.ts';
import { ERROR_PHRASES, conditionOf } from '../../../src/client/classify.ts';

interface Row {
  readonly name: string;
  readonly status: number;
  readonly body: unknown;
  readonly cls: new (...args: never[]) => GatewayError;
  readonly family: StatusFamilyId;
  readonly condition: ErrorCode | null;
  readonly firstCheck?: TroubleshootingStep;
  readonly code?: string | null;
}

const ours = (code: ErrorCode) => ({ error: { message: ERROR_CODES[code].message, type: 'model_gateway_error', code } });
const oneApi = (message: string) => ({ error: { message, type: 'one_api_error' } });
const newApi = (message: string, code = '') => ({ error: { message, type: 'new_api_error', param: '', code } });

const TABLE: Row[] = [
  // Ours: the code decides.
  { name: 'ours: invalid key', status: 401, body: ours('invalid_api_key'), cls: AuthenticationError, family: 'authentication', condition: 'invalid_api_key', firstCheck: 'key', code: 'invalid_api_key' },
  { name: 'ours: whitespace', status: 401, body: ours('api_key_whitespace'), cls: AuthenticationError, family: 'authentication', condition: 'api_key_whitespace', firstCheck: 'key' },
  { name: 'ours: disabled', status: 403, body: ours('key_disabled'), cls: PermissionDeniedError, family: 'permission', condition: 'key_disabled', firstCheck: 'permission' },
  { name: 'ours: balance', status: 403, body: ours('insufficient_balance'), cls: PermissionDeniedError, family: 'permission', condition: 'insufficient_balance', firstCheck: 'balance' },
  { name: 'ours: model permission', status: 403, body: ours('model_not_permitted'), cls: PermissionDeniedError, family: 'permission', condition: 'model_not_permitted', firstCheck: 'permission' },
  { name: 'ours: path', status: 404, body: ours('not_found'), cls: NotFoundError, family: 'not_found', condition: 'not_found', firstCheck: 'address' },
  { name: 'ours: model', status: 404, body: ours('model_not_found'), cls: NotFoundError, family: 'not_found', condition: 'model_not_found', firstCheck: 'model' },
  { name: 'ours: too large', status: 413, body: ours('request_too_large'), cls: BadRequestError, family: 'payload_too_large', condition: 'request_too_large' },
  { name: 'ours: rate', status: 429, body: ours('rate_limited'), cls: RateLimitError, family: 'rate_limit', condition: 'rate_limited', firstCheck: 'logs' },
  { name: 'ours: upstream', status: 502, body: ours('upstream_error'), cls: ServerError, family: 'server', condition: 'upstream_error' },
  // OpenAI.
  { name: 'openai: bad key', status: 401, body: { error: { message: 'Incorrect API key provided: sk-abc***. You can find your API key at https://platform.openai.com/account/api-keys.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } }, cls: AuthenticationError, family: 'authentication', condition: 'invalid_api_key' },
  { name: 'openai: model', status: 404, body: { error: { message: 'The model `gpt-9` does not exist or you do not have access to it.', type: 'invalid_request_error', param: null, code: 'model_not_found' } }, cls: NotFoundError, family: 'not_found', condition: 'model_not_found', firstCheck: 'model' },
  { name: 'openai: quota on 429', status: 429, body: { error: { message: 'You exceeded your current quota, please check your plan and billing details.', type: 'insufficient_quota', param: null, code: 'insufficient_quota' } }, cls: PermissionDeniedError, family: 'permission', condition: 'insufficient_balance', firstCheck: 'balance', code: 'insufficient_quota' },
  { name: 'openai: rate', status: 429, body: { error: { message: 'Rate limit reached for gpt-4o in organization org-x on requests per min (RPM): Limit 3, Used 3.', type: 'requests', param: null, code: 'rate_limit_exceeded' } }, cls: RateLimitError, family: 'rate_limit', condition: 'rate_limited' },
  { name: 'openai: context', status: 400, body: { error: { message: "This model's maximum context length is 8192 tokens.", type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } }, cls: BadRequestError, family: 'bad_request', condition: null },
  { name: 'openai: bad URL', status: 404, body: { error: { message: 'Invalid URL (POST /v1/v1/chat/completions)', type: 'invalid_request_error', param: null, code: null } }, cls: NotFoundError, family: 'not_found', condition: null, firstCheck: 'address' },
  { name: 'openai: server', status: 500, body: { error: { message: 'The server had an error while processing your request.', type: 'server_error', param: null, code: null } }, cls: ServerError, family: 'server', condition: null },
  // one-api.
  { name: 'one-api: invalid token', status: 401, body: oneApi('无效的令牌 (request id: 2025010112000012345678)'), cls: AuthenticationError, family: 'authentication', condition: 'invalid_api_key', firstCheck: 'key' },
  { name: 'one-api: no token', status: 401, body: oneApi('未提供令牌'), cls: AuthenticationError, family: 'authentication', condition: 'missing_api_key' },
  { name: 'one-api: expired on 401', status: 401, body: oneApi('该令牌已过期'), cls: PermissionDeniedError, family: 'permission', condition: 'key_expired', firstCheck: 'permission' },
  { name: 'one-api: exhausted on 401', status: 401, body: oneApi('该令牌额度已用尽'), cls: PermissionDeniedError, family: 'permission', condition: 'insufficient_balance', firstCheck: 'balance' },
  { name: 'one-api: disabled', status: 401, body: oneApi('该令牌状态不可用'), cls: PermissionDeniedError, family: 'permission', condition: 'key_disabled' },
  { name: 'one-api: banned', status: 403, body: oneApi('用户已被封禁'), cls: PermissionDeniedError, family: 'permission', condition: 'key_disabled' },
  { name: 'one-api: no channel on 503', status: 503, body: oneApi('当前分组 default 下对于模型 gpt-4o-mini 无可用渠道'), cls: NotFoundError, family: 'not_found', condition: 'model_not_found', firstCheck: 'model' },
  { name: 'one-api: model permission', status: 403, body: oneApi('该令牌无权使用模型：gpt-4o'), cls: PermissionDeniedError, family: 'permission', condition: 'model_not_permitted', firstCheck: 'permission' },
  { name: 'one-api: balance', status: 403, body: oneApi('用户额度不足'), cls: PermissionDeniedError, family: 'permission', condition: 'insufficient_balance' },
  { name: 'one-api: unknown 500', status: 500, body: oneApi('do request failed: dial tcp: i/o timeout'), cls: ServerError, family: 'server', condition: null },
  // new-api.
  { name: 'new-api: quota code', status: 403, body: newApi('用户额度不足, 剩余额度: ＄0.000000', 'insufficient_user_quota'), cls: PermissionDeniedError, family: 'permission', condition: 'insufficient_balance', code: 'insufficient_user_quota' },
  { name: 'new-api: model missing', status: 400, body: newApi('模型 gpt-9 不存在'), cls: NotFoundError, family: 'not_found', condition: 'model_not_found' },
  { name: 'new-api: no channel', status: 503, body: newApi('当前分组 vip 下对于模型 claude-x 无可用渠道', 'model_not_found'), cls: NotFoundError, family: 'not_found', condition: 'model_not_found' },
  { name: 'new-api: saturated', status: 429, body: newApi('当前分组上游负载已饱和，请稍后再试'), cls: RateLimitError, family: 'rate_limit', condition: 'upstream_rate_limited' },
  { name: 'new-api: request limit', status: 429, body: newApi('您已达到请求数限制：1分钟内最多请求60次'), cls: RateLimitError, family: 'rate_limit', condition: 'rate_limited' },
  { name: 'new-api: token disabled', status: 401, body: newApi('令牌已被禁用'), cls: PermissionDeniedError, family: 'permission', condition: 'key_disabled' },
  // Errors sent with HTTP 200.
  { name: '200: invalid token', status: 200, body: oneApi('无效的令牌'), cls: AuthenticationError, family: 'authentication', condition: 'invalid_api_key', firstCheck: 'key' },
  { name: '200: billing quota', status: 200, body: { error: { message: '余额不足', type: 'upstream_error' } }, cls: PermissionDeniedError, family: 'permission', condition: 'insufficient_balance', firstCheck: 'balance' },
  { name: '200: unknown', status: 200, body: { error: { message: 'record not found', type: 'upstream_error' } }, cls: ServerError, family: 'server', condition: null },
  { name: '200: string error', status: 200, body: { error: 'token expired' }, cls: PermissionDeniedError, family: 'permission', condition: 'key_expired' },
  { name: '200: status in code', status: 200, body: { error: { message: 'slow down', type: 'x_error', code: 429 } }, cls: RateLimitError, family: 'rate_limit', condition: null },
  { name: '200: typed', status: 200, body: { error: { message: 'nope', type: 'authentication_error' } }, cls: AuthenticationError, family: 'authentication', condition: null },
  // Not JSON at all.
  { name: 'gin 404 text', status: 404, body: '404 page not found', cls: NotFoundError, family: 'not_found', condition: null, firstCheck: 'address' },
  { name: 'fastapi 404', status: 404, body: { detail: 'Not Found' }, cls: NotFoundError, family: 'not_found', condition: null, firstCheck: 'address' },
  { name: 'nginx 502', status: 502, body: null, cls: ServerError, family: 'server', condition: null },
];

describe('client errorFromResponse', () => {
  for (const row of TABLE) {
    it(`${row.name} -> ${row.cls.name} (${row.family})`, () => {
      const error = errorFromResponse(row.status, row.body, { 'x-request-id': 'req-1' });
      assert.ok(error instanceof row.cls, `got ${error.name}`);
      assert.ok(error instanceof GatewayError);
      assert.equal(error.family, row.family);
      assert.equal(error.condition, row.condition);
      assert.equal(error.status, row.status);
      assert.equal(error.requestId, 'req-1');
      assert.equal(error.action, STATUS_FAMILIES[row.family].action);
      assert.ok(error.meaning.startsWith(STATUS_FAMILIES[row.family].meaning));
      if (row.firstCheck) assert.equal(error.firstCheck, row.firstCheck);
      if (row.code !== undefined) assert.equal(error.code, row.code);
      if (typeof row.body === 'object' && row.body !== null) assert.notEqual(error.gatewayMessage, null);
    });
  }

  it('takes the request id from a new-api message when no header carries it', () => {
    const error = errorFromResponse(401, oneApi('无效的令牌 (request id: 2025010112000012345678)'));
    assert.equal(error.requestId, '2025010112000012345678');
    assert.equal(error.type, 'one_api_error');
  });

  it('reads the wait from Retry-After', () => {
    const error = errorFromResponse(429, ours('rate_limited'), { 'retry-after': '2' });
    assert.equal(error.retryAfterMs, 2000);
  });

  it('recognises every example of the phrase table as its own condition', () => {
    for (const phrase of ERROR_PHRASES) assert.equal(conditionOf(null, phrase.example), phrase.condition, phrase.example);
  });
});
