// A gateway the failure scenarios operate: the bundled gateway started in the test process through its
// public startGateway (127.0.0.1, port 0, a temp data folder), with a working key and a second key that
// the test disables with the gateway's own CLI against the same data folder, as an operator would;
// gatewayEditorSession() gives a describe block one such gateway and one editor pointed at it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { node24, repoRoot } from '../../editor/paths.ts';
import { poll } from '../../support/poll.ts';
import { saveFailureArtifacts } from '../../editor/artifacts.ts';
import { openEditor } from '../../editor/session.ts';
import type { EditorSession } from '../../editor/session.ts';
import { startGateway } from '../../../src/gateway/server.ts';

export type OperatedGateway = {
  url: string;
  goodKey: string;
  /** Works until `disableSecondKey()`. */
  secondKey: string;
  /** `model-gateway key disable` on the second key; resolves once the running gateway refuses it (403). */
  disableSecondKey(): Promise<void>;
  dataDir: string;
  stop(): Promise<void>;
};

/** The gateway's CLI on its data folder, as an operator runs it; `input` goes to its standard input (a password, a key). */
export function gatewayCli(dataDir: string, args: string[], input?: string): string {
  return execFileSync(node24, [join(repoRoot, 'src', 'gateway', 'cli.ts'), ...args, '--data', dataDir], { encoding: 'utf8', ...(input === undefined ? {} : { input }) }).trim();
}

async function status(url: string, key: string): Promise<number> {
  return (await fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${key}` } })).status;
}

export async function startOperatedGateway(): Promise<OperatedGateway> {
  const dataDir = mkdtempSync(join(tmpdir(), 'mg-e2e-gateway-'));
  const gateway = await startGateway({ dataDir, port: 0, bootstrap: true, issueKey: 'e2e-good' });
  try {
    const goodKey = gateway.issuedKey!;
    const secondKey = gatewayCli(dataDir, ['key', 'create', '--account', 'local', '--name', 'e2e-second']).split('\n').pop()!.trim();
    const disableSecondKey = async () => {
      gatewayCli(dataDir, ['key', 'disable', 'e2e-second']);
      // The running gateway sees the CLI's change; check before blaming the extension for anything.
      await poll('the gateway to refuse the key disabled through its CLI (403)', async () => (await status(gateway.url, secondKey)) === 403 || undefined, 10000);
    };
    if ((await status(gateway.url, secondKey)) !== 200) throw new Error('the gateway refuses the key its CLI just made');
    if ((await status(gateway.url, goodKey)) !== 200) throw new Error('the gateway refuses its own issued key');
    return {
      url: gateway.url,
      goodKey,
      secondKey,
      disableSecondKey,
      dataDir,
      stop: async () => {
        await gateway.stop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await gateway.stop();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

export type GatewayEditor = EditorSession & { gateway: OperatedGateway };

/**
 * Mocha hooks for a describe block with one operated gateway and one editor pointed at it: the gateway
 * started (then `prepare`, say users or channels made with its CLI), the editor opened with `settings(gateway)`;
 * after a failed test a screenshot and the logs; both stopped at the end, whatever happened.
 */
export function gatewayEditorSession(options: {
  name: string;
  workspace?: string;
  settings: (gateway: OperatedGateway) => Record<string, unknown>;
  prepare?: (gateway: OperatedGateway) => Promise<void> | void;
}): () => GatewayEditor {
  let gateway: OperatedGateway | undefined;
  let session: EditorSession | undefined;
  before(async function () {
    this.timeout(180000);
    gateway = await startOperatedGateway();
    await options.prepare?.(gateway);
    session = await openEditor({ name: options.name, ...(options.workspace ? { workspace: options.workspace } : {}), settings: options.settings(gateway) });
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await saveFailureArtifacts(this.currentTest.fullTitle(), session?.browser.page, session?.server);
  });
  after(async function () {
    this.timeout(30000);
    await session?.close();
    await gateway?.stop();
  });
  return () => {
    if (!session || !gateway) throw new Error('the editor or the gateway did not start');
    return { ...session, gateway };
  };
}

/** As a user: the gateway's key set with "Set API Key", then a new chat with `model` picked under the chat input. */
export async function chatWithGatewayModel({ workbench, gateway }: GatewayEditor, model: string): Promise<void> {
  await workbench.runCommand('Model Gateway: Set API Key');
  await workbench.typeInQuickInput(gateway.goodKey);
  await workbench.waitForNotification(/^API key saved/);
  await workbench.clearNotifications();
  await workbench.newChat();
  await poll('a gateway model in the chat input', async () => (await workbench.chatPickers()).model !== '' || undefined);
  await workbench.pickChatModel(model);
}
