/** The benchmark's command line (documented at the top of run.ts) and how the gateway child is launched. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ENV_WORD = /^[A-Z_][A-Z0-9_]*=/;

/** `VAR=value` words as an environment. */
function envOf(words: readonly string[]): Record<string, string> {
  return Object.fromEntries(words.filter((w) => ENV_WORD.test(w)).map((w) => [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)]));
}

/**
 * The gateway child runs with what users get from `model-gateway` (the shebang line of
 * bin/model-gateway.js: `env -S VAR=value... node flags...`).
 */
function binLaunch(root: string): { env: Record<string, string>; flags: string[] } {
  const shebang = readFileSync(join(root, 'bin/model-gateway.js'), 'utf8').split('\n', 1)[0] ?? '';
  const words = shebang.replace(/^#!\S*env(\s+-S)?\s+/, '').split(/\s+/).filter(Boolean);
  const envWords: string[] = [];
  while (words.length > 0 && ENV_WORD.test(words[0]!)) envWords.push(words.shift()!);
  return { env: envOf(envWords), flags: words[0] === 'node' ? words.slice(1) : [] };
}

export function benchOptions(root: string, argv: readonly string[]) {
  const flag = (name: string): boolean => argv.includes(name);
  const option = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const launch = binLaunch(root);
  const versusWords = option('--versus-flags')?.split(/\s+/).filter(Boolean) ?? null;
  return {
    flag,
    option,
    smoke: flag('--smoke'),
    profile: flag('--profile'),
    keep: flag('--keep'),
    fromSource: flag('--from-source'),
    launch,
    /** bin/model-gateway.js's Node flags, then any --gateway-flags given for an experiment. */
    gatewayFlags: [...launch.flags, ...(option('--gateway-flags')?.split(/\s+/).filter(Boolean) ?? [])],
    versusWords,
    /** VAR=value words of --versus-flags go to the versus child's environment, the rest to Node. */
    versusEnv: envOf(versusWords ?? []),
    versusFlags: versusWords?.filter((w) => !ENV_WORD.test(w)) ?? null,
  };
}
