import assert from 'node:assert/strict';
import { planEcho, tokenize } from '../../../src/gateway/relay/echoModel.ts';

const body = (content: unknown, extra: object = {}) => ({ model: 'e', messages: [{ role: 'user', content }], ...extra }) as never;

describe('echo model', () => {
  it('tokenizes into word-sized tokens that join back into the text', () => {
    assert.deepEqual(tokenize('You said:  hi there'), ['You', ' said:', '  hi', ' there']);
    assert.deepEqual(tokenize('   '), []);
  });

  it('repeats the last user message, text parts included', () => {
    const plan = planEcho(body([{ type: 'text', text: 'look' }, { type: 'image_url', image_url: {} }]), null);
    assert.equal(plan.tokens.map((t) => t.text).join(''), 'You said: look');
    assert.equal(plan.promptTokens, 2);
    assert.equal(planEcho(body(''), null).tokens.map((t) => t.text).join(''), 'You said nothing.');
  });

  it('caps at the smallest of the account cap and the client limits', () => {
    assert.equal(planEcho(body('a b c d', { max_tokens: 4 }), 3).tokens.length, 3);
    const plan = planEcho(body('a b c d', { max_completion_tokens: 2 }), 3);
    assert.equal(plan.tokens.length, 2);
    assert.equal(plan.finishReason, 'length');
    assert.equal(planEcho(body('a'), 3).finishReason, 'stop');
  });

  it('reasons first when the message says think', () => {
    const plan = planEcho(body('Please THINK hard'), null);
    assert.equal(plan.tokens[0]!.kind, 'reasoning');
    assert.equal(plan.tokens.at(-1)!.kind, 'content');
    assert.ok(planEcho(body('no reasoning here'), null).tokens.every((t) => t.kind === 'content'));
  });
});
