// Bundles the extension and the gateway CLI into dist/. `--production` minifies; `--watch` rebuilds.
import * as esbuild from 'esbuild';

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

const builds = [
  { ...common, entryPoints: ['src/extension/extension.ts'], outfile: 'dist/extension.cjs', external: ['vscode'] },
  { ...common, entryPoints: ['src/gateway/cli.ts'], outfile: 'dist/cli.cjs' },
];

if (watch) {
  for (const options of builds) await (await esbuild.context(options)).watch();
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
