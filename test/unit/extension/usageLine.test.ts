import assert from 'node:assert/strict';
import { usageLine } from '../../../src/extension/chat/usageLine.ts';

// The English template filled in, as vscode.l10n.t does.
const t = (message: string, ...args: (string | number)[]) => message.replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i)]));

describe('the usage line under an @gateway answer', () => {
  it('tokens, and the cost when the gateway tells it, exact to the micro-dollar', () => {
    assert.equal(usageLine({ prompt_tokens: 1234, completion_tokens: 56, cost: 0.000123 }, t), '1,234 + 56 tokens · $0.000123');
    assert.equal(usageLine({ prompt_tokens: 7, completion_tokens: 5, cost: 0 }, t), '7 + 5 tokens · $0.00');
  });

  it('tokens only from a gateway that reports no cost (or a cost that is not a number)', () => {
    assert.equal(usageLine({ prompt_tokens: 7, completion_tokens: 5 }, t), '7 + 5 tokens');
    assert.equal(usageLine({ prompt_tokens: 7, completion_tokens: 5, cost: 'free' }, t), '7 + 5 tokens');
  });
});
