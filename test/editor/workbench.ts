// Page helpers for the VS Code workbench in chromium. Every wait polls the DOM (60 s by default).
import type { Locator, Page } from 'playwright-core';
import { defaultTimeoutMs, poll, PollTimeout } from '../support/poll.ts';

export type MarkdownPreview = { text: string; headings: string[]; strong: string[]; rows: string[][] };

export type Notification = { message: string; source: string; buttons: string[]; severity: string; toast: Locator };

const normalize = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

/**
 * A wait for a step its caller retries (a palette that has not listed a command yet, a picker that has
 * not listed a mode yet): undefined when the time is up, so the caller tries again. The caller's own
 * deadline is what fails the test; anything but a timeout is thrown as usual.
 */
async function pollForRetry<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T | undefined> {
  try {
    return await poll(what, probe, timeoutMs);
  } catch (error) {
    if (error instanceof PollTimeout) return undefined;
    throw error;
  }
}

/** A pattern matching `text` alone, spaces around it allowed (for Playwright's hasText). */
function exactly(text: string): RegExp {
  return new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
}

function matches(text: string, expected: string | RegExp): boolean {
  return typeof expected === 'string' ? text.includes(expected) : expected.test(text);
}

export class Workbench {
  readonly page: Page;

  constructor(page: Page) {
    this.page = page;
  }

  /** Opens the workbench at `url` and waits until it is laid out (status bar, activity bar). */
  static async open(page: Page, url: string): Promise<Workbench> {
    await page.goto(url);
    const workbench = new Workbench(page);
    await page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: defaultTimeoutMs });
    await page.locator('.monaco-workbench .part.activitybar, .monaco-workbench .activitybar').first().waitFor({ state: 'visible', timeout: defaultTimeoutMs });
    return workbench;
  }

  /** Reloads the page (a new window for VS Code: the extension host starts again) and waits for the workbench. */
  async reload(): Promise<void> {
    await this.page.reload();
    await this.page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: defaultTimeoutMs });
  }

  // ---- quick input (command palette, QuickPick, InputBox) ----

  get quickInput(): Locator {
    return this.page.locator('.quick-input-widget');
  }

  async quickInputVisible(): Promise<boolean> {
    return this.quickInput.isVisible();
  }

  /** Presses Escape until no quick input is open (nested ones close one per press). */
  async closeQuickInput(): Promise<void> {
    await poll('the quick input to close', async () => {
      if (!(await this.quickInputVisible())) return true;
      await this.page.keyboard.press('Escape');
      return undefined;
    }, 10000, 250);
  }

  /** What the quick input shows now, for waits that must say what they saw when they time out. */
  async quickInputState(): Promise<{ visible: boolean; title: string; placeholder: string }> {
    if (!(await this.quickInputVisible())) return { visible: false, title: '', placeholder: '' };
    const title = this.quickInput.locator('.quick-input-title');
    const input = this.quickInput.locator('.quick-input-box input');
    return {
      visible: true,
      title: (await title.count()) > 0 ? normalize(await title.first().textContent()) : '',
      placeholder: (await input.count()) > 0 ? ((await input.first().getAttribute('placeholder')) ?? '') : '',
    };
  }

  /** Rows of the open QuickPick: label (`.label-name`), description, and whether it is focused. */
  async quickPickItems(): Promise<{ label: string; description: string; detail: string; ariaLabel: string; focused: boolean }[]> {
    return this.quickInput.locator('.monaco-list-row').evaluateAll((rows) =>
      rows.map((row) => ({
        label: (row.querySelector('.label-name')?.textContent ?? '').replace(/\s+/g, ' ').trim(),
        description: (row.querySelector('.label-description')?.textContent ?? '').replace(/\s+/g, ' ').trim(),
        detail: (row.querySelector('.quick-input-list-label-meta, .monaco-icon-label-container + .quick-input-list-label-meta')?.textContent ?? '').replace(/\s+/g, ' ').trim(),
        ariaLabel: row.getAttribute('aria-label') ?? '',
        focused: row.classList.contains('focused'),
      })),
    );
  }

  /**
   * Runs a command by its title from the command palette (F1), as a user does. The palette lists the
   * commands known when it opened, so when the title does not come up it is opened again.
   */
  async runCommand(title: string): Promise<void> {
    const input = this.quickInput.locator('.quick-input-box input');
    const deadline = Date.now() + defaultTimeoutMs;
    for (;;) {
      await this.closeQuickInput();
      await this.page.keyboard.press('F1');
      await input.waitFor({ state: 'visible', timeout: defaultTimeoutMs });
      await poll('the command palette', async () => (await input.inputValue()).startsWith('>'), 10000);
      await input.fill(`>${title}`);
      // The list filters asynchronously, and commands whose titles contain this one (Pick Model, Pick Models to
      // Compare) are listed with it, in an order that can change while it settles: so the row is clicked by its
      // label, never accepted with Enter on whichever row has the focus at that moment.
      const row = this.quickInput.locator('.monaco-list-row', { has: this.page.locator('.label-name', { hasText: exactly(title) }) });
      const found = await pollForRetry(`the command "${title}" in the palette`, async () => ((await row.count()) > 0 ? true : undefined), 5000);
      if (found) {
        await row.first().click();
        break;
      }
      if (Date.now() > deadline) throw new Error(`the command "${title}" is not in the command palette`);
    }
    await poll(`the palette to take "${title}"`, async () => {
      if (!(await this.quickInputVisible())) return true;
      // The command may have opened a QuickPick or InputBox of its own.
      return !(await input.inputValue()).startsWith('>') || undefined;
    }, 10000);
  }

  /** Waits for the QuickPick to show a row whose label matches, then picks it. */
  async pick(label: string | RegExp): Promise<void> {
    const index = await poll(`the QuickPick item ${String(label)}`, async () => {
      const rows = await this.quickPickItems();
      const found = rows.findIndex((row) => (typeof label === 'string' ? row.label === label : label.test(row.label)));
      return found >= 0 ? found : undefined;
    });
    await this.quickInput.locator('.monaco-list-row').nth(index).click();
  }

  /** Waits for an InputBox (or a QuickPick's filter) and types `text` into it; `submit` presses Enter. */
  async typeInQuickInput(text: string, submit = true): Promise<{ prompt: string; password: boolean }> {
    const input = this.quickInput.locator('.quick-input-box input');
    await input.waitFor({ state: 'visible', timeout: defaultTimeoutMs });
    const password = (await input.getAttribute('type')) === 'password';
    const message = this.quickInput.locator('.quick-input-message');
    const prompt = (await message.count()) > 0 ? normalize(await message.first().textContent()) : '';
    await input.fill(text);
    if (submit) await this.page.keyboard.press('Enter');
    return { prompt, password };
  }

  /** The text under the quick input (an InputBox's prompt or validation message). */
  async quickInputMessage(): Promise<string> {
    return normalize(await this.quickInput.locator('.quick-input-message').textContent());
  }

  // ---- notifications ----

  /** The notification toasts that have fully faded in (read in one go: toasts come and go). */
  async notifications(): Promise<Notification[]> {
    const containers = this.page.locator('.notifications-toasts .notification-toast-container');
    const infos = await containers.evaluateAll((els) =>
      els.map((el) => ({
        message: (el.querySelector('.notification-list-item-message')?.textContent ?? '').replace(/\s+/g, ' ').trim(),
        source: (el.querySelector('.notification-list-item-source')?.textContent ?? '').replace(/\s+/g, ' ').trim(),
        buttons: [...el.querySelectorAll('.notification-list-item-buttons-container .monaco-button')].map((b) => (b.textContent ?? '').trim()),
        severity: (el.querySelector('.notification-list-item-icon')?.className ?? '').replace(/.*codicon-/, ''),
        visible: !!el.querySelector('.notification-toast.notification-fade-in-done'),
      })),
    );
    return infos
      .filter((info) => info.visible)
      .map((info) => ({
        message: info.message,
        source: info.source,
        buttons: info.buttons,
        severity: info.severity,
        toast: containers.filter({ hasText: info.message.slice(0, 60) }).first(),
      }));
  }

  /** Waits until a notification whose message matches is fully faded in. */
  async waitForNotification(expected: string | RegExp, timeoutMs = defaultTimeoutMs): Promise<Notification> {
    return poll(`a notification matching ${String(expected)}`, async () => (await this.notifications()).find((n) => matches(n.message, expected)), timeoutMs);
  }

  async clickNotificationButton(notification: Notification, label: string): Promise<void> {
    // A hover left open by an earlier click (a toast's "Clear Notification") can lie over the button.
    // (Escape would hide the toasts too: VS Code binds it to notifications.hideToasts.) Moving away closes the hover.
    await this.page.mouse.move(0, 0);
    await notification.toast.locator('.notification-list-item-buttons-container .monaco-button', { hasText: label }).first().click();
  }

  /**
   * Closes the notification toasts (with their own clear button). A progress notification has none
   * and goes away when its task ends, so it is not waited for.
   */
  async clearNotifications(): Promise<void> {
    const closable = this.page.locator('.notifications-toasts .notification-toast-container').filter({ has: this.page.locator('.codicon-notifications-clear') });
    // A toast can fade out between the count and the click: the poll then counts again. One left
    // behind fails here, so that a later wait cannot take it for a new one.
    await poll('the notifications to close', async () => {
      if ((await closable.count()) === 0) return true;
      const toast = closable.first();
      await toast.hover({ timeout: 2000 });
      await toast.locator('.codicon-notifications-clear').first().click({ timeout: 2000 });
      return undefined;
    }, 20000);
  }

  // ---- status bar ----

  /** A status bar entry by (the end of) its id, for example `modelGateway.balance`. */
  statusBarItem(idSuffix: string): Locator {
    return this.page.locator(`.part.statusbar .statusbar-item[id$="${idSuffix}"]`);
  }

  async statusBarText(idSuffix: string): Promise<{ text: string; ariaLabel: string }> {
    const item = this.statusBarItem(idSuffix).first();
    return { text: normalize(await item.textContent()), ariaLabel: (await item.getAttribute('aria-label')) ?? '' };
  }

  /** Waits for the status bar entry's text to match. */
  async waitForStatusBar(idSuffix: string, expected: string | RegExp | ((text: string) => boolean), timeoutMs = defaultTimeoutMs): Promise<string> {
    return poll(`the status bar item ${idSuffix} to show ${String(expected)}`, async () => {
      const item = this.statusBarItem(idSuffix).first();
      if (!(await item.isVisible())) return undefined;
      const { text } = await this.statusBarText(idSuffix);
      const ok = typeof expected === 'function' ? expected(text) : matches(text, expected);
      return ok ? text : undefined;
    }, timeoutMs);
  }

  // ---- editors ----

  /**
   * The rendered Markdown preview (a webview: read from its frame) whose content matches: its text,
   * headings, bold texts and table rows (cells as text). Waits (polling the frames) until one matches.
   */
  async markdownPreview(
    expected: (preview: MarkdownPreview) => boolean = () => true,
    timeoutMs = defaultTimeoutMs,
  ): Promise<MarkdownPreview> {
    return poll('a Markdown preview with the expected content', async () => {
      for (const frame of this.page.frames()) {
        let preview: MarkdownPreview | undefined;
        try {
          preview = await frame.evaluate(() => {
            const root = document.querySelector('.markdown-body');
            if (!root) return undefined;
            const text = (el: Element) => ((el as HTMLElement).innerText ?? el.textContent ?? '').replace(/\s+/g, ' ').trim();
            return {
              text: text(root),
              headings: [...root.querySelectorAll('h1, h2, h3')].map(text),
              strong: [...root.querySelectorAll('strong')].map(text),
              rows: [...root.querySelectorAll('tr')].map((row) => [...row.querySelectorAll('th, td')].map(text)),
            };
          });
        } catch {
          continue; // a frame that went away while we looked: the preview is in another one, or comes later
        }
        if (preview && expected(preview)) return preview;
      }
      return undefined;
    }, timeoutMs);
  }

  async activeTabTitle(): Promise<string> {
    return normalize(await this.page.locator('.editor-group-container.active .tab.active .label-name, .editor-group-container.active .title-label .label-name').first().textContent());
  }

  // ---- chat ----

  get chatInputPart(): Locator {
    return this.page.locator('.interactive-input-part').first();
  }

  /** Makes sure the Chat view is open and its input ready. */
  async openChat(): Promise<void> {
    if (!(await this.chatInputPart.isVisible())) await this.runCommand('Chat: Open Chat');
    await this.chatInputPart.waitFor({ state: 'visible', timeout: defaultTimeoutMs });
  }

  /** Types into the chat input and sends, returning how many responses were there before. */
  async sendChat(text: string): Promise<number> {
    await this.openChat();
    const before = await this.chatResponses().count();
    const editor = this.chatInputPart.locator('.monaco-editor').first();
    await editor.click();
    await this.page.keyboard.press('ControlOrMeta+a');
    await this.page.keyboard.press('Delete');
    await this.page.keyboard.type(text);
    await poll('the chat input to hold the message', async () => {
      const value = normalize(await editor.locator('.view-lines').textContent());
      return value === normalize(text) || undefined;
    }, 10000);
    // A visible suggestion list (participants, slash commands) would take the Enter.
    const suggest = this.page.locator('.suggest-widget.visible');
    if (await suggest.isVisible()) {
      await this.page.keyboard.press('Escape');
      await poll('the suggestions to close', async () => !(await suggest.isVisible()) || undefined, 5000);
    }
    await this.page.keyboard.press('Enter');
    // The list renders only the items in view: in a long session the count can stay put, so the last request's text
    // (pills and all, spaces aside) with the input emptied also says it went.
    const bare = (value: string | null) => (value ?? '').replace(/\s+/g, '');
    const lastRequest = this.page.locator('.interactive-session .interactive-item-container.interactive-request').last();
    await poll('the chat request to appear', async () => {
      if ((await this.chatResponses().count()) > before) return true;
      const sent = bare(await editor.locator('.view-lines').textContent()) === '' && (await lastRequest.count()) > 0;
      return (sent && bare(await lastRequest.textContent()).includes(bare(text))) || undefined;
    });
    return before;
  }

  chatResponses(): Locator {
    return this.page.locator('.interactive-session .interactive-item-container.interactive-response');
  }

  /** The last response: its Markdown text and whether it is still streaming. */
  async lastChatResponse(): Promise<{ text: string; loading: boolean } | undefined> {
    const last = this.chatResponses().last();
    if (!(await last.count())) return undefined;
    return last.evaluate((el) => ({
      loading: el.classList.contains('chat-response-loading'),
      text: [...el.querySelectorAll('.chat-markdown-part')].map((part) => (part as HTMLElement).innerText).join('\n'),
    }));
  }

  /**
   * Waits for the last response to finish with text that matches. Also returns the distinct texts
   * seen while it was still streaming, oldest first (a streamed answer grows; a buffered one jumps).
   */
  async watchChatResponse(expected: string | RegExp | ((text: string) => boolean) = () => true, timeoutMs = defaultTimeoutMs): Promise<{ text: string; partials: string[] }> {
    const partials: string[] = [];
    const text = await poll(`a chat response matching ${String(expected)}`, async () => {
      const state = await this.lastChatResponse();
      if (!state) return undefined;
      const text = normalize(state.text);
      if (state.loading) {
        if (text && partials[partials.length - 1] !== text) partials.push(text);
        return undefined;
      }
      const ok = typeof expected === 'function' ? expected(text) : matches(text, expected);
      return ok ? text : undefined;
    }, timeoutMs, 25);
    return { text, partials };
  }

  async waitForChatResponse(expected: string | RegExp | ((text: string) => boolean) = () => true, timeoutMs = defaultTimeoutMs): Promise<string> {
    return (await this.watchChatResponse(expected, timeoutMs)).text;
  }

  /** Starts a new chat session from the Chat view's title bar (+). */
  async newChat(): Promise<void> {
    await this.openChat();
    await this.page.locator('.action-label.codicon-plus[aria-label^="New Chat"]').first().click();
    await poll('an empty chat session', async () => (await this.chatResponses().count()) === 0 || undefined, 10000);
  }

  /** The chat input's mode (Ask, Agent, ...) and model picker labels. */
  async chatPickers(): Promise<{ mode: string; model: string }> {
    const input = this.chatInputPart;
    const model = normalize(await input.locator('.model-picker-name, .model-picker-split').first().textContent());
    const labels = await input.locator('.action-label').evaluateAll((els) => els.map((e) => (e.textContent ?? '').trim()));
    const mode = labels.find((l) => /^(Ask|Agent|Plan|Edit)$/.test(l)) ?? '';
    return { mode, model };
  }

  /**
   * Switches the chat mode (Ask, Agent, ...) with the mode picker under the chat input. Right after a
   * window opens the picker may offer only some modes (the rest register later), and the list is made
   * when the dropdown opens: so it is opened again until the mode is there.
   */
  async switchChatMode(mode: string, timeoutMs = defaultTimeoutMs): Promise<void> {
    await this.openChat();
    const dropdown = this.page.locator('.action-widget.action-widget-dropdown').first();
    const deadline = Date.now() + timeoutMs;
    while ((await this.chatPickers()).mode !== mode) {
      if (Date.now() > deadline) {
        await this.page.keyboard.press('Escape');
        throw new Error(`the chat mode picker never offered ${mode}`);
      }
      const current = (await this.chatPickers()).mode;
      await this.chatInputPart.locator('.action-label', { hasText: new RegExp(`^${current}$`) }).first().click();
      await dropdown.waitFor({ state: 'visible', timeout: defaultTimeoutMs });
      const rows = dropdown.locator('.monaco-list-row.action');
      const titles = await pollForRetry(`the mode ${mode} in the mode picker`, async () => {
        const found = await rows.evaluateAll((els) => els.map((e) => (e.querySelector('.title')?.textContent ?? '').trim()));
        return found.includes(mode) ? found : undefined;
      }, 3000);
      if (!titles) {
        await this.page.keyboard.press('Escape');
        await poll('the mode picker to close', async () => !(await dropdown.isVisible()) || undefined, 5000);
        continue;
      }
      await rows.nth(titles.indexOf(mode)).click();
      await poll(`the chat mode to be ${mode}`, async () => (await this.chatPickers()).mode === mode || undefined, 10000);
    }
  }

  /**
   * Picks a model in VS Code's own chat model picker (the dropdown under the chat input). The list can
   * re-render while it is read (models registering, the picker refreshing): the row is clicked by its
   * title, not by position, and the pick is tried again, a bounded number of times, when it did not take.
   */
  async pickChatModel(name: string): Promise<string[]> {
    await this.openChat();
    const dropdown = this.page.locator('.action-widget.action-widget-dropdown').first();
    const rows = dropdown.locator('.monaco-list-row.action');
    for (let attempt = 1; ; attempt++) {
      const picker = this.chatInputPart.locator('.model-picker-name, .model-picker-split').first();
      await picker.click();
      await dropdown.waitFor({ state: 'visible', timeout: defaultTimeoutMs });
      const offered = await poll(`the model ${name} in the chat model picker`, async () => {
        // The chat view can re-render under it (models registering): a dropdown that closed is opened again.
        // A click that fails throws here: poll tries again and names it if the wait runs out.
        if (!(await dropdown.isVisible())) {
          await picker.click({ timeout: 5000 });
          return undefined;
        }
        const titles = await rows.evaluateAll((els) => els.map((e) => (e.querySelector('.title')?.textContent ?? '').trim()));
        // Models not yet used sit in the collapsed "Other Models" group.
        if (!titles.includes(name) && titles.includes('Other Models')) await rows.filter({ hasText: 'Other Models' }).first().click({ timeout: 5000 });
        return titles.includes(name) ? titles : undefined;
      });
      const row = rows.filter({ has: this.page.locator('.title', { hasText: exactly(name) }) }).first();
      // The row can be re-rendered away under the click; what counts is whether the pick took, and a click
      // that failed is named when it did not.
      const clickFailure = await row.click({ timeout: 10000 }).then(() => '', (error: Error) => ` (the click failed: ${error.message.split('\n')[0]})`);
      const picked = await pollForRetry(`the chat input to show model ${name}`, async () => (await this.chatPickers()).model === name || undefined, 10000);
      if (picked) {
        await poll('the model picker to close', async () => !(await dropdown.isVisible()) || undefined, 10000);
        return offered;
      }
      if (attempt === 3) throw new Error(`the chat model picker listed ${name} but picking it did not take (${attempt} tries; offered: ${offered.join(', ')})${clickFailure}`);
      console.log(`      [editor] picking ${name} in the chat model picker did not take (attempt ${attempt})${clickFailure}; trying again`);
      if (await dropdown.isVisible()) await this.page.keyboard.press('Escape');
      await poll('the model picker to close', async () => !(await dropdown.isVisible()) || undefined, 5000);
    }
  }

  /** Buttons rendered inside the last chat response (for example a failure's fix buttons). */
  async lastChatResponseButtons(): Promise<string[]> {
    return this.chatResponses().last().locator('.monaco-button, .chat-command-button a, a.monaco-button').evaluateAll((els) => els.map((e) => (e.textContent ?? '').replace(/\s+/g, ' ').trim()).filter(Boolean));
  }
}
