// Opening a workspace file as a user does: a click on its row in the Explorer.
import type { EditorSession } from '../../editor/session.ts';
import { poll } from '../../support/poll.ts';

/** Opens a workspace file by clicking it in the Explorer, waits for its tab, and puts the cursor at its end. */
export async function openFile(session: EditorSession, name: string): Promise<void> {
  const page = session.browser.page;
  const row = page.locator('.explorer-folders-view .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: name }) });
  await row.first().click();
  let title = '';
  await poll(`the tab of ${name}`, async () => {
    title = await session.workbench.activeTabTitle();
    // The tab's label shows the name without its extension ("greet" for greet.ts), the description apart.
    return title === name || (title !== '' && name.startsWith(`${title}.`)) || undefined;
  }, 10000).catch((error: Error) => {
    throw new Error(`${error.message} (the active tab says "${title}")`);
  });
  // Into the text: a click on the editor's lines (VS Code's input element changes between versions).
  await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
  await page.keyboard.press('ControlOrMeta+End');
}
