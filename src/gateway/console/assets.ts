/**
 * The web console's files (src/console, bundled by esbuild.js into dist/console: one script and one
 * style named by content hash, and manifest.json naming them). The gateway serves them from the folder
 * beside its own bundle (dist/cli.cjs, dist/extension.cjs), or from dist/console when it runs from src/
 * (tests); MODEL_GATEWAY_CONSOLE_DIR overrides both. Read once, on first use, and kept: a few hundred KB.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { GATEWAY_VERSION } from '../../contract/index.ts';

/** Where the page loads its files from. */
export const ASSETS_PATH = '/assets/';

export interface ConsoleAsset {
  readonly type: string;
  readonly body: Buffer;
  /** The same bytes gzipped, for browsers that accept it (all do). */
  readonly gzipped: Buffer;
}

export interface ConsoleFiles {
  /** The page every console address answers: it loads the script and style below. */
  readonly html: Buffer;
  readonly csp: string;
  /** By file name (the part of the path after /assets/). */
  readonly assets: ReadonlyMap<string, ConsoleAsset>;
}

function candidateDirs(): string[] {
  const fromEnv = process.env['MODEL_GATEWAY_CONSOLE_DIR'];
  if (fromEnv) return [fromEnv];
  const here = import.meta.dirname;
  return [join(here, 'console'), join(here, '..', '..', '..', 'dist', 'console')];
}

const TYPES: Readonly<Record<string, string>> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8' };

function asset(dir: string, name: string): ConsoleAsset {
  const body = readFileSync(join(dir, name));
  return { type: TYPES[name.slice(name.lastIndexOf('.') + 1)] ?? 'application/octet-stream', body, gzipped: gzipSync(body, { level: 9 }) };
}

/** The page: no inline script or style at all, so the policy allows only this origin's files. */
function shell(js: string, css: string): Buffer {
  return Buffer.from(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="referrer" content="no-referrer">
<meta name="generator" content="Model Gateway ${GATEWAY_VERSION}">
<title>Model Gateway</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${ASSETS_PATH}${css}">
<script type="module" src="${ASSETS_PATH}${js}"></script>
</head>
<body><div id="app"></div><noscript>The Model Gateway console needs JavaScript.</noscript></body>
</html>
`, 'utf8');
}

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** When the console was never built (running from src/ without `npm run build`): a page that says so. */
const NOT_BUILT: ConsoleFiles = {
  html: Buffer.from('<!doctype html><html lang="en"><meta charset="utf-8"><title>Model Gateway</title><p>The console is not built: run <code>npm run build</code>, then reload.</p></html>\n'),
  csp: CSP,
  assets: new Map(),
};

function load(): ConsoleFiles | null {
  for (const dir of candidateDirs()) {
    const manifestPath = join(dir, 'manifest.json');
    if (!existsSync(manifestPath)) continue;
    const { js, css } = JSON.parse(readFileSync(manifestPath, 'utf8')) as { js: string; css: string };
    const assets = new Map([js, css].map((name) => [name, asset(dir, name)]));
    return { html: shell(js, css), csp: CSP, assets };
  }
  return null;
}

let loaded: ConsoleFiles | null = null;

/** The console's files, read on first use (and looked for again while missing). */
export function consoleFiles(): ConsoleFiles {
  loaded ??= load();
  return loaded ?? NOT_BUILT;
}
