// A disabled user's API keys stop (issue 10), over real HTTP: a key a user made in the console works until an
// admin disables them, then is refused with 403 key_disabled saying who and what to do (in the Messages API's
// own shape too), and works again once they are enabled (a key they disabled themselves stays disabled). A key
// the CLI made on a single-user account stops with that user, `user disable|enable` telling how many keys and
// `key list|show` which user stops it; on a shared account a user's keys stop with them while another's work on,
// and the account's CLI key stops only when no enabled user is left. On PostgreSQL another instance follows
// within a second. (A `serve` process beside the CLI's `user disable` is in cliServe.test.ts.)
import assert from 'node:assert/strict';
import { createUser } from '../../../src/gateway/accounts/users.ts';
import type { RunningGateway } from '../../../src/gateway/server.ts';
import type { Store } from '../../../src/gateway/store/types.ts';
import { assertAnthropicError, assertError, type Answer } from '../../support/answer.ts';
import { poll } from '../../support/poll.ts';
import { useTwoInstances } from '../../support/postgresGateways.ts';
import { type ConsoleAgent, consoleAgent, makeUser, PASSWORD, signedInAdmin } from './consoleAgent.ts';
import { call, chatBody, useSignedInAdmin, type Started } from './helpers.ts';
import { runCli } from './serveProcess.ts';

const chat = (gw: RunningGateway, key: string): Promise<Answer> => call(gw, 'POST', '/v1/chat/completions', { key, body: chatBody() });

/** `name` signed in to `gw`'s console, with a new key of their account made there: its secret and id. */
async function consoleKey(gw: RunningGateway, name: string, keyName: string): Promise<{ agent: ConsoleAgent; secret: string; id: number }> {
  const agent = consoleAgent(gw);
  assert.equal((await agent.signIn(name)).status, 200);
  const made = await agent.post('/api/console/keys', { name: keyName });
  assert.equal(made.status, 201, made.text);
  return { agent, secret: made.json.secret, id: made.json.key.id };
}

/** A 403 key_disabled whose message names the disabled user and the command that enables them. */
function assertStopped(answer: Answer, said: RegExp): void {
  assertError(answer, 403, 'key_disabled');
  assert.match(answer.json.error.message, said);
}

describe("a disabled user's API keys, over HTTP", function () {
  this.timeout(60_000);
  const admin = useSignedInAdmin();
  let t: Started;
  let store: Store;
  let root: ConsoleAgent;
  before(() => ({ t, store, root } = admin));

  const cli = async (...args: string[]): Promise<string> => {
    const run = await runCli(['--data', t.dir, ...args]);
    assert.equal(run.code, 0, `${args.join(' ')}: ${run.stderr}`);
    return run.stdout;
  };

  it('a key made in the console works; its user disabled, it is refused saying why, in the Messages shape too; enabled, it works again, a key they disabled stays disabled', async () => {
    await makeUser(store, 'ada', 5_000_000);
    const { agent: ada, secret, id } = await consoleKey(t.gw, 'ada', 'laptop');
    const spare = await ada.post('/api/console/keys', { name: 'spare' });
    assert.equal((await ada.post('/api/console/keys/disable', { id: spare.json.key.id })).status, 200);
    assert.equal((await store.listKeys()).find((k) => k.id === id)!.userId, (await store.findUser({ name: 'ada' }))!.id, 'the key remembers who made it');
    assert.equal((await chat(t.gw, secret)).status, 200);

    assert.equal((await root.post('/api/console/admin/users/disable', { name: 'ada' })).status, 200);
    const said = /This key's user "ada" is disabled; an admin can enable them \(model-gateway user enable ada\)\./;
    const refused = await chat(t.gw, secret);
    assertStopped(refused, said);
    assert.ok(!refused.text.includes(secret), 'no secret in the answer');
    assertStopped(await call(t.gw, 'GET', '/v1/models', { key: secret }), said);
    const messages = await call(t.gw, 'POST', '/v1/messages', {
      headers: { 'x-api-key': secret, 'anthropic-version': '2023-06-01' }, body: { model: 'echo', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] },
    });
    assertAnthropicError(messages, 403, 'key_disabled');
    assert.match(messages.json.error.message, said);

    assert.equal((await root.post('/api/console/admin/users/enable', { name: 'ada' })).status, 200);
    assert.equal((await chat(t.gw, secret)).status, 200, 'works again');
    const stillOff = await chat(t.gw, spare.json.secret);
    assertError(stillOff, 403, 'key_disabled');
    assert.doesNotMatch(stillOff.json.error.message, /user/, 'disabled on its own, not by its user');
  });

  it("a key the CLI made on a single-user account stops when that user is disabled with the CLI, which says how many keys; enabled, it works again", async () => {
    await makeUser(store, 'cy', 5_000_000);
    const secret = (await cli('key', 'create', '--account', 'cy', '--name', 'cli-key')).trim();
    assert.equal((await chat(t.gw, secret)).status, 200);
    assert.match(await cli('user', 'disable', 'cy'), /^user "cy" disabled: their sessions ended; 1 API key stopped working/);
    assertStopped(await chat(t.gw, secret), /This key's user "cy" is disabled; an admin can enable them \(model-gateway user enable cy\)/);
    assert.match(await cli('key', 'list'), /^cli-key\t\S+\tenabled\taccount=cy\t.*\tuser_disabled=cy$/m, 'the list says which user stops it');
    assert.match(await cli('key', 'show', 'cli-key'), /^user_disabled\tcy: refused \(403 key_disabled\) until enabled \(model-gateway user enable cy\)$/m);
    assert.match(await cli('user', 'enable', 'cy'), /^user "cy" enabled: 1 API key works again/);
    assert.equal((await chat(t.gw, secret)).status, 200);
    assert.doesNotMatch(await cli('key', 'list'), /user_disabled/);
  });

  it("on a shared account a user's keys stop with them while another's work on; the account's CLI key stops when no enabled user is left; the keys page says which user", async () => {
    await store.createAccount('team', 5_000_000);
    for (const name of ['ann', 'ben']) await createUser(store, { name, password: PASSWORD, admin: false, account: 'team' });
    const ann = await consoleKey(t.gw, 'ann', 'ann-key');
    const ben = await consoleKey(t.gw, 'ben', 'ben-key');
    const teamKey = (await cli('key', 'create', '--account', 'team', '--name', 'team-cli')).trim();

    assert.match(await cli('user', 'disable', 'ann'), /1 API key stopped working/);
    assertStopped(await chat(t.gw, ann.secret), /This key's user "ann" is disabled/);
    assert.equal((await chat(t.gw, ben.secret)).status, 200, "ben's key works on");
    assert.equal((await chat(t.gw, teamKey)).status, 200, 'the account has an enabled user: its CLI key works on');
    const listed = (await ben.agent.get('/api/console/keys')).json.data.map((k: { name: string; status: string; disabled_user: string | null }) => [k.name, k.status, k.disabled_user]);
    assert.deepEqual(listed, [['ann-key', 'enabled', 'ann'], ['ben-key', 'enabled', null], ['team-cli', 'enabled', null]]);

    assert.equal((await root.post('/api/console/admin/users/disable', { name: 'ben' })).status, 200);
    assertStopped(await chat(t.gw, ben.secret), /This key's user "ben" is disabled/);
    assertStopped(await chat(t.gw, teamKey), /Every user of this key's account "team" \(2\) is disabled; an admin can enable one, for example "ann" \(model-gateway user enable ann\)\./);

    assert.match(await cli('user', 'enable', 'ben'), /2 API keys work again/);
    assert.equal((await chat(t.gw, ben.secret)).status, 200);
    assert.equal((await chat(t.gw, teamKey)).status, 200);
    assertStopped(await chat(t.gw, ann.secret), /"ann"/);
  });
});

describe('on PostgreSQL: a user disabled on one instance', function () {
  this.timeout(60_000);
  const two = useTwoInstances();

  it('another instance refuses their keys within a second, and serves them within a second of their enabling', async () => {
    const { a, b, store } = two;
    const root = await signedInAdmin(a, store);
    await makeUser(store, 'ada', 5_000_000);
    const { secret } = await consoleKey(a, 'ada', 'laptop');
    assert.equal((await chat(b, secret)).status, 200, 'served by the other instance');

    let last = '';
    const answered = (status: number) => async () => {
      const answer = await chat(b, secret);
      last = `${answer.status} ${answer.text}`;
      return answer.status === status ? answer : undefined;
    };
    assert.equal((await root.post('/api/console/admin/users/disable', { name: 'ada' })).status, 200);
    const refused = await poll('the other instance refusing the key', answered(403), 1000, 10).catch((error: unknown) => assert.fail(`${String(error)}; last answer: ${last}`));
    assertStopped(refused, /This key's user "ada" is disabled/);
    assert.equal((await root.post('/api/console/admin/users/enable', { name: 'ada' })).status, 200);
    await poll('the other instance serving the key again', answered(200), 1000, 10).catch((error: unknown) => assert.fail(`${String(error)}; last answer: ${last}`));
  });
});
