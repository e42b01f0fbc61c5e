// A signed-in user's keys with limits of their own (issue 10, contract 4.10), over real HTTP: made with a
// spending limit, tokens per minute, requests per day and an IP allow-list; listed with every limit, what
// each key spent in its period and when that resets; changed with POST /api/console/keys/limits (the limits
// given, the others and the secret kept, at once on /v1); refused with 400 invalid_request naming the bad
// value; and the limits route follows the console's rules: a session, same origin, JSON, own keys only.
import assert from 'node:assert/strict';
import { assertError } from '../../support/answer.ts';
import { poll } from '../../support/poll.ts';
import { adaAndBob, consoleAgent, type ConsoleAgent } from './consoleAgent.ts';
import { call, chatBody, startTestGateway, type Started } from './helpers.ts';

describe("console keys' own limits", function () {
  this.timeout(30_000);
  let t: Started;
  let ada: ConsoleAgent;
  let bob: ConsoleAgent;
  before(async () => {
    t = await startTestGateway();
    ({ ada, bob } = await adaAndBob(t.gw, t.admin()));
  });
  after(async () => t.close());

  const chat = (secret: string) => call(t.gw, 'POST', '/v1/chat/completions', { key: secret, body: chatBody('echo', 'hi') });

  it('makes a key with every limit; the list shows them, the spending of the period and its reset; the key is held to them on /v1', async () => {
    const made = await ada.post('/api/console/keys', {
      name: 'capped', spend_limit_usd: '0.001', spend_period: 'month', tpm: 100_000, rpd: 50, allow_ips: ['127.0.0.1', '2001:db8::/32'],
    });
    assert.equal(made.status, 201, made.text);
    const { key, secret } = made.json;
    assert.deepEqual(
      [key.spend_limit, key.spend_period, key.tpm, key.rpd, key.allow_ips, key.spent],
      [{ micro_usd: 1000, usd: '0.001' }, 'month', 100_000, 50, ['127.0.0.1', '2001:db8::/32'], { micro_usd: 0, usd: '0.00' }],
    );
    const now = new Date();
    assert.equal(key.resets_at, new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString());

    const answer = await chat(secret);
    assert.equal(answer.status, 200, answer.text);
    const cost = Math.round(Number(answer.headers.get('x-gateway-cost')) * 1e6);
    const listed = await poll('the charge listed', async () => {
      const k = (await ada.get('/api/console/keys')).json.data.find((x: { name: string }) => x.name === 'capped');
      return k.spent.micro_usd > 0 ? k : undefined;
    }, 2000, 20);
    assert.equal(listed.spent.micro_usd, cost);
    // Spend the rest of the month's $0.001: refused once what is left cannot pay for a minimal request.
    let refusal = await chat(secret);
    for (let i = 0; i < 100 && refusal.status === 200; i++) refusal = await chat(secret);
    assertError(refusal, 403, 'key_spend_limit_reached');
    assert.match(refusal.json.error.message, /Its limit is \$0\.001 per UTC month; .*The limit resets at \d{4}-\d{2}-01T00:00:00\.000Z\./);
    const spent = await poll('every charge listed', async () => {
      await ada.get('/api/console/keys');
      const rows = (await t.admin().listLogs(1000)).filter((l) => l.keyName === 'capped');
      const k = (await ada.get('/api/console/keys')).json.data.find((x: { name: string }) => x.name === 'capped');
      return rows.length > 0 && k.spent.micro_usd === rows.reduce((sum, l) => sum + l.cost, 0) ? k.spent.micro_usd : undefined;
    }, 2000, 20);
    assert.ok(spent <= 1000 && spent > 1000 - 400, `spent ${spent} of 1000, the rest too little for a minimal request`);
  });

  it('changes the limits given and keeps the others, the secret and the settings; /v1 follows at once', async () => {
    const made = await ada.post('/api/console/keys', { name: 'editable', models: ['echo'], rpm: 40, concurrency: 4, tpm: 2000 });
    const { key, secret } = made.json;
    const changed = await ada.post('/api/console/keys/limits', { id: key.id, allow_ips: ['127.0.0.2'], spend_limit_usd: 5, rpd: 9 });
    assert.equal(changed.status, 200, changed.text);
    assert.deepEqual(
      { ...changed.json.key, spent: null },
      { ...key, allow_ips: ['127.0.0.2'], spend_limit: { micro_usd: 5_000_000, usd: '5.00' }, rpd: 9, spent: null },
      'only the three given changed (a JSON number of dollars taken exactly)',
    );
    const refused = await chat(secret);
    assertError(refused, 403, 'ip_not_allowed');
    assert.match(refused.json.error.message, /This request came from 127\.0\.0\.1\./);
    const cleared = await ada.post('/api/console/keys/limits', { id: key.id, allow_ips: null, spend_limit_usd: null, rpd: 0 });
    assert.deepEqual([cleared.json.key.allow_ips, cleared.json.key.spend_limit, cleared.json.key.rpd, cleared.json.key.tpm], [null, null, 0, 2000]);
    assert.equal((await chat(secret)).status, 200);
  });

  it('refuses bad limits with 400 invalid_request naming the problem, and changes nothing', async () => {
    const key = (await ada.get('/api/console/keys')).json.data.find((k: { name: string }) => k.name === 'editable');
    for (const [body, message] of [
      [{ allow_ips: ['10.1.2.3/8'] }, /"10\.1\.2\.3\/8" has bits set after its first 8: the range is written with its first address, 10\.0\.0\.0\/8\./],
      [{ allow_ips: ['example.com'] }, /"example\.com" is not an IPv4 or IPv6 address or CIDR range/],
      [{ allow_ips: [] }, /allow_ips/],
      [{ allow_ips: new Array(101).fill('1.2.3.4') }, /allow_ips/],
      [{ spend_limit_usd: '1.0000001' }, /spending limit: "1\.0000001" has more than 6 decimals/],
      [{ spend_limit_usd: '-1' }, /spending limit: not an amount in USD/],
      [{ spend_limit_usd: 0 }, /spending limit: must be at least/],
      [{ spend_period: 'week' }, /spend_period/],
      [{ tpm: -1 }, /tpm/],
      [{ rpd: 1.5 }, /rpd/],
      [{ unknown: 1 }, /Unrecognized key/],
    ] as const) {
      const answer = await ada.post('/api/console/keys/limits', { id: key.id, ...body });
      assertError(answer, 400, 'invalid_request');
      assert.match(answer.json.error.message, message, JSON.stringify(body).slice(0, 60));
      assertError(await ada.post('/api/console/keys', { name: 'never-made', ...body }), 400, 'invalid_request');
    }
    const after = (await ada.get('/api/console/keys')).json.data;
    assert.deepEqual(after.find((k: { name: string }) => k.name === 'editable'), key);
    assert.ok(!after.some((k: { name: string }) => k.name === 'never-made'));
  });

  it("the limits route: a session, the console's origin and JSON; another account's key is 404 and untouched", async () => {
    const key = (await ada.get('/api/console/keys')).json.data.find((k: { name: string }) => k.name === 'editable');
    assertError(await bob.post('/api/console/keys/limits', { id: key.id, rpd: 1 }), 404, 'key_not_found');
    assertError(await consoleAgent(t.gw).post('/api/console/keys/limits', { id: key.id, rpd: 1 }), 401, 'not_signed_in');
    assertError(await ada.post('/api/console/keys/limits', { id: key.id, rpd: 1 }, { origin: 'http://evil.example' }), 403, 'cross_site_request');
    assertError(await ada.post('/api/console/keys/limits', `{"id":${key.id},"rpd":1}`, { 'content-type': 'text/plain' }), 415, 'json_required');
    assert.deepEqual((await ada.get('/api/console/keys')).json.data.find((k: { name: string }) => k.name === 'editable'), key);
  });

  it('rotation keeps every limit', async () => {
    const key = (await ada.get('/api/console/keys')).json.data.find((k: { name: string }) => k.name === 'capped');
    const rotated = await ada.post('/api/console/keys/rotate', { id: key.id });
    assert.deepEqual({ ...rotated.json.key, prefix: null }, { ...key, prefix: null });
    assertError(await chat(rotated.json.secret), 403, 'key_spend_limit_reached');
  });
});
