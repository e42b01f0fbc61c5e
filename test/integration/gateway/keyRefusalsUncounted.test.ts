// Requests refused while a key was disabled or expired are logged under it (its owner finds them), but they were
// never the key's to make: they do not use up its requests per day.
import assert from 'node:assert/strict';
import { createKey } from '../../../src/gateway/admin.ts';
import { poll } from '../../support/poll.ts';
import { call, chatBody, startTestGateway, waitForLog, type Started } from './helpers.ts';

describe("a key's refusals while it was disabled", () => {
  let t: Started;
  before(async () => (t = await startTestGateway()));
  after(async () => t.close());

  it('are logged under the key, and leave its requests per day whole', async () => {
    const admin = t.admin();
    const { secret, key } = await createKey(admin, { account: 'local', name: 'daily', rpd: 3 });
    await admin.setKeyStatus(key.id, 'disabled');
    for (let i = 0; i < 3; i++) assert.equal((await call(t.gw, 'POST', '/v1/chat/completions', { key: secret, body: chatBody() })).status, 403);
    await waitForLog(admin, (l) => l.errorCode === 'key_disabled' && l.keyName === 'daily');
    await admin.setKeyStatus(key.id, 'enabled');
    const served = await poll('the key enabled again', async () => {
      const answer = await call(t.gw, 'POST', '/v1/chat/completions', { key: secret, body: chatBody() });
      return answer.status === 403 ? undefined : answer;
    });
    assert.equal(served.status, 200, served.text);
    for (let i = 0; i < 2; i++) assert.equal((await call(t.gw, 'POST', '/v1/chat/completions', { key: secret, body: chatBody() })).status, 200, 'three a day, the refusals not among them');
    assert.equal((await call(t.gw, 'POST', '/v1/chat/completions', { key: secret, body: chatBody() })).status, 429);
  });
});
