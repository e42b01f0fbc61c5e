// A new chat in VS Code's Agent mode, as a user opens one.
import type { Workbench } from '../../editor/workbench.ts';
import { poll } from '../../support/poll.ts';

/**
 * A new chat switched to Agent mode. VS Code now and then offers only one mode right after a window opens (its
 * start-up without network): the window is reopened until Agent is offered, three times at most; `afterReload` waits
 * for what the test needs of a reopened window.
 */
export async function newAgentChat(workbench: Workbench, afterReload: () => Promise<unknown>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await workbench.newChat();
    await poll('the chat mode picker', async () => /^(Ask|Agent)$/.test((await workbench.chatPickers()).mode) || undefined);
    try {
      await workbench.switchChatMode('Agent', 20000);
      return;
    } catch (error) {
      if (attempt === 3) throw error;
      console.log(`      [editor] Agent mode not offered (attempt ${attempt}); reopening the window`);
      await workbench.reload();
      await afterReload();
    }
  }
}
