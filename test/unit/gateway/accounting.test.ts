import assert from 'node:assert/strict';
import { DEFAULT_COMPLETION_CAP, Ledger, MAX_COMPLETION_CAP, MIN_COMPLETION_TOKENS, planReservation } from '../../../src/gateway/accounts/ledger.ts';
import { costOf } from '../../../src/gateway/accounts/money.ts';
import { MIN_THINKING_BUDGET } from '../../../src/contract/index.ts';
import { MESSAGES } from '../../../src/gateway/routes/endpoints.ts';
import type { ModelRecord } from '../../../src/gateway/store/types.ts';

const echo: ModelRecord = { name: 'echo', kind: 'chat', inputPrice: 2_000_000, outputPrice: 8_000_000, imagePrice: null, contextLength: null, toolCalling: null };
const free: ModelRecord = { name: 'free', kind: 'chat', inputPrice: 0, outputPrice: 0, imagePrice: null, contextLength: null, toolCalling: null };

describe('accounting: reservation plans', () => {
  it('reserves the worst case at the default cap when the balance allows', () => {
    const plan = planReservation(10_000_000, 100, null, echo)!;
    assert.equal(plan.maxCompletionTokens, DEFAULT_COMPLETION_CAP);
    assert.equal(plan.amount, costOf(100, DEFAULT_COMPLETION_CAP, echo.inputPrice, echo.outputPrice));
  });

  it('keeps the client cap when affordable, lowers it when not', () => {
    assert.equal(planReservation(10_000_000, 100, 50, echo)!.maxCompletionTokens, 50);
    const low = planReservation(1_000, 100, null, echo)!;
    assert.equal(low.maxCompletionTokens, 100);
    assert.ok(low.amount <= 1_000);
  });

  it('never sets a cap above MAX_COMPLETION_CAP, however much a cheap model and a large balance afford', () => {
    const cheap: ModelRecord = { ...echo, inputPrice: 1, outputPrice: 1 };
    const plan = planReservation(1_000_000_000_000, 100, 1e15, cheap)!;
    assert.equal(plan.maxCompletionTokens, MAX_COMPLETION_CAP);
    assert.equal(plan.amount, costOf(100, MAX_COMPLETION_CAP, 1, 1));
    assert.ok(MAX_COMPLETION_CAP < 2 ** 31, 'it fits PostgreSQL\'s integer column');
  });

  it('reserves the prompt at the dearest input price: a cache write may cost more than plain input', () => {
    const cached: ModelRecord = { ...echo, cachedInputPrice: 200_000, cacheWritePrice: 2_500_000 };
    const plan = planReservation(10_000_000, 100, 50, cached)!;
    assert.equal(plan.amount, costOf(100, 50, 2_500_000, echo.outputPrice));
    assert.equal(planReservation(10_000_000, 100, 50, { ...echo, cachedInputPrice: 200_000 })!.amount, costOf(100, 50, echo.inputPrice, echo.outputPrice));
  });

  it('a Messages request that thinks is refused when the balance cannot pay for more than the least thinking budget', () => {
    const body = (thinking: object | undefined) => ({ model: 'echo', max_tokens: 4000, messages: [{ role: 'user' as const, content: 'x' }], ...(thinking ? { thinking } : {}) });
    const budgetPlusOne = costOf(100, MIN_THINKING_BUDGET + 1, echo.inputPrice, echo.outputPrice);
    const thinking = { type: 'enabled', budget_tokens: 2000 };
    assert.equal(MESSAGES.plan(budgetPlusOne - 1, 100 - 20, body(thinking), echo), null);
    assert.equal(MESSAGES.plan(budgetPlusOne, 100 - 20, body(thinking), echo)!.maxCompletionTokens, MIN_THINKING_BUDGET + 1);
    assert.equal(MESSAGES.plan(budgetPlusOne - 1, 100 - 20, body(undefined), echo)!.maxCompletionTokens, MIN_THINKING_BUDGET);
  });

  it('refuses when not even a minimal request fits', () => {
    assert.equal(planReservation(100, 100, null, echo), null);
    const justEnough = costOf(100, MIN_COMPLETION_TOKENS, echo.inputPrice, echo.outputPrice);
    assert.ok(planReservation(justEnough, 100, null, echo));
    assert.equal(planReservation(justEnough - 1, 100, null, echo), null);
  });

  it('free models need no cap and no money', () => {
    assert.deepEqual(planReservation(0, 1000, null, free), { amount: 0, maxCompletionTokens: null });
  });

  it("a model's maximum output caps what is asked, the default and the money held; a smaller cap is kept", () => {
    const gpt4o: ModelRecord = { ...echo, maxOutputTokens: 16_384 };
    const plan = planReservation(10_000_000, 100, 32_000, gpt4o)!;
    assert.deepEqual(plan, { amount: costOf(100, 16_384, echo.inputPrice, echo.outputPrice), maxCompletionTokens: 16_384 });
    assert.equal(planReservation(10_000_000, 100, 500, gpt4o)!.maxCompletionTokens, 500);
    assert.equal(planReservation(10_000_000, 100, null, { ...echo, maxOutputTokens: 4096 })!.maxCompletionTokens, 4096, 'the default 8192 too');
    // Enough for 16,384 tokens but not 32,000: served at the model's maximum, not lowered further.
    const enough = costOf(100, 16_384, echo.inputPrice, echo.outputPrice);
    assert.equal(planReservation(enough, 100, 32_000, gpt4o)!.maxCompletionTokens, 16_384);
    assert.equal(planReservation(enough, 100, 32_000, echo)!.maxCompletionTokens, 16_384, 'without it the balance lowers it the same way');
    assert.equal(planReservation(10_000_000, 100, 32_000, { ...echo, maxOutputTokens: null })!.maxCompletionTokens, 32_000, 'none: as before');
  });

  it('a free model with a maximum output is capped at it (no money to size the cap by)', () => {
    const capped: ModelRecord = { ...free, maxOutputTokens: 8192 };
    assert.deepEqual(planReservation(0, 1000, 32_000, capped), { amount: 0, maxCompletionTokens: 8192 });
    assert.deepEqual(planReservation(0, 1000, 100, capped), { amount: 0, maxCompletionTokens: 100 });
    assert.deepEqual(planReservation(0, 1000, null, capped), { amount: 0, maxCompletionTokens: 8192 });
  });
});

describe('accounting: ledger', () => {
  it('available = balance − pending − reserved; settle clamps to the reservation', () => {
    const ledger = new Ledger();
    ledger.load([{ id: 1, name: 'a', balance: 1000, totalSpent: 0, createdAt: 0 }]);
    const held = ledger.reserve(1, () => ({ amount: 600, maxCompletionTokens: 10 }))!;
    assert.equal(ledger.available(1), 400);
    assert.equal(ledger.reserve(1, () => ({ amount: 401, maxCompletionTokens: 10 })), null, 'cannot hold more than available');
    assert.equal(ledger.settle(held.reservation, 5000), 600, 'never more than reserved');
    assert.equal(ledger.settle(held.reservation, 5000), 0, 'settles once');
    assert.equal(ledger.available(1), 400);
    assert.deepEqual(ledger.balances(1), { balance: 400, spent: 600 });
    ledger.written(1, 600);
    assert.equal(ledger.available(1), 400);
    // A reload from the store (which now holds the debit and a top-up) keeps pending/reserved consistent.
    ledger.load([{ id: 1, name: 'a', balance: 900, totalSpent: 600, createdAt: 0 }]);
    assert.equal(ledger.available(1), 900);
  });

  it('an unknown account can reserve nothing', () => {
    assert.equal(new Ledger().reserve(9, () => ({ amount: 0, maxCompletionTokens: null })), null);
  });
});
