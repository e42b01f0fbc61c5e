// Self sign-up's rules as pure parts (issue 10): invitation codes (MGI, the redemption codes' form, never
// taken for one), the settings' defaults and which retention applies, the refusals made before any work,
// the sign-up throttle's count per address alone, and the refusals' words.
import assert from 'node:assert/strict';
import { ERROR_CODES, MIN_PASSWORD_LENGTH } from '../../../src/contract/index.ts';
import { hashRedemptionCode, newRedemptionCode } from '../../../src/gateway/accounts/codes.ts';
import { invitationHashOf, newInvitationCode } from '../../../src/gateway/accounts/invitations.ts';
import { FIRST_WAIT_MS, FREE_FAILURES_PER_ADDRESS, SignInThrottle } from '../../../src/gateway/accounts/signInThrottle.ts';
import { refusedAtOnce } from '../../../src/gateway/accounts/signUp.ts';
import { retentionDays, settingsOf } from '../../../src/gateway/settings.ts';

describe('self sign-up, its pure parts', () => {
  it('invitation codes are MGI and five groups of four; what a person types is read back; a redemption code is none', () => {
    const codes = Array.from({ length: 500 }, () => newInvitationCode());
    for (const code of codes) assert.match(code, /^MGI(-[0-9A-HJKMNP-TV-Z]{4}){5}$/);
    assert.equal(new Set(codes).size, codes.length);
    const code = 'MGI-AB12-CD34-EF56-GH78-JK90';
    for (const typed of [code, code.toLowerCase(), code.replace(/-/g, ' '), code.slice(4), 'mgi-ab12-cd34-ef56-gh78-jk9o', 'MGI-ABl2-CD34-EF56-GH78-JK90']) {
      assert.equal(invitationHashOf(typed), hashRedemptionCode(code), typed);
    }
    for (const typed of ['', 'MGI', `${code}0`, newRedemptionCode(), code.replace('MGI', 'MGC')]) assert.equal(invitationHashOf(typed), null, typed);
  });

  it('settings not set are at their defaults; serve\'s flag, given, is the retention', () => {
    const none = settingsOf({});
    assert.deepEqual(none, { signUp: 'off', newUserBalance: 0, logRetentionDays: 90, notice: null, defaults: ['sign_up', 'new_user_balance', 'log_retention_days', 'notice'] });
    const some = settingsOf({ sign_up: 'open', log_retention_days: 0 });
    assert.deepEqual([some.signUp, some.logRetentionDays, some.defaults], ['open', 0, ['new_user_balance', 'notice']]);
    assert.equal(retentionDays(some, null), 0);
    assert.equal(retentionDays(some, 14), 14);
    assert.equal(retentionDays(none, 0), 0, 'a flag of 0 (keep everything) wins too');
  });

  it('refuses at once while sign-up is off, and without a code where an invitation is needed', () => {
    const request = { name: 'ada', password: 'long enough password' };
    assert.equal(refusedAtOnce({ signUp: 'off', newUserBalance: 0 }, request), 'sign_up_closed');
    assert.equal(refusedAtOnce({ signUp: 'off', newUserBalance: 0 }, { ...request, invitationCode: 'MGI-AB12-CD34-EF56-GH78-JK90' }), 'sign_up_closed');
    assert.equal(refusedAtOnce({ signUp: 'invitation', newUserBalance: 0 }, request), 'invitation_required');
    assert.equal(refusedAtOnce({ signUp: 'invitation', newUserBalance: 0 }, { ...request, invitationCode: '   ' }), 'invitation_required');
    assert.equal(refusedAtOnce({ signUp: 'invitation', newUserBalance: 0 }, { ...request, invitationCode: 'x' }), null, 'a wrong code is the store\'s to refuse');
    assert.equal(refusedAtOnce({ signUp: 'open', newUserBalance: 0 }, request), null);
  });

  it('the sign-up throttle counts every try per address alone: free tries, then the growing wait', () => {
    let now = 1_000_000;
    const throttle = new SignInThrottle(() => now);
    for (let i = 0; i < FREE_FAILURES_PER_ADDRESS - 1; i++) throttle.triedFrom('a1');
    assert.equal(throttle.waitFrom('a1'), 0);
    throttle.triedFrom('a1');
    assert.equal(throttle.waitFrom('a1'), FIRST_WAIT_MS);
    assert.equal(throttle.waitFrom('a2'), 0, 'another address is not held');
    assert.equal(throttle.wait('ada', 'a2'), 0, 'no name is held by sign-ups');
    now += FIRST_WAIT_MS;
    assert.equal(throttle.waitFrom('a1'), 0);
    throttle.triedFrom('a1');
    assert.equal(throttle.waitFrom('a1'), 2 * FIRST_WAIT_MS);
  });

  it('sign-up tries made together are held as made one after another; one the gateway could not take is not counted', () => {
    const throttle = new SignInThrottle(() => 1_000_000);
    const begun = Array.from({ length: FREE_FAILURES_PER_ADDRESS + 2 }, () => throttle.beginFrom('a1'));
    assert.deepEqual(begun.slice(FREE_FAILURES_PER_ADDRESS - 1), [0, FIRST_WAIT_MS, FIRST_WAIT_MS]);
    for (let i = 0; i < FREE_FAILURES_PER_ADDRESS - 1; i++) throttle.endFrom('a1', true);
    throttle.endFrom('a1', false);
    assert.equal(throttle.waitFrom('a1'), 0, 'the one not taken is not counted');
    assert.equal(throttle.beginFrom('a1'), 0);
    throttle.endFrom('a1', true);
    assert.equal(throttle.waitFrom('a1'), FIRST_WAIT_MS);
  });

  it('the refusals say what to do, and the password rule is the one the gateway applies', () => {
    assert.match(ERROR_CODES.password_too_short.message, new RegExp(`at least ${MIN_PASSWORD_LENGTH} characters`));
    assert.match(ERROR_CODES.sign_up_closed.message, /Ask an admin/);
    assert.match(ERROR_CODES.invitation_required.message, /Ask an admin/);
    assert.equal(ERROR_CODES.sign_up_name_taken.status, 409);
  });
});
