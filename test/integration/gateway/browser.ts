/**
 * Debian's chromium through playwright-core for the console's browser tests: a fresh profile per
 * suite, clipboard allowed for the gateway's origin, and every page error or console error collected
 * (the strict CSP reports what it blocks there).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import type { BrowserContext, Page } from 'playwright-core';

export const SCREENSHOTS = resolve(import.meta.dirname, '../../../test-results');

function chromiumPath(): string {
  if (process.env['MODEL_GATEWAY_CHROMIUM']) return process.env['MODEL_GATEWAY_CHROMIUM'];
  try {
    return execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).trim().split('\n')[0]!;
  } catch {
    throw new Error('chromium not found: apt-get install -y chromium, or set MODEL_GATEWAY_CHROMIUM');
  }
}

export interface ConsoleBrowser {
  readonly context: BrowserContext;
  readonly page: Page;
  /** Page errors and console errors, in order; a test empties it when it expects some. */
  readonly problems: string[];
  close(): Promise<void>;
}

export async function launchConsoleBrowser(origin: string): Promise<ConsoleBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'console-chromium-'));
  mkdirSync(join(profile, 'xdg'));
  const context = await chromium.launchPersistentContext(join(profile, 'profile'), {
    executablePath: chromiumPath(),
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1320, height: 1000 },
    env: { ...process.env, HOME: profile, XDG_CONFIG_HOME: join(profile, 'xdg'), XDG_CACHE_HOME: join(profile, 'xdg') },
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  const page = context.pages()[0] ?? (await context.newPage());
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  return {
    context, page, problems,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
