import assert from 'node:assert/strict';
import { AuthenticationError, ConnectionError, NotFoundError, PermissionDeniedError, TimeoutError, errorFromResponse } from '../../../src/client/index.ts';
import { TROUBLESHOOTING_STEPS } from '../../../src/contract/index.ts';
import { explainError, explanationMarkdown, fixesFor, troubleshootingOrder } from '../../../src/extension/errors/explain.ts';
import { NotConfiguredError } from '../../../src/extension/errors/notConfigured.ts';
import type { Translate } from '../../../src/extension/translate.ts';

const commands = (e: { fixes: readonly { command: string }[] }) => e.fixes.map((f) => f.command);

describe('extension explainError', () => {
  it('a 403 offers the fix its condition asks for: another model for a model the key may not use, another key for a disabled or expired one', () => {
    const refusal = (condition: 'model_not_permitted' | 'key_disabled' | 'key_expired' | 'insufficient_balance') => explainError(new PermissionDeniedError({ status: 403, code: condition, condition }));
    assert.deepEqual(commands(refusal('model_not_permitted')), ['modelGateway.pickModel', 'modelGateway.openConsole', 'modelGateway.runSelfTest']);
    assert.deepEqual(commands(refusal('key_disabled')), ['modelGateway.setApiKey', 'modelGateway.openConsole', 'modelGateway.runSelfTest']);
    assert.deepEqual(commands(refusal('key_expired')), ['modelGateway.setApiKey', 'modelGateway.openConsole', 'modelGateway.runSelfTest']);
    assert.deepEqual(commands(refusal('insufficient_balance')), ['modelGateway.openConsole', 'modelGateway.runSelfTest']);
  });

  it('a timeout: its action is to raise the timeout setting, so its first button opens that setting', () => {
    const e = explainError(new TimeoutError({ detail: 'no answer within 120 s' }));
    assert.match(e.action, /timeout setting/);
    assert.equal(e.fixes[0]?.command, 'workbench.action.openSettings');
    assert.deepEqual(e.fixes[0]?.args, ['modelGateway.requestTimeoutSeconds']);
    assert.ok(e.fixes.some((f) => f.args?.[0] === 'modelGateway.baseUrl'), 'the address is still offered');
  });

  it('explains a 401 from the gateway: key first, Set API Key, the gateway message and request id', () => {
    const error = errorFromResponse(401, { error: { message: 'Invalid token: nope', type: 'model_gateway_error', code: 'invalid_api_key' } }, { 'x-request-id': 'abc' });
    const e = explainError(error);
    assert.equal(e.kind, 'authentication');
    assert.equal(e.status, 401);
    assert.equal(e.firstCheck, 'key');
    assert.equal(e.gatewayMessage, 'Invalid token: nope');
    assert.equal(e.requestId, 'abc');
    assert.deepEqual(commands(e), ['modelGateway.setApiKey', 'modelGateway.openConsole', 'modelGateway.runSelfTest']);
    assert.equal(e.steps[0]?.id, 'key');
    assert.equal(e.steps.length, TROUBLESHOOTING_STEPS.length);
  });

  it('explains one-api style Chinese messages and billing refusals', () => {
    const e = explainError(errorFromResponse(401, { error: { message: '无效的令牌', type: 'one_api_error' } }));
    assert.equal(e.kind, 'authentication');
    const balance = explainError(new PermissionDeniedError({ status: 403, condition: 'insufficient_balance', code: 'insufficient_balance' }));
    assert.equal(balance.firstCheck, 'balance');
    assert.deepEqual(commands(balance), ['modelGateway.openConsole', 'modelGateway.runSelfTest']);
  });

  it('maps each first check to its fix buttons, always ending with Run Self-Test', () => {
    assert.deepEqual(commands({ fixes: fixesFor('address') }), ['workbench.action.openSettings', 'modelGateway.runSelfTest']);
    assert.deepEqual(fixesFor('address')[0]?.args, ['modelGateway.baseUrl']);
    assert.deepEqual(commands({ fixes: fixesFor('model') }), ['modelGateway.pickModel', 'modelGateway.runSelfTest']);
    assert.deepEqual(commands({ fixes: fixesFor('permission') }), ['modelGateway.openConsole', 'modelGateway.runSelfTest']);
    for (const step of TROUBLESHOOTING_STEPS) assert.equal(fixesFor(step.id).at(-1)?.command, 'modelGateway.runSelfTest');
  });

  it('orders the 7.3 steps starting at the first check, then the rest in contract order', () => {
    assert.deepEqual(troubleshootingOrder('balance').map((s) => s.id), ['balance', 'address', 'key', 'model', 'permission', 'logs', 'restart']);
    assert.deepEqual(troubleshootingOrder('balance').map((s) => s.number), [3, 1, 2, 4, 5, 6, 7]);
  });

  it('explains a model not found (404) at the model name, and a connection failure at the address', () => {
    const model = explainError(new NotFoundError({ status: 404, condition: 'model_not_found', code: 'model_not_found' }));
    assert.equal(model.firstCheck, 'model');
    assert.ok(commands(model).includes('modelGateway.pickModel'));
    const offline = explainError(new ConnectionError({ detail: 'ECONNREFUSED' }));
    assert.equal(offline.kind, 'connection');
    assert.equal(offline.firstCheck, 'address');
    assert.equal(offline.retryable, true);
  });

  it('explains a missing configuration with the commands that fix it', () => {
    const both = explainError(new NotConfiguredError(['baseUrl', 'apiKey']));
    assert.equal(both.kind, 'not_configured');
    assert.deepEqual(commands(both), ['modelGateway.setBaseUrl', 'modelGateway.startLocalGateway', 'modelGateway.setApiKey']);
    const key = explainError(new NotConfiguredError(['apiKey']));
    assert.equal(key.firstCheck, 'key');
    assert.deepEqual(commands(key), ['modelGateway.setApiKey']);
  });

  it('explains anything else without throwing, and scrubs keys from every text', () => {
    const e = explainError(new Error('boom sk-abcdefgh12345678'), undefined, []);
    assert.equal(e.kind, 'unknown');
    assert.ok(!e.meaning.includes('abcdefgh'));
    const secret = 'plain-secret-value';
    const auth = explainError(new AuthenticationError({ status: 401, gatewayMessage: `bad key ${secret}` }), undefined, [secret]);
    assert.ok(!JSON.stringify(auth).includes(secret));
    assert.equal(explainError('text').kind, 'unknown');
    assert.equal(explainError(undefined).kind, 'unknown');
  });

  it('translates through the given function and renders Markdown with the first check marked', () => {
    const t: Translate = (m, ...args) => `«${m.replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i)]))}»`;
    const e = explainError(new AuthenticationError({ status: 401, gatewayMessage: 'Invalid token' }), t);
    assert.ok(e.title.startsWith('«'));
    assert.ok(e.fixes.every((f) => f.label.startsWith('«')));
    const md = explanationMarkdown(explainError(new AuthenticationError({ status: 401, gatewayMessage: 'Invalid *token*' })));
    assert.match(md, /\*\*Authentication failed \(401\)\*\*/);
    assert.match(md, /Invalid \\\*token\\\*/);
    assert.match(md, /1\. \*\*Check the API key.*\(check this first\)/);
  });
});
