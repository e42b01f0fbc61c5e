// Top-up (#/topup) in a real browser (Debian's chromium, issue 10): a user redeems a code typed in lower
// case and sees what was credited and the new balance; a disabled code is refused in plain words and
// credits nothing; wrong codes are throttled by the gateway, and the page says how long to wait and holds
// the button until then, counting down. Screenshots in both languages and on a phone. No page error and
// nothing blocked by the CSP (the refusals the test causes excepted).
import assert from 'node:assert/strict';
import { createCodeBatch, disableUnusedCodes } from '../../../src/gateway/accounts/codes.ts';
import { assertNoProblems, REFUSED, setLang, shoot, shootBothLanguages, signIn, useUserSuite } from './consoleUserSupport.ts';

describe('console top-up in a browser', function () {
  this.timeout(120_000);
  const suite = useUserSuite();
  let codes: string[] = [];

  before(async () => {
    const made = await createCodeBatch(suite().store, { value: 2_500_000, count: 3, batch: 'browser', expiresAt: null, createdBy: null, acting: { actor: 'cli' } });
    codes = made.map((m) => m.code);
    await disableUnusedCodes(suite().store, { id: made[2]!.record.id }, { actor: 'cli' });
  });

  const page = () => suite().page;

  it('redeems a code typed in lower case: what was credited and the new balance shown, the field emptied', async () => {
    await signIn(suite(), 'ada', '#/topup');
    await setLang(page(), 'en');
    await page().locator('[data-testid=topup-balance] .stat-value', { hasText: '$1.00' }).waitFor();
    await page().locator('#redeem-code').fill(codes[0]!.toLowerCase());
    await page().locator('#redeem-button').click();
    await page().locator('#redeem-done').waitFor({ state: 'visible' });
    assert.equal(await page().locator('#redeem-credited').innerText(), 'Redeemed: $2.50 added to account ada.');
    assert.equal(await page().locator('#redeem-balance').innerText(), '$3.50');
    await page().locator('[data-testid=topup-balance] .stat-value', { hasText: '$3.50' }).waitFor();
    assert.equal(await page().locator('#redeem-code').inputValue(), '', 'the field is emptied');
    assert.equal((await suite().store.getAccount('ada'))!.balance, 3_500_000);
    await shootBothLanguages(page(), 'topup');
  });

  it('a disabled code is refused in plain words and credits nothing', async () => {
    await page().locator('#redeem-code').fill(codes[2]!);
    await page().locator('#redeem-button').click();
    const alert = page().locator('.alert.error', { hasText: 'This redemption code cannot be used' });
    await alert.waitFor();
    assert.match(await alert.innerText(), /mistyped, used already, expired or disabled[\s\S]*redemption_code_invalid/);
    assert.equal(await page().locator('#redeem-done').count(), 0, 'no success shown');
    assert.equal((await suite().store.getAccount('ada'))!.balance, 3_500_000, 'nothing credited');
    assertNoProblems(suite(), [REFUSED(400)]);
  });

  it('wrong codes are throttled: the wait is shown and the button held until it ends, counting down', async () => {
    const throttled = page().locator('.alert.error', { hasText: 'Too many wrong codes. You can try again in' });
    for (let tries = 0; tries < 8 && !(await throttled.isVisible()); tries++) {
      await page().locator('#redeem-code').fill(`MGC-WRNG-${tries}AAA-BBBB-CCCC-DDDD`);
      await page().locator('#redeem-button').click();
      await page().locator('#redeem-button:not([aria-busy])').waitFor();
    }
    await throttled.waitFor();
    assert.match(await throttled.innerText(), /redemption codes\. Wait before trying again/, "the gateway's words under the wait");
    const button = page().locator('#redeem-button');
    assert.ok(await button.isDisabled(), 'the button waits');
    const first = Number(/(\d+)/.exec(await button.innerText())![1]);
    assert.ok(first > 0 && first <= 15, `a wait of ${first} s`);
    await page().waitForFunction((n) => /(\d+)/.exec(document.querySelector('#redeem-button')!.textContent ?? '')?.[1] === String(n - 1), first, { timeout: 3000 });
    await shoot(page(), 'topup-throttled-en');
    await setLang(page(), 'zh-CN');
    await page().locator('.alert.error', { hasText: '错误的兑换码过多' }).waitFor();
    await shoot(page(), 'topup-throttled-zh-CN');
    await setLang(page(), 'en');
    assertNoProblems(suite(), [REFUSED(400, 429)]);
  });
});
