/**
 * Summarises a V8 .cpuprofile (from `node bench/run.ts --profile`): self time by function and by
 * source file, so "where does the gateway's time go" has an answer in numbers.
 *
 *   node bench/profile-summary.ts bench/results/profiles/<file>.cpuprofile [--top 30]
 *
 * Functions of the bundled gateway child are attributed to their original source file through the
 * `// path/to/file.ts` markers esbuild writes before each module of a non-minified bundle.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

interface CallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
}
interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
}
interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--'));
const topIndex = args.indexOf('--top');
const top = topIndex >= 0 ? Number(args[topIndex + 1]) : 30;
if (!file) {
  console.error('usage: node bench/profile-summary.ts <file.cpuprofile> [--top N]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;

/** For a bundle: sorted [line, source] pairs from esbuild's module markers. */
const bundleMaps = new Map<string, Array<[number, string]>>();
function sourceOf(url: string, line: number): string {
  if (!url) return '(native)';
  if (url.startsWith('node:')) return url;
  if (!url.endsWith('.cjs') && !url.endsWith('.js')) return url.replace(/^file:\/\/.*?\/(src|bench|node_modules)\//, '$1/');
  let markers = bundleMaps.get(url);
  if (!markers) {
    markers = [];
    const path = url.startsWith('file:') ? fileURLToPath(url) : url;
    if (existsSync(path)) {
      readFileSync(path, 'utf8')
        .split('\n')
        .forEach((text, i) => {
          const m = /^\/\/ (\S+\.(?:ts|js|cjs|mjs|json))$/.exec(text);
          if (m) markers!.push([i, m[1]!.replace(/^(\.\.\/)+(?:.*?\/)?(?=node_modules\/|src\/|bench\/)/, '')]);
        });
    }
    bundleMaps.set(url, markers);
  }
  let found = url.split('/').pop() ?? url;
  for (const [start, source] of markers) {
    if (start <= line) found = source;
    else break;
  }
  return found;
}

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfByFunction = new Map<string, number>();
const selfBySource = new Map<string, number>();
let total = 0;
let idle = 0;
for (let i = 0; i < profile.samples.length; i++) {
  const node = byId.get(profile.samples[i]!);
  const dt = profile.timeDeltas[i] ?? 0;
  if (!node) continue;
  total += dt;
  const { functionName, url, lineNumber } = node.callFrame;
  if (functionName === '(idle)') {
    idle += dt;
    continue;
  }
  const source = functionName.startsWith('(') ? functionName : sourceOf(url, lineNumber);
  const fn = `${functionName || '(anonymous)'}  ${source}${url ? `:${lineNumber + 1}` : ''}`;
  selfByFunction.set(fn, (selfByFunction.get(fn) ?? 0) + dt);
  selfBySource.set(source, (selfBySource.get(source) ?? 0) + dt);
}

const busy = total - idle;
const pct = (us: number): string => `${((us / busy) * 100).toFixed(1).padStart(5)}%`;
const msOf = (us: number): string => `${(us / 1000).toFixed(0).padStart(7)} ms`;
console.log(`${file}\nsampled ${(total / 1e6).toFixed(2)} s, idle ${(idle / 1e6).toFixed(2)} s, busy ${(busy / 1e6).toFixed(2)} s (percentages are of busy time)\n`);
console.log(`top ${top} functions by self time`);
for (const [fn, us] of [...selfByFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${msOf(us)} ${pct(us)}  ${fn}`);
console.log(`\nself time by source file`);
for (const [src, us] of [...selfBySource].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${msOf(us)} ${pct(us)}  ${src}`);
