// What a run leaves for people and CI: screenshots (always, for the views the issue asks to see)
// and, when a test fails, a screenshot plus the extension's and code-server's logs. Paths are printed.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import type { Page } from 'playwright-core';
import type { CodeServer } from './codeServer.ts';
import { repoRoot, resultsDir } from './paths.ts';

export function slug(text: string): string {
  return text.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '').toLowerCase().slice(0, 80);
}

function show(path: string): string {
  const rel = relative(repoRoot, path);
  return rel.startsWith('..') ? path : rel;
}

/** Saves a screenshot of the whole workbench as test-results/<group>/<name>.png and prints where. */
export async function saveScreenshot(page: Page, group: string, name: string): Promise<string> {
  const dir = join(resultsDir, slug(group));
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${slug(name)}.png`);
  await page.screenshot({ path });
  console.log(`      [screenshot] ${show(path)}`);
  return path;
}

/**
 * After a failed test: a screenshot, the "Model Gateway" output channel's log files, the extension
 * host's log and code-server's own log, under test-results/failures/<test>/. Never throws.
 */
export async function saveFailureArtifacts(title: string, page: Page | undefined, server: CodeServer | undefined): Promise<string[]> {
  // The test's own title comes last in a full title: keep it, and a hash keeps long titles apart.
  const hash = createHash('sha1').update(title).digest('hex').slice(0, 6);
  const dir = join(resultsDir, 'failures', `${slug(title.slice(-70))}-${hash}`);
  mkdirSync(dir, { recursive: true });
  const saved: string[] = [];
  if (page && !page.isClosed()) {
    const path = join(dir, 'screenshot.png');
    try {
      await page.screenshot({ path, timeout: 10000 });
      saved.push(path);
    } catch (error) {
      console.log(`      [artifact] no screenshot: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (server) {
    const logs = [...server.findLogs('Model Gateway'), ...server.findLogs('remoteexthost.log'), ...server.findLogs('remoteagent.log')];
    if (existsSync(server.logPath)) logs.push(server.logPath);
    const used = new Set<string>();
    for (const log of logs) {
      let name = basename(log).replace(/\s+/g, '-');
      for (let n = 2; used.has(name); n++) name = `${n}-${basename(log).replace(/\s+/g, '-')}`;
      used.add(name);
      const target = join(dir, name);
      try {
        copyFileSync(log, target);
        saved.push(target);
      } catch {
        // a log that vanished with its server
      }
    }
  }
  for (const path of saved) console.log(`      [artifact] ${show(path)}`);
  return saved;
}
