// Bundles the extension and the gateway CLI into dist/. `--production` minifies the extension; `--watch` rebuilds.
// bench/run.ts imports `cliOptions` to bundle its gateway child exactly like dist/cli.cjs.
import * as esbuild from 'esbuild';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

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
  minify: false,
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: 'linked',
};

const builds = [
  { ...common, entryPoints: ['src/extension/extension.ts'], outfile: 'dist/extension.cjs', external: ['vscode'] },
  { ...cliOptions, entryPoints: ['src/gateway/cli.ts'], outfile: 'dist/cli.cjs' },
];

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain && watch) {
  for (const options of builds) await (await esbuild.context(options)).watch();
} else if (isMain) {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
