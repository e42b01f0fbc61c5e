#!/usr/bin/env -S MALLOC_ARENA_MAX=1 node --max-semi-space-size=8 --no-maglev --no-allocation-site-pretenuring
// The `model-gateway` command: runs the bundled CLI built by `npm run build`.
// --max-semi-space-size=8 (MB): V8's young generation otherwise grows to ~100 MB under load and
// never gives it back; capped, `serve` holds 1,000 streams in ~60-90 MB less RSS. 4 MB cost ~10%
// more CPU per request in scavenges (docs/benchmarks.md). It must be a start-up flag: V8 ignores it set at run time.
// MALLOC_ARENA_MAX=1 (glibc; ignored elsewhere): V8's compiler and GC threads otherwise grow malloc
// arenas of their own that keep ~10-40 MB after a burst of load, nearly all of it free; glibc reads it only at start.
// --no-maglev: V8's mid-tier compiler; without it hot code goes straight to TurboFan. Same CPU per
// request at c=50 side by side, ~10 MB less RSS after load (its code pages and compile zones).
// --no-allocation-site-pretenuring: V8 otherwise learns, while 1,000 streams open at once, that objects made at
// some sites (parsed chunks, promises) survive, and from then on makes them in the old generation, where they
// die: 1,000 long streams took the heap from 37 MB live to 85 MB used. Same CPU per request at c=50 side by side.
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.cjs', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write('model-gateway: not built yet. Run "npm run build" in the project folder first.\n');
  process.exit(1);
}
createRequire(import.meta.url)(cli.pathname);
