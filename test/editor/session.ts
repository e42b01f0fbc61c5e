// One editor for a group of tests: code-server with the packaged extension, chromium on its workbench.
// `editorSession()` wires it into mocha: started in `before`, stopped in `after` (whatever happened),
// and after a failed test a screenshot and the logs go to test-results/failures/.
import { existsSync } from 'node:fs';
import type { EditorBrowser } from './browser.ts';
import { launchBrowser } from './browser.ts';
import { saveFailureArtifacts } from './artifacts.ts';
import type { CodeServer, CodeServerOptions } from './codeServer.ts';
import { startCodeServer } from './codeServer.ts';
import { vsixPath } from './paths.ts';
import { Workbench } from './workbench.ts';

export type EditorSession = { server: CodeServer; browser: EditorBrowser; workbench: Workbench; close(): Promise<void> };

/** Settings every editor of the tests starts with: quiet, no welcome page, chat in Ask mode. */
export const baseSettings: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'update.mode': 'none',
  'git.enabled': false,
  'chat.newSession.defaultMode': 'ask',
};

export function requireVsix(): string {
  if (!existsSync(vsixPath)) throw new Error(`${vsixPath} is missing: run \`node test/editor/prepare.ts\` (npm run test:editor does)`);
  return vsixPath;
}

export async function openEditor(options: CodeServerOptions & { withExtension?: boolean } = {}): Promise<EditorSession> {
  const started = Date.now();
  const vsix = options.withExtension === false ? [] : [requireVsix()];
  const server = await startCodeServer({ ...options, settings: { ...baseSettings, ...options.settings }, vsix: [...vsix, ...(options.vsix ?? [])] });
  let browser: EditorBrowser | undefined;
  try {
    browser = await launchBrowser();
    const workbench = await Workbench.open(browser.page, server.url);
    // The extension is up (and its commands are in the palette) once its status bar item shows.
    if (options.withExtension !== false) await workbench.statusBarItem('modelGateway.balance').first().waitFor({ state: 'visible', timeout: 90000 });
    console.log(`      [editor] ${options.name ?? 'editor'}: workbench and extension ready in ${((Date.now() - started) / 1000).toFixed(1)} s (${server.url}, ${server.root})`);
    const opened = browser;
    return {
      server,
      browser: opened,
      workbench,
      close: async () => {
        await opened.close();
        await server.stop();
      },
    };
  } catch (error) {
    if (browser) await saveFailureArtifacts(`${options.name ?? 'editor'}-start`, browser.page, server);
    await browser?.close();
    await server.stop();
    throw error;
  }
}

/** Mocha hooks for a describe block sharing one editor; returns a getter for the session. */
export function editorSession(options: CodeServerOptions & { withExtension?: boolean }): () => EditorSession {
  let session: EditorSession | undefined;
  before(async function () {
    this.timeout(180000);
    session = await openEditor(options);
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') {
      await saveFailureArtifacts(this.currentTest.fullTitle(), session?.browser.page, session?.server);
    }
  });
  after(async function () {
    this.timeout(30000);
    await session?.close();
  });
  return () => {
    if (!session) throw new Error('the editor did not start');
    return session;
  };
}
