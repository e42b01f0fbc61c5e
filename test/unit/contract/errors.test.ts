import assert from 'node:assert/strict';
import {
  anthropicErrorBody,
  cutWithMarker,
  ERROR_CODES,
  errorBody,
  GATEWAY_ERROR_TYPE,
  INVALID_TOKEN_NOTICE,
  STATUS_FAMILIES,
  TROUBLESHOOTING_STEPS,
  familyOfStatus,
  firstCheckFor,
  isErrorCode,
  LOGGED_ONLY_CODES,
  logErrorMessage,
  MAX_ERROR_DETAIL_CHARS,
  quoteClientValue,
} from '../../../src/contract/index.ts';

describe('contract error table', () => {
  it('uses one service-specific type ending in _error (7.1)', () => {
    assert.match(GATEWAY_ERROR_TYPE, /_error$/);
  });

  it('starts every 401 message with the invalid-token notice (7.1)', () => {
    const unauthenticated = Object.values(ERROR_CODES).filter((spec) => spec.status === 401);
    assert.ok(unauthenticated.length >= 4);
    for (const spec of unauthenticated) assert.ok(spec.message.startsWith(INVALID_TOKEN_NOTICE), spec.message);
  });

  it('says "model not found" for an unknown model (7.2)', () => {
    assert.match(ERROR_CODES.model_not_found.message, /model not found/);
    assert.equal(ERROR_CODES.model_not_found.status, 404);
  });

  it('maps each status of 7.2 to its family', () => {
    assert.equal(familyOfStatus(401), 'authentication');
    assert.equal(familyOfStatus(403), 'permission');
    assert.equal(familyOfStatus(404), 'not_found');
    assert.equal(familyOfStatus(429), 'rate_limit');
    for (const status of [500, 502, 503]) assert.equal(familyOfStatus(status), 'server');
    assert.equal(familyOfStatus(400), 'bad_request');
  });

  it('points each family and code at a real step of the 7.3 order', () => {
    const steps = new Set<string>(TROUBLESHOOTING_STEPS.map((step) => step.id));
    for (const family of Object.values(STATUS_FAMILIES)) assert.ok(steps.has(family.firstCheck));
    for (const [code, spec] of Object.entries(ERROR_CODES)) assert.ok(steps.has(firstCheckFor(spec.status, code)), code);
  });

  it('lets a code refine its family: a balance 403 starts at the balance, a permission 403 at permissions', () => {
    assert.equal(firstCheckFor(403, 'insufficient_balance'), 'balance');
    assert.equal(firstCheckFor(403, 'model_not_permitted'), 'permission');
    assert.equal(firstCheckFor(404, 'model_not_found'), 'model');
    assert.equal(firstCheckFor(404), 'address');
    assert.equal(firstCheckFor(401, 'something_else'), 'key');
  });

  it("gives a log row's error code its words: the table's, a logged-only code's, none for another's", () => {
    assert.equal(logErrorMessage('model_not_found'), ERROR_CODES.model_not_found.message);
    assert.equal(logErrorMessage('client_aborted'), LOGGED_ONLY_CODES.client_aborted);
    assert.equal(logErrorMessage('authorization_pending'), null);
    assert.equal(logErrorMessage('toString'), null);
    assert.equal(logErrorMessage(null), null);
    for (const code of Object.keys(LOGGED_ONLY_CODES)) assert.ok(!isErrorCode(code), `${code} is no answer's code`);
  });

  it('recognises only its own codes', () => {
    assert.ok(isErrorCode('invalid_api_key'));
    assert.ok(!isErrorCode('toString'));
    assert.ok(!isErrorCode(42));
  });

  it('cuts a long detail, so that no error message is long, in either shape; a short one is whole', () => {
    const detail = `x: a ${'t'.repeat(2_000_000)} block`;
    for (const message of [errorBody('invalid_request', 'req1', detail).error.message, anthropicErrorBody('invalid_request', 'req1', detail).error.message]) {
      assert.ok(message.length < MAX_ERROR_DETAIL_CHARS + 200, `${message.length} characters`);
      assert.ok(message.includes('…(2000011 characters)'), 'says how long it was');
      assert.ok(message.endsWith('(request id: req1)'), 'the request id still ends it');
    }
    assert.equal(errorBody('invalid_request', 'r', 'short.').error.message, `${ERROR_CODES.invalid_request.message} short. (request id: r)`);
  });

  it('cuts a string to at most its bound, the marker included; quotes a client value cut the same way', () => {
    assert.equal(cutWithMarker('abc', 3), 'abc');
    const cut = cutWithMarker('u'.repeat(5000), 256);
    assert.equal(cut.length, 256);
    assert.ok(cut.endsWith('…(5000 characters)'));
    assert.equal(quoteClientValue('text'), '"text"');
    assert.ok(quoteClientValue('t'.repeat(1000)).length <= 66);
  });
});
