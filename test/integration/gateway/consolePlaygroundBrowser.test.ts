// The Playground (#/playground) in a real browser (Debian's chromium, issue 10), against a real gateway on a
// real SQLite file: reached from the menu by keyboard; the user types a message and sends it with Ctrl+Enter;
// the echo model's answer streams in (seen part-written, then whole) with its tokens, cost and times; a second
// turn carries the conversation; Stop ends a long answer and keeps what came; the cost shown is what the
// request log charged under the account's "Playground" key, which the API keys page lists; a disabled
// Playground key's refusal is shown in the contract's words. Screenshots in both languages and on a phone.
import assert from 'node:assert/strict';
import { formatMicroUsd } from '../../../src/contract/billing.ts';
import { poll } from '../../support/poll.ts';
import { consoleAgent } from './consoleAgent.ts';
import { assertNoProblems, REFUSED, setLang, shootBothLanguages, signIn, useUserSuite } from './consoleUserSupport.ts';

describe('console playground in a browser', function () {
  this.timeout(120_000);
  // The echo model writes a token every 20 ms here, so that an answer is seen arriving and can be stopped.
  const suite = useUserSuite({ echoDelayMs: 20 });
  const page = () => suite().page;
  const answers = () => page().locator('#playground-transcript li[data-role=assistant]');

  it('is in the menu, and opens by keyboard', async () => {
    await signIn(suite(), 'ada', '#/');
    await setLang(page(), 'en');
    const link = page().locator('#side a[href="#/playground"]');
    assert.equal(await link.innerText(), 'Playground');
    await link.focus();
    await page().keyboard.press('Enter');
    await page().locator('h1', { hasText: 'Playground' }).waitFor();
    // The select is drawn before the catalogue's answer fills it: wait for a choice, then check it is the right one.
    const chosen = await poll('the model list to load', async () => (await page().locator('#playground-model').inputValue()) || undefined, 10_000);
    assert.equal(chosen, 'echo', 'the first chat model open to the account');
    const options = await page().locator('#playground-model option').allInnerTexts();
    assert.ok(!options.includes('echo-embedding') && !options.includes('echo-image'), `chat models only: ${options}`);
  });

  it('sends with Ctrl+Enter; the answer streams in, then shows its tokens, cost and times; the log charged the same under the Playground key', async () => {
    await page().locator('#playground-system').fill('Answer briefly.');
    await page().locator('#playground-message').fill('hello from the browser playground');
    await page().locator('#playground-message').press('Control+Enter');
    const answer = answers().last();
    // Part-written first: the turn is busy and holds some of the text, not yet all of it.
    await page().waitForFunction(() => {
      const turn = [...document.querySelectorAll('#playground-transcript li[data-role=assistant]')].at(-1);
      const text = turn?.querySelector('[data-testid=answer-text]')?.textContent ?? '';
      return turn?.getAttribute('aria-busy') === 'true' && text.length > 0 && text !== 'You said: hello from the browser playground';
    });
    await answer.locator('[data-testid=answer-stats]').waitFor();
    assert.equal(await answer.locator('[data-testid=answer-text]').innerText(), 'You said: hello from the browser playground');
    const stats = await answer.locator('[data-testid=answer-stats]').innerText();
    const match = /^(\d+) in \+ (\d+) out tokens · (\$[\d.]+) · first token [\d.]+ m?s · [\d.]+ m?s in all$/.exec(stats);
    assert.ok(match, stats);
    assert.equal(await page().locator('#playground-message').inputValue(), '', 'the box is emptied for the next turn');

    const ada = consoleAgent(suite().t.gw);
    await ada.signIn('ada');
    const row = await poll('the playground request logged', async () =>
      (await ada.get('/api/console/account/logs?limit=1')).json.data[0], 5000, 25);
    assert.deepEqual([row.key_name, row.model, row.status, row.prompt_tokens, row.completion_tokens], ['Playground', 'echo', 200, Number(match[1]), Number(match[2])]);
    assert.equal(formatMicroUsd(row.cost.micro_usd), match[3], 'the cost shown is the cost charged');
    assert.ok(row.cost.micro_usd > 0);
  });

  it('a second turn carries the conversation on', async () => {
    await page().locator('#playground-message').fill('and a second turn');
    await page().locator('#playground-send').click();
    await answers().nth(1).locator('[data-testid=answer-stats]').waitFor();
    assert.equal(await answers().nth(1).locator('[data-testid=answer-text]').innerText(), 'You said: and a second turn');
    assert.equal(await page().locator('#playground-transcript li').count(), 4);
    await shootBothLanguages(page(), 'playground', () => page().locator('#playground-transcript').waitFor());
  });

  it('Stop ends a long answer and keeps what came, and says what it was charged (from its log row)', async () => {
    await page().locator('#playground-message').fill(Array.from({ length: 400 }, (_, i) => `word${i}`).join(' '));
    await page().locator('#playground-send').click();
    await page().waitForFunction(() => ([...document.querySelectorAll('#playground-transcript [data-testid=answer-text]')].at(-1)?.textContent ?? '').length > 20);
    await page().locator('#playground-stop').click();
    const last = answers().last();
    await last.getByText('Stopped: the answer so far is kept.').waitFor();
    const kept = await last.locator('[data-testid=answer-text]').innerText();
    assert.ok(kept.startsWith('You said: word0') && !kept.includes('word399'), kept.slice(-40));
    await page().locator('#playground-stop').waitFor({ state: 'detached' });
    // No usage came (the stream was left), but the request was charged: its log row says for what.
    const logged = await poll('the stopped request logged', async () => (await suite().store.listLogs(1)).find((l) => l.errorCode === 'client_aborted'), 10_000, 50);
    assert.ok(logged.cost > 0, 'it was charged');
    const stats = last.locator('[data-testid=answer-stats]', { hasText: `${logged.promptTokens} in + ${logged.completionTokens} out tokens` });
    await stats.waitFor();
    assert.ok((await stats.innerText()).includes(formatMicroUsd(logged.cost)), await stats.innerText());
  });

  it("the Playground key is on the API keys page; disabled there, the playground shows the refusal in the contract's words", async () => {
    await page().locator('#side a[href="#/keys"]').click();
    const row = page().locator('[data-testid=keys-list] [data-key-name="Playground"]');
    await row.waitFor();
    await row.getByRole('button', { name: 'Disable' }).click();
    await poll('the key disabled', async () => ((await suite().store.listKeys()).find((k) => k.name === 'Playground')?.status === 'disabled' ? true : undefined), 5000, 25);

    await page().locator('#side a[href="#/playground"]').click();
    await page().locator('#playground-message').fill('while the key is disabled');
    await page().locator('#playground-send').click();
    await page().locator('.alert.error', { hasText: 'This API key is disabled' }).waitFor();
    assert.match(await page().locator('.alert.error').innerText(), /403 · key_disabled/);
    assert.equal(await page().locator('#playground-message').inputValue(), 'while the key is disabled', 'the message stays to send again');
    await setLang(page(), 'zh-CN');
    await page().locator('.alert.error', { hasText: '禁用' }).waitFor();
    await setLang(page(), 'en');
    assertNoProblems(suite(), [REFUSED(403)]);
  });
});
