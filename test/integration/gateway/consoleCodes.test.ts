// Redemption codes over real HTTP on a real SQLite file (issue 10, contract 4.10): an admin makes a batch
// (the codes shown once, then listed without them), bad batches are refused with nothing made, users and
// strangers are refused the admin routes; a user redeems a code, credited exactly its value and able to
// spend it at once, and a code works once; unknown, used, expired and disabled codes are one answer;
// wrong codes are throttled per account (from any address) and per address (whatever the account), with
// a growing wait; an admin's batch and disable are in the audit log under their name, a redemption is not;
// and no code ever reaches a request log, the audit log, the database file or a list.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hashRedemptionCode, newRedemptionCode } from '../../../src/gateway/accounts/codes.ts';
import type { Store } from '../../../src/gateway/store/types.ts';
import { assertError, type Answer } from '../../support/answer.ts';
import { consoleAgent, type ConsoleAgent, makeUser, signedInAdmin } from './consoleAgent.ts';
import { call, chatBody, startTestGateway, type Started } from './helpers.ts';

const CODE = /^MGC(-[0-9A-HJKMNP-TV-Z]{4}){5}$/;
const DAY = 24 * 60 * 60 * 1000;

describe('redemption codes over HTTP: admins make them, users redeem them', function () {
  this.timeout(60_000);
  let t: Started;
  let store: Store;
  let now = Date.now();
  let root: ConsoleAgent;
  /** Every code made in this suite: none may be found where codes must never be. */
  const made: string[] = [];

  before(async () => {
    t = await startTestGateway({ clock: () => now });
    store = t.admin();
    root = await signedInAdmin(t.gw, store);
  });
  after(async () => t.close());

  /** A user with $5 on an account of their own, signed in from `localAddress` (127.0.0.1 by default). */
  async function user(name: string, localAddress?: string): Promise<ConsoleAgent> {
    if (!(await store.getAccount(name))) await makeUser(store, name, 5_000_000);
    const agent = consoleAgent(t.gw, localAddress ? { localAddress } : {});
    assert.equal((await agent.signIn(name)).status, 200);
    return agent;
  }

  async function batch(body: Record<string, unknown>): Promise<Array<{ id: number; code: string }>> {
    const answer = await root.post('/api/console/admin/codes', body);
    assert.equal(answer.status, 201, answer.text);
    made.push(...answer.json.codes.map((c: { code: string }) => c.code));
    return answer.json.codes;
  }

  const redeem = (agent: ConsoleAgent, code: string) => agent.post('/api/console/account/redeem', { code });
  const balanceOf = async (account: string) => (await store.getAccount(account))!.balance;
  const withoutRequestId = (a: Answer) => [a.status, a.json.error.code, String(a.json.error.message).replace(/\(request id: [^)]+\)$/, '')];

  it('an admin makes a batch: its codes once (201), then listed without them; users, strangers and other sites are refused', async () => {
    const expires = new Date(now + 30 * DAY).toISOString();
    const answer = await root.post('/api/console/admin/codes', { value_usd: '2.5', count: 3, batch: 'spring', expires_at: expires });
    assert.equal(answer.status, 201, answer.text);
    assert.equal(answer.headers.get('cache-control'), 'no-store');
    assert.deepEqual([answer.json.batch, answer.json.value, answer.json.expires_at], ['spring', { micro_usd: 2_500_000, usd: '2.50' }, expires]);
    const codes: Array<{ id: number; code: string }> = answer.json.codes;
    made.push(...codes.map((c) => c.code));
    assert.equal(codes.length, 3);
    for (const c of codes) assert.match(c.code, CODE);
    assert.equal(new Set(codes.map((c) => c.code)).size, 3);

    const list = await root.get('/api/console/admin/codes?batch=spring');
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(list.json.data.map((c: { id: number }) => c.id), codes.map((c) => c.id).reverse(), 'newest first');
    assert.deepEqual(list.json.data[0], {
      id: codes[2]!.id, batch: 'spring', value: { micro_usd: 2_500_000, usd: '2.50' }, status: 'unused', created_at: list.json.data[0].created_at,
      created_by: 'root', expires_at: expires, redeemed_at: null, redeemed_by: null,
    });
    for (const c of codes) assert.ok(!list.text.includes(c.code) && !list.text.includes(c.code.slice(4)), 'never a code in a list');
    const paged = await root.get('/api/console/admin/codes?batch=spring&limit=2');
    assert.equal(paged.json.next_before, codes[1]!.id);
    assert.deepEqual((await root.get(`/api/console/admin/codes?batch=spring&before=${codes[1]!.id}`)).json.data.map((c: { id: number }) => c.id), [codes[0]!.id]);
    assertError(await root.get('/api/console/admin/codes?status=lost'), 400, 'invalid_request');
    assertError(await root.get('/api/console/admin/codes?code=x'), 400, 'invalid_request');

    const ada = await user('ada');
    assertError(await ada.post('/api/console/admin/codes', { value_usd: '100', count: 1 }), 403, 'admin_required');
    assertError(await ada.get('/api/console/admin/codes'), 403, 'admin_required');
    assertError(await ada.post('/api/console/admin/codes/disable', { batch: 'spring' }), 403, 'admin_required');
    const stranger = consoleAgent(t.gw);
    assertError(await stranger.post('/api/console/admin/codes', { value_usd: '100' }), 401, 'not_signed_in');
    assertError(await stranger.get('/api/console/admin/codes'), 401, 'not_signed_in');
    assertError(await root.post('/api/console/admin/codes', { value_usd: '1' }, { origin: 'https://evil.example' }), 403, 'cross_site_request');
    assertError(await root.post('/api/console/admin/codes', { value_usd: '1' }, { origin: '' }), 403, 'cross_site_request');
    assertError(await root.post('/api/console/admin/codes', 'value_usd=1', { 'content-type': 'application/x-www-form-urlencoded' }), 415, 'json_required');
    assert.equal((await store.listCodes({ now: Date.now(), limit: 100 })).length, 3, 'nothing made by the refusals');
  });

  it('refuses a bad batch with 400 invalid_request, making nothing', async () => {
    const before = (await store.listCodes({ now: Date.now(), limit: 1000 })).length;
    for (const body of [
      { value_usd: '0' }, { value_usd: '-1' }, { value_usd: '1.0000001' }, { value_usd: 'abc' }, { value_usd: '1000000001' }, { value_usd: 0 }, { value_usd: -1 },
      { value_usd: 1e-7 }, { value_usd: '1', count: 0 }, { value_usd: '1', count: 1001 }, { value_usd: '1', count: 1.5 }, { value_usd: '1', batch: 'bad name!' },
      { value_usd: '1', expires_at: new Date(Date.now() - 1000).toISOString() }, { value_usd: '1', expires_at: 'tomorrow' }, { value_usd: '1', codes: ['mine'] }, {},
    ]) {
      assertError(await root.post('/api/console/admin/codes', body), 400, 'invalid_request');
    }
    assert.equal((await store.listCodes({ now: Date.now(), limit: 1000 })).length, before);
  });

  it('a user redeems a code: credited exactly its value, spendable at once on /v1; the code works once', async () => {
    const [code] = await batch({ value_usd: '2.5', count: 1, batch: 'once' });
    const ada = await user('ada');
    const key = (await ada.post('/api/console/keys', { name: 'ada-key' })).json.secret as string;
    const billing = async () => (await call(t.gw, 'GET', '/v1/dashboard/billing/subscription', { key })).json.balance_usd as number;
    assert.equal(await billing(), 5);

    // Typed in lower case with spaces instead of dashes: still the code.
    const answer = await redeem(ada, code!.code.toLowerCase().replace(/-/g, ' '));
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(answer.json, { object: 'console.redemption', account: 'ada', credited: { micro_usd: 2_500_000, usd: '2.50' }, balance: { micro_usd: 7_500_000, usd: '7.50' } });
    assert.equal(await balanceOf('ada'), 7_500_000);
    assert.equal(await billing(), 7.5, 'the request path has the new balance at once');
    assert.equal((await call(t.gw, 'POST', '/v1/chat/completions', { key, body: chatBody() })).status, 200);

    assertError(await redeem(ada, code!.code), 400, 'redemption_code_invalid');
    const bob = await user('bob');
    assertError(await redeem(bob, code!.code), 400, 'redemption_code_invalid');
    assert.equal(await balanceOf('bob'), 5_000_000);
    const [listed] = (await root.get('/api/console/admin/codes?batch=once')).json.data;
    assert.deepEqual([listed.status, listed.redeemed_by], ['used', { account: 'ada', user: 'ada' }]);
    assert.ok(listed.redeemed_at);
  });

  it('unknown, used, expired and disabled codes are one answer: the same status, code and words', async () => {
    const [used, disabled] = await batch({ value_usd: '1', count: 2, batch: 'oracle' });
    const expired = newRedemptionCode();
    made.push(expired);
    // Made expired (the API refuses a past expiry): what a code becomes once its time has passed.
    await store.createCodes([{ hash: hashRedemptionCode(expired), value: 1_000_000, batch: 'oracle', expiresAt: Date.now() - 1, createdBy: null }]);
    const off = await root.post('/api/console/admin/codes/disable', { id: disabled!.id });
    assert.deepEqual(off.json, { object: 'console.codes_disabled', id: disabled!.id, disabled: 1 });
    assertError(await root.post('/api/console/admin/codes/disable', { id: 999_999 }), 404, 'code_not_found');
    assertError(await root.post('/api/console/admin/codes/disable', { batch: 'no-such-batch' }), 404, 'code_not_found');
    const cy = await user('cy');
    assert.equal((await redeem(cy, used!.code)).status, 200);

    const dee = await user('dee');
    const answers = [];
    for (const code of [newRedemptionCode(), used!.code, expired, disabled!.code]) {
      const answer = await redeem(dee, code);
      assertError(answer, 400, 'redemption_code_invalid');
      answers.push(withoutRequestId(answer));
    }
    assert.equal(new Set(answers.map((a) => JSON.stringify(a))).size, 1, `one answer for all: ${JSON.stringify(answers)}`);
    assert.equal(await balanceOf('dee'), 5_000_000);
    const statuses = (await root.get('/api/console/admin/codes?batch=oracle')).json.data.map((c: { status: string }) => c.status);
    assert.deepEqual(statuses, ['expired', 'disabled', 'used']);
  });

  it('wrong codes are throttled per account, from any address, with a growing wait (429, Retry-After); a right code waits too', async () => {
    const [right] = await batch({ value_usd: '1', count: 1, batch: 'throttle' });
    const eve = await user('eve');
    const eveElsewhere = await user('eve', '127.0.0.2');
    for (let i = 0; i < 5; i++) assertError(await redeem(eve, newRedemptionCode()), 400, 'redemption_code_invalid');
    const held = await redeem(eve, right!.code);
    assertError(held, 429, 'redemption_throttled');
    assert.equal(held.headers.get('retry-after'), '15');
    assert.match(held.json.error.message, /Too many wrong redemption codes\. Wait before trying again\. Try again in 15 s\./);
    assertError(await redeem(eveElsewhere, right!.code), 429, 'redemption_throttled');
    assert.equal(await balanceOf('eve'), 5_000_000, 'the right code was not redeemed during the wait');

    now += 15_000;
    assertError(await redeem(eveElsewhere, newRedemptionCode()), 400, 'redemption_code_invalid');
    const longer = await redeem(eve, right!.code);
    assertError(longer, 429, 'redemption_throttled');
    assert.equal(longer.headers.get('retry-after'), '30', 'the wait doubles with each further wrong code');
    now += 30_000;
    assert.equal((await redeem(eve, right!.code)).status, 200);
    assert.equal(await balanceOf('eve'), 6_000_000);
    const fay = await user('fay');
    assertError(await redeem(fay, newRedemptionCode()), 400, 'redemption_code_invalid');
    assert.equal((await redeem(fay, newRedemptionCode())).status, 400, "another account is not held by eve's wait");
  });

  it('wrong codes are throttled per address, whatever the accounts; another address is not held', async () => {
    const [right] = await batch({ value_usd: '1', count: 1, batch: 'address' });
    // 20 wrong codes from one address, 5 on each of four accounts (each account then locked too).
    for (const name of ['g1', 'g2', 'g3', 'g4']) {
      const agent = await user(name, '127.0.0.3');
      for (let i = 0; i < 5; i++) assertError(await redeem(agent, newRedemptionCode()), 400, 'redemption_code_invalid');
    }
    const fresh = await user('g5', '127.0.0.3');
    assertError(await redeem(fresh, right!.code), 429, 'redemption_throttled');
    const elsewhere = await user('g5', '127.0.0.4');
    assert.equal((await redeem(elsewhere, right!.code)).status, 200, 'from another address the account is free');
    assert.equal(await balanceOf('g5'), 6_000_000);
  });

  it("records an admin's batch and disable in the audit log under their name (code.create, code.disable), never a code; a refusal or a redemption records nothing", async () => {
    const audit = async () => (await root.get('/api/console/admin/audit?limit=200')).json.data as Array<{ actor: string; action: string; target: string; details: Record<string, unknown> | null }>;
    const before = (await audit()).length;
    const expires = new Date(now + 10 * DAY).toISOString();
    const codes = await batch({ value_usd: '0.75', count: 2, batch: 'audited', expires_at: expires });
    const [loose] = await batch({ value_usd: '1' });
    assert.equal((await root.post('/api/console/admin/codes/disable', { id: codes[0]!.id })).status, 200);
    assert.equal((await root.post('/api/console/admin/codes/disable', { batch: 'audited' })).json.disabled, 1);
    assertError(await root.post('/api/console/admin/codes/disable', { batch: 'no-such-batch' }), 404, 'code_not_found');
    assertError(await root.post('/api/console/admin/codes', { value_usd: '0' }), 400, 'invalid_request');
    assert.equal((await redeem(await user('ivy'), loose!.code)).status, 200);
    const rows = await audit();
    assert.deepEqual(rows.slice(0, rows.length - before).map((r) => [r.actor, r.action, r.target, r.details]), [
      ['root', 'code.disable', 'audited', { batch: 'audited' }],
      ['root', 'code.disable', `code ${codes[0]!.id}`, { id: codes[0]!.id }],
      ['root', 'code.create', '(no batch)', { batch: null, count: 1, value_micro_usd: 1_000_000, value: '$1.00', expires_at: null }],
      ['root', 'code.create', 'audited', { batch: 'audited', count: 2, value_micro_usd: 750_000, value: '$0.75', expires_at: expires }],
    ]);
    const filtered = (await root.get('/api/console/admin/audit?action=code.create')).json.data as Array<{ action: string }>;
    assert.ok(filtered.length >= 2 && filtered.every((r) => r.action === 'code.create'));
  });

  it('no code ever reaches a request log, the audit log, the database file (plain text), or a list', async () => {
    // Refusals are logged (unkeyed requests in full up to 10 a minute per address: a fresh address here).
    const hal = await user('hal', '127.0.0.5');
    for (let i = 0; i < 3; i++) {
      const wrong = newRedemptionCode();
      made.push(wrong);
      assertError(await redeem(hal, wrong), 400, 'redemption_code_invalid');
    }
    assert.ok(made.length >= 11);
    await t.gw.stop(); // the last log batch written, the WAL checkpointed or not: both files are read
    const rows = await store.listLogs(10_000);
    assert.ok(rows.filter((l) => l.path === '/api/console/account/redeem' && l.errorCode === 'redemption_code_invalid').length >= 3, 'the refusals are logged, without their bodies');
    const logs = JSON.stringify(rows);
    const files = ['gateway.db', 'gateway.db-wal'].map((f) => join(t.dir, f)).filter((f) => existsSync(f)).map((f) => readFileSync(f).toString('latin1'));
    const listed = JSON.stringify([await store.listCodes({ now: Date.now(), limit: 1000 }), await store.listAudit({ limit: 1000 })]);
    for (const code of made) {
      for (const form of [code, code.slice(4), code.replace(/-/g, '')]) {
        assert.ok(!logs.includes(form), `${form} in a request log`);
        assert.ok(!files.some((bytes) => bytes.includes(form)), `${form} in the database file`);
        assert.ok(!listed.includes(form), `${form} in a list or the audit log`);
      }
    }
    assert.ok(files.some((bytes) => bytes.includes(hashRedemptionCode(made[0]!))), 'the hash is what is kept');
  });
});
