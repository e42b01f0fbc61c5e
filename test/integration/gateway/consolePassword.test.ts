// Changing one's password from the console over real HTTP (issue 10, contract 4.10): the current
// password is required (a wrong one is 403 current_password_wrong, and counts towards the sign-in
// throttle), the console's CSRF rules hold, every other session of the user ends while this browser
// stays signed in, the old password stops and the new one signs in; no password is echoed or logged.
import assert from 'node:assert/strict';
import { assertError } from '../../support/answer.ts';
import { FREE_FAILURES_PER_ADDRESS } from '../../../src/gateway/accounts/signInThrottle.ts';
import { consoleAgent, makeUser, PASSWORD } from './consoleAgent.ts';
import { startTestGateway, type Started } from './helpers.ts';

const NEW_PASSWORD = 'a brand new passphrase';

describe('console password change', function () {
  this.timeout(30_000);
  let t: Started;

  before(async () => {
    t = await startTestGateway();
    await makeUser(t.admin(), 'ada');
    await makeUser(t.admin(), 'bob');
  });
  after(async () => t.close());

  it('needs a session and the console page: no session 401, another site 403, a form post 415', async () => {
    const anon = consoleAgent(t.gw);
    assertError(await anon.post('/api/console/password', { current: PASSWORD, new: NEW_PASSWORD }), 401, 'not_signed_in');
    const ada = consoleAgent(t.gw);
    assert.equal((await ada.signIn('ada')).status, 200);
    assertError(await ada.post('/api/console/password', { current: PASSWORD, new: NEW_PASSWORD }, { origin: 'https://evil.example' }), 403, 'cross_site_request');
    assertError(await ada.post('/api/console/password', { current: PASSWORD, new: NEW_PASSWORD }, { origin: '', 'x-model-gateway-console': '' }), 403, 'cross_site_request');
    assertError(await ada.post('/api/console/password', `current=${PASSWORD}&new=${NEW_PASSWORD}`, { 'content-type': 'application/x-www-form-urlencoded' }), 415, 'json_required');
    assert.equal((await consoleAgent(t.gw).signIn('ada')).status, 200, 'nothing was changed by the refused requests');
  });

  it('refuses a wrong current password with 403 current_password_wrong, a short new one with 400; the session stays', async () => {
    const ada = consoleAgent(t.gw);
    assert.equal((await ada.signIn('ada')).status, 200);
    const wrong = await ada.post('/api/console/password', { current: 'not the password', new: NEW_PASSWORD });
    assertError(wrong, 403, 'current_password_wrong');
    assert.ok(!wrong.text.includes(NEW_PASSWORD) && !wrong.text.includes('not the password'), 'no password echoed');
    assertError(await ada.post('/api/console/password', { current: PASSWORD, new: 'short' }), 400, 'password_too_short');
    assertError(await ada.post('/api/console/password', { current: PASSWORD }), 400, 'invalid_request');
    assert.equal((await ada.get('/api/console/session')).json.user.name, 'ada', 'still signed in');
    assert.equal((await consoleAgent(t.gw).signIn('ada')).status, 200, 'the old password still works');
  });

  it('changes it: other sessions of the user end, this one continues, the old password is refused and the new one signs in', async () => {
    const here = consoleAgent(t.gw);
    const elsewhere = consoleAgent(t.gw);
    const bob = consoleAgent(t.gw);
    assert.equal((await here.signIn('bob')).status, 200);
    assert.equal((await elsewhere.signIn('bob')).status, 200);
    assert.equal((await bob.signIn('ada')).status, 200);
    const before = here.cookie;

    const changed = await here.post('/api/console/password', { current: PASSWORD, new: NEW_PASSWORD });
    assert.equal(changed.status, 200, changed.text);
    assert.equal(changed.json.user.name, 'bob');
    assert.ok(!changed.text.includes(NEW_PASSWORD) && !changed.text.includes(PASSWORD));
    assert.ok(here.cookie && here.cookie !== before, 'this browser got a new session id');
    assert.match(changed.headers.get('set-cookie') ?? '', /HttpOnly/);

    assert.equal((await here.get('/api/console/session')).json.user.name, 'bob', 'this browser is still signed in');
    assert.equal((await here.get('/api/console/keys')).status, 200);
    assertError(await elsewhere.get('/api/console/keys'), 401, 'not_signed_in');
    assert.equal((await elsewhere.get('/api/console/session')).json.user, null, "the other browser's session ended");
    const stale = consoleAgent(t.gw);
    stale.cookie = before;
    assertError(await stale.get('/api/console/keys'), 401, 'not_signed_in');
    assert.equal((await bob.get('/api/console/session')).json.user.name, 'ada', "another user's session is untouched");

    assertError(await consoleAgent(t.gw).signIn('bob', PASSWORD), 401, 'invalid_credentials');
    const fresh = consoleAgent(t.gw);
    assert.equal((await fresh.signIn('bob', NEW_PASSWORD)).status, 200, 'the new password signs in');
    assert.equal((await fresh.get('/api/console/keys')).status, 200);
  });

  // The session's own address has signed in as this user, so the name's lock does not hold it (4.10):
  // the address's does, after FREE_FAILURES_PER_ADDRESS failures.
  it('counts wrong current passwords towards the sign-in throttle', async () => {
    await makeUser(t.admin(), 'cy');
    const cy = consoleAgent(t.gw);
    assert.equal((await cy.signIn('cy')).status, 200);
    let last = await cy.post('/api/console/password', { current: 'wrong wrong wrong', new: NEW_PASSWORD });
    for (let i = 0; i < FREE_FAILURES_PER_ADDRESS && last.status === 403; i++) last = await cy.post('/api/console/password', { current: 'wrong wrong wrong', new: NEW_PASSWORD });
    assertError(last, 429, 'sign_in_throttled');
    assert.ok(Number(last.headers.get('retry-after')) > 0);
  });
});
