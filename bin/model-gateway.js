#!/usr/bin/env node
// The `model-gateway` command: runs the bundled CLI built by `npm run build`.
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.cjs', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write('model-gateway: not built yet. Run "npm run build" in the project folder first.\n');
  process.exit(1);
}
createRequire(import.meta.url)(cli.pathname);
