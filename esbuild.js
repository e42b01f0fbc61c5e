// Bundles the extension, the gateway CLI and the web console into dist/. `--production` minifies the
// extension; `--watch` rebuilds. bench/run.ts imports `cliOptions` to bundle its gateway child exactly like
// dist/cli.cjs; the console's browser tests import `buildConsole`.
import * as esbuild from 'esbuild';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_ROUTES } from './src/contract/api/routes.ts';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** Both bundles are CommonJS: VS Code's extension host requires its entry point, and one format keeps it simple. */
const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node22',
  sourcemap: !production,
  minify: production,
  legalComments: 'none',
  logLevel: 'warning',
};

/** The bundles run as CommonJS, where import.meta is empty: the gateway finds the console's files beside its own. */
const besideBundle = { define: { 'import.meta.dirname': '__dirname' } };

/**
 * The CLI (`model-gateway serve`) is always minified: V8 keeps a bundle's whole source text in the heap
 * for as long as the process runs, and the unminified text, comments included, was 2 MB, stored two bytes
 * per character because of a few non-Latin-1 characters (4 MB). Whitespace and syntax only: identifiers
 * keep their names, so stack traces stay readable without esbuild's `keepNames`, whose `__name()` call
 * would run each time a closure is created on the request path. The source map is an external file
 * (`node --enable-source-maps` maps stack traces back to src/).
 */
export const cliOptions = {
  ...common,
  ...besideBundle,
  minify: false,
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: 'linked',
};

const builds = [
  { ...common, ...besideBundle, entryPoints: ['src/extension/extension.ts'], outfile: 'dist/extension.cjs', external: ['vscode'] },
  // The extension's image scaling runs on a worker thread of its own (src/extension/images/offThread.ts).
  { ...common, entryPoints: ['src/extension/images/thumbnailWorker.ts'], outfile: 'dist/thumbnailWorker.cjs' },
  { ...cliOptions, entryPoints: ['src/gateway/cli.ts'], outfile: 'dist/cli.cjs' },
];

const root = fileURLToPath(new URL('.', import.meta.url));

/** Where the console's files go, and the folder the gateway serves them from (src/gateway/console/assets.ts). */
export const CONSOLE_DIR = join(root, 'dist', 'console');

/**
 * The management API's method and path by route id, for the console (src/console/api.ts). The console
 * takes its types from the route table but not the table itself: that would bundle zod and every
 * schema (450 KB) into the browser only to read two strings per route.
 */
const API_ROUTE_PATHS = Object.fromEntries(Object.entries(API_ROUTES).map(([id, route]) => [id, [route.method, route.path]]));

/**
 * The web console (src/console): one browser bundle of script and style, minified, named by content hash
 * so the gateway can let browsers keep them for a year; manifest.json names them for the gateway.
 */
export const consoleOptions = {
  entryPoints: { app: join(root, 'src/console/main.tsx') },
  bundle: true,
  platform: 'browser',
  format: 'esm',
  target: ['chrome123', 'firefox120', 'safari17.5'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  minify: true,
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
  entryNames: '[name]-[hash]',
  outdir: CONSOLE_DIR,
  metafile: true,
  define: { API_ROUTE_PATHS: JSON.stringify(API_ROUTE_PATHS) },
};

/** Builds the console afresh (old hashed files removed) and writes its manifest. */
export async function buildConsole() {
  rmSync(CONSOLE_DIR, { recursive: true, force: true });
  mkdirSync(CONSOLE_DIR, { recursive: true });
  const { metafile } = await esbuild.build(consoleOptions);
  const files = Object.keys(metafile.outputs).map((path) => basename(path));
  const manifest = { js: files.find((f) => f.endsWith('.js')), css: files.find((f) => f.endsWith('.css')) };
  writeFileSync(join(CONSOLE_DIR, 'manifest.json'), `${JSON.stringify(manifest)}\n`);
  return manifest;
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain && watch) {
  await buildConsole();
  for (const options of builds) await (await esbuild.context(options)).watch();
} else if (isMain) {
  await Promise.all([buildConsole(), ...builds.map((options) => esbuild.build(options))]);
}
