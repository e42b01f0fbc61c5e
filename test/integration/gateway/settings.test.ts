// Gateway settings over real HTTP (issue 10): an admin reads them (defaults where none is set) and changes
// them, each change in the audit log and a refused one changing nothing; request logs are pruned by the
// setting log_retention_days unless serve's flag was given (the flag wins); and on PostgreSQL a change
// made through one instance is applied by another within a second, where sign-ups then go, and 20
// sign-ups racing for one invitation over both instances make one user.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { startGateway, type RunningGateway } from '../../../src/gateway/server.ts';
import { openStore } from '../../../src/gateway/store/index.ts';
import type { RequestLog } from '../../../src/gateway/store/types.ts';
import { assertRefusal } from '../../support/documented.ts';
import { poll } from '../../support/poll.ts';
import { useTwoInstances } from '../../support/postgresGateways.ts';
import { type ConsoleAgent, consoleAgent, makeUser, PASSWORD, signedInAdmin } from './consoleAgent.ts';
import { startTestGateway, tempDir, type Started } from './helpers.ts';

const SETTINGS = '/api/console/admin/settings';
const DAY = 24 * 60 * 60 * 1000;
const ALL = ['sign_up', 'new_user_balance', 'log_retention_days', 'notice'];

/** A request log row of `daysAgo` days ago (no account: nothing to charge). */
const oldLog = (requestId: string, daysAgo: number): RequestLog => ({
  time: Date.now() - daysAgo * DAY, requestId, method: 'POST', path: '/v1/chat/completions', accountId: null, keyId: null, keyName: null, model: null, channel: null,
  status: 401, errorCode: 'invalid_api_key', promptTokens: 0, completionTokens: 0, usageEstimated: false, cost: 0, latencyMs: 1, firstByteMs: null, stream: false,
});

describe('gateway settings', function () {
  this.timeout(30_000);

  describe('through the admin API', () => {
    let t: Started;
    let root: ConsoleAgent;
    beforeEach(async () => {
      t = await startTestGateway({ logRetentionDays: 7 });
      root = await signedInAdmin(t.gw, t.admin());
    });
    afterEach(async () => t.close());

    it("answers the defaults, changes what is given (null: back to the default), and records each change; serve's flag is what prunes", async () => {
      assert.deepEqual((await root.get(SETTINGS)).json, {
        object: 'console.settings', sign_up: 'off', new_user_balance: { micro_usd: 0, usd: '0.00' }, log_retention_days: 90, notice: null, defaults: ALL,
        log_retention_days_in_effect: 7,
      });
      const changed = await root.post(SETTINGS, { sign_up: 'invitation', new_user_balance_usd: '0.000001', log_retention_days: 30, notice: 'Back at 6 pm.\nThanks!' });
      assert.equal(changed.status, 200, changed.text);
      assert.deepEqual(changed.json, {
        object: 'console.settings', sign_up: 'invitation', new_user_balance: { micro_usd: 1, usd: '0.000001' }, log_retention_days: 30, notice: 'Back at 6 pm.\nThanks!', defaults: [],
        log_retention_days_in_effect: 7,
      });
      assert.deepEqual((await root.get(SETTINGS)).json, changed.json);
      const back = await root.post(SETTINGS, { notice: '', log_retention_days: null, new_user_balance_usd: 12 });
      assert.deepEqual([back.json.notice, back.json.log_retention_days, back.json.new_user_balance.micro_usd, back.json.defaults], [null, 90, 12_000_000, ['log_retention_days', 'notice']]);
      assert.deepEqual(await t.admin().settings.read(), { sign_up: 'invitation', new_user_balance: 12_000_000 }, 'only what is set is stored');

      const audit = (await root.get('/api/console/admin/audit?action=settings.change')).json.data;
      assert.deepEqual(audit.map((r: { actor: string; target: string; details: unknown }) => [r.actor, r.target, r.details]), [
        ['root', 'new_user_balance, log_retention_days, notice', { new_user_balance_micro_usd: 12_000_000, new_user_balance: '$12.00', log_retention_days: null, notice: null }],
        ['root', 'sign_up, new_user_balance, log_retention_days, notice', {
          sign_up: 'invitation', new_user_balance_micro_usd: 1, new_user_balance: '$0.000001', log_retention_days: 30, notice: 'Back at 6 pm.\nThanks!',
        }],
      ]);
    });

    it('refuses what the rules refuse (400 invalid_request), changing nothing and recording nothing', async () => {
      const bad = [
        {}, { sign_up: 'sometimes' }, { new_user_balance_usd: '-1' }, { new_user_balance_usd: '0.0000001' }, { new_user_balance_usd: '1000000001' }, { log_retention_days: 36_501 },
        { log_retention_days: 1.5 }, { notice: 'x'.repeat(501) }, { notice: 'ring \u0007' }, { notice: 'rtl\u202eevil' }, { notice: 'c1\u0085x' }, { notice: 'half \ud800' }, { colour: 'blue' }, { sign_up: 'open', notice: 'x'.repeat(501) },
      ];
      for (const body of bad) assertRefusal(await root.post(SETTINGS, body), 'POST', SETTINGS, 400, 'invalid_request');
      assert.deepEqual(await t.admin().settings.read(), {});
      assert.deepEqual((await root.get('/api/console/admin/audit?action=settings.change')).json.data, []);
      assertRefusal(await root.post(SETTINGS, { sign_up: 'open' }, { origin: 'https://evil.example' }), 'POST', SETTINGS, 403, 'cross_site_request');
      await makeUser(t.admin(), 'carol');
      const carol = consoleAgent(t.gw);
      await carol.signIn('carol');
      assertRefusal(await carol.get(SETTINGS), 'GET', SETTINGS, 403, 'admin_required');
      assertRefusal(await carol.post(SETTINGS, { sign_up: 'open' }), 'POST', SETTINGS, 403, 'admin_required');
      assert.deepEqual(await t.admin().settings.read(), {});
    });
  });

  describe('log retention', () => {
    /** A folder with logs 2 and 10 days old and the setting log_retention_days 5; a gateway on it (flag or not); the line it logs when it prunes. */
    async function pruneWith(flag: number | undefined): Promise<{ line: string; kept: string[] }> {
      const dir = tempDir();
      const lines: string[] = [];
      let gw: RunningGateway | null = null;
      try {
        const store = openStore({ dataDir: dir });
        await store.write({ logs: [oldLog('two-days', 2), oldLog('ten-days', 10)], keysUsed: new Map() });
        await store.settings.change({ log_retention_days: 5 });
        await store.close();
        gw = await startGateway({ dataDir: dir, port: 0, log: (line) => lines.push(line), ...(flag !== undefined ? { logRetentionDays: flag } : {}) });
        const line = await poll('the first pruning (a second after start)', () => lines.find((l) => l.startsWith('pruned ')), 5000, 20);
        const reader = openStore({ dataDir: dir });
        const kept = (await reader.listLogs(10)).map((l) => l.requestId);
        await reader.close();
        return { line, kept };
      } finally {
        await gw?.stop();
        rmSync(dir, { recursive: true, force: true });
      }
    }

    it('without the flag, the setting decides what is pruned', async () => {
      assert.deepEqual(await pruneWith(undefined), { line: 'pruned 1 request log rows older than 5 days', kept: ['two-days'] });
    });

    it("serve's --log-retention-days, given, wins over the setting", async () => {
      assert.deepEqual(await pruneWith(1), { line: 'pruned 2 request log rows older than 1 days', kept: [] });
    });
  });

  describe('on PostgreSQL, two instances', () => {
    const two = useTwoInstances();
    before(() => makeUser(two.store, 'root', 0, true));

    it('a change through one instance is applied by the other within a second; sign-ups on it follow the new setting', async () => {
      const { a, b } = two;
      const root = consoleAgent(a);
      assert.equal((await root.signIn('root')).status, 200);
      const visitor = consoleAgent(b);
      assert.equal((await visitor.get('/api/console/session')).json.sign_up, 'off');
      assertRefusal(await visitor.post('/api/console/signup', { name: 'carol', password: PASSWORD }), 'POST', '/api/console/signup', 403, 'sign_up_closed');

      assert.equal((await root.post(SETTINGS, { sign_up: 'open', new_user_balance_usd: '0.75', notice: 'Hello from a' })).status, 200);
      const changedAt = Date.now();
      const seen = await poll('the other instance applying the change', async () => {
        const session = (await visitor.get('/api/console/session')).json;
        return session.sign_up === 'open' ? session : undefined;
      }, 3000, 10);
      const took = Date.now() - changedAt;
      assert.ok(took < 1000, `applied by the other instance in ${took} ms`);
      assert.equal(seen.notice, 'Hello from a');

      const signedUp = await visitor.post('/api/console/signup', { name: 'carol', password: PASSWORD });
      assert.equal(signedUp.status, 201, signedUp.text);
      assert.equal((await visitor.get('/api/console/account')).json.account.balance.remaining.micro_usd, 750_000);
      const onA = consoleAgent(a);
      assert.equal((await onA.signIn('carol')).status, 200, 'the user signs in on the other instance too');
      const audit = (await root.get('/api/console/admin/audit')).json.data.map((r: { actor: string; action: string }) => `${r.actor} ${r.action}`);
      assert.deepEqual(audit, ['carol user.sign_up', 'root settings.change']);
    });

    it('20 sign-ups at once with one invitation, spread over both instances, make exactly one user', async () => {
      const { a, b, store } = two;
      const root = consoleAgent(a);
      assert.equal((await root.signIn('root')).status, 200);
      assert.equal((await root.post(SETTINGS, { sign_up: 'invitation' })).status, 200);
      const [{ code }] = (await root.post('/api/console/admin/invitations', { count: 1, batch: 'race' })).json.codes;
      await poll('the other instance asking for invitations', async () => (await consoleAgent(b).get('/api/console/session')).json.sign_up === 'invitation', 3000, 10);
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => consoleAgent(i % 2 ? a : b).post('/api/console/signup', { name: `racer${i}`, password: PASSWORD, invitation_code: code })));
      assert.deepEqual(answers.map((r) => r.status).sort(), [201, ...Array<number>(19).fill(400)], answers.map((r) => r.text).join('\n'));
      const winner = answers.find((r) => r.status === 201)!.json.user.name as string;
      assert.deepEqual((await store.listUsers()).map((u) => u.name).filter((n) => n.startsWith('racer')), [winner]);
      const [listed] = await store.signUps.listInvitations({ now: Date.now(), batch: 'race', limit: 1 });
      assert.equal(listed!.redeemedUserId, (await store.listUsers()).find((u) => u.name === winner)!.id);
    });
  });
});
