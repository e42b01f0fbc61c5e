// GET /v1/dashboard/billing/daily: what a key spent on each of the last days, for the editor's Usage view.
import assert from 'node:assert/strict';
import { createKey } from '../../../src/gateway/admin.ts';
import { assertError } from '../../support/answer.ts';
import { call, chatBody, logOfRequest, startTestGateway, type Started } from './helpers.ts';

interface Day {
  readonly date: string;
  readonly cost_usd: number;
  readonly cost_micro_usd: number;
  readonly requests: number;
}

const localDate = (offsetMinutes: number) => new Date(Date.now() + offsetMinutes * 60_000).toISOString().slice(0, 10);

describe('GET /v1/dashboard/billing/daily', () => {
  let t: Started;
  let charged = 0;

  before(async () => {
    t = await startTestGateway();
    for (const content of ['one', 'two, a little longer']) {
      const answer = await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: chatBody('echo', content) });
      assert.equal(answer.status, 200, answer.text);
      charged += (await logOfRequest(t.admin(), answer.headers.get('x-request-id'))).cost;
    }
    assert.ok(charged > 0, 'echo charges something');
  });

  after(async () => t?.close());

  it('lists every day of the window, oldest first, today holding this key\'s requests and their exact charge', async () => {
    const answer = await call(t.gw, 'GET', '/v1/dashboard/billing/daily?days=3', { key: t.key });
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.json.object, 'billing_daily');
    assert.equal(answer.json.complete, true);
    const days = answer.json.data as Day[];
    assert.equal(days.length, 3);
    assert.deepEqual(days.map((d) => d.date), [...days.map((d) => d.date)].sort());
    const today = days.at(-1)!;
    assert.equal(today.date, localDate(0));
    assert.equal(today.requests, 2);
    assert.equal(today.cost_micro_usd, charged);
    assert.equal(today.cost_usd, charged / 1e6);
    assert.deepEqual(days.slice(0, 2).map((d) => [d.requests, d.cost_micro_usd]), [[0, 0], [0, 0]]);
  });

  it('adds up to what the billing usage endpoint says was spent', async () => {
    const daily = await call(t.gw, 'GET', '/v1/dashboard/billing/daily', { key: t.key });
    const usage = await call(t.gw, 'GET', '/v1/dashboard/billing/usage', { key: t.key });
    const days = daily.json.data as Day[];
    assert.equal(days.length, 31, 'default window');
    assert.equal(days.reduce((sum, d) => sum + d.cost_micro_usd, 0), Math.round(usage.json.total_usage * 10_000));
  });

  it('is not itself counted as a request', async () => {
    await call(t.gw, 'GET', '/v1/dashboard/billing/daily?days=1', { key: t.key });
    const again = await call(t.gw, 'GET', '/v1/dashboard/billing/daily?days=1', { key: t.key });
    assert.equal((again.json.data as Day[])[0]!.requests, 2);
  });

  it('counts days in the client\'s time zone', async () => {
    for (const offset of [-600, 480, 840]) {
      const answer = await call(t.gw, 'GET', `/v1/dashboard/billing/daily?days=2&utc_offset_minutes=${offset}`, { key: t.key });
      assert.equal(answer.json.utc_offset_minutes, offset);
      const days = answer.json.data as Day[];
      assert.equal(days.at(-1)!.date, localDate(offset), `offset ${offset}`);
      assert.equal(days.reduce((sum, d) => sum + d.requests, 0), 2, `offset ${offset}: the requests of the last hours fall in these two days`);
    }
  });

  it('shows a key only its own spending', async () => {
    const admin = t.admin();
    await admin.createAccount('other', 5_000_000);
    const other = await createKey(admin, { account: 'other', name: 'other-key' });
    const answer = await call(t.gw, 'GET', '/v1/dashboard/billing/daily?days=2', { key: other.secret });
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual((answer.json.data as Day[]).map((d) => d.requests), [0, 0]);
  });

  it('refuses a missing key and bad parameters with the contract\'s codes', async () => {
    assertError(await call(t.gw, 'GET', '/v1/dashboard/billing/daily'), 401, 'missing_api_key');
    for (const query of ['days=0', 'days=93', 'days=x', 'utc_offset_minutes=900', 'utc_offset_minutes=1.5']) {
      assertError(await call(t.gw, 'GET', `/v1/dashboard/billing/daily?${query}`, { key: t.key }), 400, 'invalid_request');
    }
  });
});
