// launchBrowser(): Debian's chromium driven by playwright-core (which downloads no browser), fresh profile each time.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { BrowserContext, Page } from 'playwright-core';

export type EditorBrowser = { context: BrowserContext; page: Page; profileDir: string; close(): Promise<void> };

export function chromiumPath(): string {
  if (process.env.MODEL_GATEWAY_CHROMIUM) return process.env.MODEL_GATEWAY_CHROMIUM;
  try {
    return execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).trim().split('\n')[0]!;
  } catch {
    throw new Error('chromium not found: apt-get install -y chromium (.ci/run does this), or set MODEL_GATEWAY_CHROMIUM');
  }
}

const flags = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launchBrowser(): Promise<EditorBrowser> {
  const profileDir = mkdtempSync(join(tmpdir(), 'mg-chromium-'));
  const xdg = join(profileDir, 'xdg');
  mkdirSync(xdg, { recursive: true });
  const context = await chromium.launchPersistentContext(join(profileDir, 'profile'), {
    executablePath: chromiumPath(),
    headless: true,
    args: flags,
    viewport: { width: 1440, height: 900 },
    env: { ...process.env, XDG_CONFIG_HOME: xdg, XDG_DATA_HOME: xdg, XDG_CACHE_HOME: xdg, HOME: profileDir },
    // code-server's clipboard needs these for "Copy problem report".
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  let closed = false;
  return {
    context,
    page,
    profileDir,
    close: async () => {
      if (closed) return;
      closed = true;
      await context.close().catch(() => undefined);
      if (!process.env.MODEL_GATEWAY_EDITOR_KEEP) rmSync(profileDir, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}
