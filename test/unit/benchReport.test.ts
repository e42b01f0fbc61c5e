// The benchmark's c=50 verdict: rounds in opposite orders are paired, so the order's own effect cancels.
// And the event-loop verdicts: p99 under 5 ms on each store that was measured.
import assert from 'node:assert/strict';
import { evaluate, pairedRatios, renderTable, roundRatio } from '../../bench/report.ts';
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

  it('judges the event loop p99 of each store measured, and says nothing of one that was not', () => {
    const delay = (p99: number) => ({ p50: 1, p99, max: 2 * p99 });
    const results = {
      rounds: {}, runs: { ns50: { gateway: { requests: 1, rps: 1 } } }, gatewayCpu: { ns50: { loopDelayMs: delay(4.9) } },
      postgres: { instances: 3, targets: { pg1: { loopDelayMs: delay(5) } }, bookkeeping: null }, hold: null, holdPeakRssBytes: null,
    } as unknown as Results;
    const loops = evaluate(results).filter((v) => v.id.includes('loop-delay'));
    assert.deepEqual(loops.map((v) => [v.id, v.value, v.pass]), [['ns50-loop-delay', 4.9, true], ['pg50-loop-delay-pg1', 5, false]]);
  });

  it("puts the floor's own event loop and three floors against one beside the gateway's rows", () => {
    const delay = (p99: number) => ({ p50: 1, p99, max: 2 * p99 });
    const load = (rps: number) => ({ requests: 100, errors: 0, rps, latency: { p50: 1, p99: 2 }, firstByte: { p50: 1, p99: 2 } });
    const round = { floor: 4_000, floor3: 3_600, gateway: 2_800, pg1: 2_400, pg3: 2_000 };
    const results = {
      when: 'now', mode: 'full', machine: { cpus: 2, cpuModel: 'x', memGiB: 24, node: 'v24', loadavgBefore: [0, 0, 0] }, commit: null, gatewayNote: null,
      rounds: { ns50: [round, round] }, runs: { ns50: Object.fromEntries(Object.entries(round).map(([k, v]) => [k, load(v)])) },
      gatewayCpu: { ns50: { cpuSeconds: 1, requests: 100, rssAfter: 0, peakRssSoFar: null, loopDelayMs: delay(12) } }, floorCpu: {},
      floorLoopDelayMs: { ns50: { floor: delay(9.5), floor3: delay(11.25) } },
      postgres: { instances: 3, targets: { pg1: { instances: 1, cpuSeconds: 1, requests: 100, loopDelayMs: delay(14) }, pg3: { instances: 3, cpuSeconds: 1, requests: 100, loopDelayMs: delay(20) } }, bookkeeping: null },
      gatewayPeakRssBytes: null, hold: null, holdPeakRssBytes: null, bookkeeping: null,
    } as unknown as Results;
    const table = renderTable(results, evaluate(results));
    const row = (label: string) => table.split('\n').find((l) => l.startsWith(label)) ?? '';
    assert.match(row('c=50 event-loop delay p99/max ms, SQLite'), /9\.5 \/ 19\.0\s+12\.0 \/ 24\.0/);
    assert.match(row('  PostgreSQL, 3 instances (worst)'), /11\.3 \/ 22\.5\s+20\.0 \/ 40\.0/);
    assert.match(row('PostgreSQL, 3 instances: c=50 req/s'), /of 1 instance: 83\.3% \(3 floors vs 1: 90\.0%\)/);
    assert.match(table, /3 floor processes vs 1 in each round: 90\.0%, 90\.0%/);
  });
});
