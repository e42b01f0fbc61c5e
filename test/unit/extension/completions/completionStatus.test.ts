import assert from 'node:assert/strict';
import { AuthenticationError, RateLimitError } from '../../../../src/client/index.ts';
import { explainError } from '../../../../src/extension/errors/explain.ts';
import { FailureNotices, statusView } from '../../../../src/extension/completions/completionStatus.ts';

describe('completion status', () => {
  const unauthorized = () => explainError(new AuthenticationError({ status: 401, code: 'invalid_api_key', gatewayMessage: 'Invalid token: the API key is wrong' }));

  it('a 401 is notified once, however many keystrokes fail with it; again after a reset', () => {
    const notices = new FailureNotices();
    assert.equal(notices.shouldNotify(unauthorized()), true);
    for (let i = 0; i < 5; i++) assert.equal(notices.shouldNotify(unauthorized()), false);
    assert.equal(notices.shouldNotify(explainError(new RateLimitError({ status: 429 }))), true, 'another problem is news');
    notices.reset();
    assert.equal(notices.shouldNotify(unauthorized()), true);
  });

  it('failing shows the contract diagnosis and what the gateway said in the tooltip', () => {
    const view = statusView({ kind: 'failing', model: 'coder', explanation: unauthorized() });
    assert.match(view.text, /warning/);
    assert.ok(view.tooltip.includes('coder'));
    assert.ok(view.tooltip.includes(unauthorized().title));
    assert.ok(view.tooltip.includes(unauthorized().action));
    assert.ok(view.tooltip.includes('Invalid token'));
  });

  it('on and off read differently, and off says why', () => {
    assert.notEqual(statusView({ kind: 'on', model: 'm' }).text, statusView({ kind: 'off', reason: 'switched_off', model: 'm' }).text);
    assert.notEqual(statusView({ kind: 'off', reason: 'excluded', model: 'm' }).tooltip, statusView({ kind: 'off', reason: 'no_model', model: '' }).tooltip);
  });
});
