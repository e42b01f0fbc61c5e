// The benchmark's c=50 verdict: rounds in opposite orders are paired, so the order's own effect cancels.
import assert from 'node:assert/strict';
import { pairedRatios, roundRatio } from '../../bench/report.ts';
import type { Results } from '../../bench/report.ts';

const withRounds = (rounds: Record<string, number>[]): Results => ({ rounds: { ns50: rounds } }) as unknown as Results;

describe('bench report: paired rounds', () => {
  it('takes the geometric mean of each two rounds, a last odd round alone', () => {
    assert.deepEqual(pairedRatios([0.5, 2, 0.9]).map((x) => +x.toFixed(6)), [1, 0.9]);
  });

  it("cancels the order's effect: alternating 59%/79% rounds read as about 68%, not a coin flip between them", () => {
    const rounds = [0.594, 0.792, 0.548, 0.852, 0.588, 0.812, 0.619, 0.775].map((r) => ({ gateway: r * 10_000, floor: 10_000 }));
    const ratio = roundRatio(withRounds(rounds), 'ns50', 'floor')!;
    assert.ok(ratio > 0.68 && ratio < 0.695, String(ratio));
  });

  it('has no ratio without rounds that measured both targets', () => {
    assert.equal(roundRatio(withRounds([{ gateway: 1 }]), 'ns50', 'floor'), null);
  });
});
