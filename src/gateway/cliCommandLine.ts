/**
 * The CLI's command line read into flags and words: which flags exist, which each command takes, its
 * sub-commands. A mistake here is a UsageError that says what was meant (the nearest flag, the sub-commands
 * of the group), never node:util's parser text nor the whole help.
 */
import { parseArgs } from 'node:util';
import { KEY_COMMAND_OPTIONS } from './cliKeys.ts';
import { LIMIT_FLAGS } from './cliServe.ts';
import { UsageError } from './cliArgs.ts';

export const OPTIONS = {
  data: { type: 'string' }, database: { type: 'string' }, from: { type: 'string' }, help: { type: 'boolean', short: 'h' },
  host: { type: 'string' }, port: { type: 'string' }, 'metrics-port': { type: 'string' }, 'metrics-host': { type: 'string' },
  name: { type: 'string' }, type: { type: 'string' }, 'base-url': { type: 'string' }, 'api-key': { type: 'string' },
  models: { type: 'string' }, model: { type: 'string' }, map: { type: 'string', multiple: true }, priority: { type: 'string' }, weight: { type: 'string' },
  'timeout-ms': { type: 'string' }, proxy: { type: 'string' }, responses: { type: 'string' },
  input: { type: 'string' }, output: { type: 'string' }, context: { type: 'string' }, tools: { type: 'string' }, images: { type: 'string' },
  kind: { type: 'string' }, 'per-image': { type: 'string', multiple: true }, free: { type: 'boolean' }, 'default-max-tokens': { type: 'string' }, 'max-output': { type: 'string' }, 'cached-input': { type: 'string' }, 'cache-write': { type: 'string' },
  balance: { type: 'string' }, account: { type: 'string' }, expires: { type: 'string' }, rpm: { type: 'string' }, concurrency: { type: 'string' },
  value: { type: 'string' }, count: { type: 'string' }, batch: { type: 'string' }, status: { type: 'string' }, 'admin-user': { type: 'string' },
  tpm: { type: 'string' }, rpd: { type: 'string' }, 'spend-limit': { type: 'string' }, 'spend-period': { type: 'string' }, 'allow-ip': { type: 'string', multiple: true },
  'trust-proxy': { type: 'boolean' }, 'remove-api-key': { type: 'boolean' },
  limit: { type: 'string' }, json: { type: 'boolean' }, admin: { type: 'boolean' }, before: { type: 'string' }, 'log-retention-days': { type: 'string' }, 'stop-grace-ms': { type: 'string' },
  ...Object.fromEntries(Object.keys(LIMIT_FLAGS).map((flag) => [flag, { type: 'string' as const }])),
} as const;

export type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

/** Every command's flags beside --data, --database and --help. */
export const COMMAND_OPTIONS: Record<string, readonly string[]> = {
  serve: ['host', 'port', 'log-retention-days', 'stop-grace-ms', 'trust-proxy', 'metrics-port', 'metrics-host', ...Object.keys(LIMIT_FLAGS)],
  migrate: ['from'],
  'channel add': ['name', 'type', 'base-url', 'api-key', 'models', 'map', 'priority', 'weight', 'timeout-ms', 'proxy', 'responses'],
  'channel update': ['base-url', 'api-key', 'remove-api-key', 'models', 'map', 'priority', 'weight', 'timeout-ms', 'proxy', 'responses'],
  'channel test': ['model'],
  'model price': ['kind', 'input', 'output', 'per-image', 'cached-input', 'cache-write', 'free', 'context', 'tools', 'images', 'default-max-tokens', 'max-output'],
  'account create': ['balance'],
  ...KEY_COMMAND_OPTIONS,
  'user create': ['account', 'admin'],
  'code create': ['value', 'count', 'batch', 'expires'], 'code list': ['batch', 'status', 'limit'], 'code disable': ['batch'],
  'invitation create': ['count', 'batch', 'expires'], 'invitation list': ['batch', 'status', 'limit'], 'invitation disable': ['batch'],
  'token create': ['admin-user', 'expires'],
  'settings show': ['json'],
  logs: ['limit', 'json'],
  'logs prune': ['before'],
};

/**
 * The most words each command takes after its name (NAME, USD, ID...): one more is a mistake said, never dropped
 * ("account topup team 1 000" added $1; "key delete a b" deleted a alone). The commands not here check their own
 * (code create, token create...).
 */
export const COMMAND_WORDS: Record<string, number> = {
  'key list': 0, 'key create': 0, 'user list': 0, 'channel list': 0, 'channel add': 0, 'model list': 0, 'settings show': 0,
  'code list': 0, 'invitation list': 0, 'token list': 0,
  'account create': 1, 'account topup': 2, 'account show': 1,
  'key show': 1, 'key limits': 1, 'key disable': 1, 'key enable': 1, 'key delete': 1,
  'user create': 1, 'user disable': 1, 'user enable': 1, 'user password': 1,
  'channel update': 1, 'channel test': 1, 'channel disable': 1, 'channel enable': 1, 'channel remove': 1,
  'model price': 1, 'code disable': 1, 'invitation disable': 1, 'token create': 1, 'token revoke': 1,
  'settings set': 2, 'settings unset': 1,
};

/** The command groups and their sub-commands (`channel add`...): anything else after the group is a mistake named as such. */
export const SUBCOMMANDS: Record<string, readonly string[]> = {
  channel: ['add', 'update', 'list', 'test', 'disable', 'enable', 'remove'],
  model: ['price', 'list'],
  account: ['create', 'topup', 'show'],
  key: ['create', 'list', 'show', 'limits', 'disable', 'enable', 'delete'],
  user: ['create', 'list', 'disable', 'enable', 'password'],
  code: ['create', 'list', 'disable'],
  invitation: ['create', 'list', 'disable'],
  token: ['create', 'list', 'revoke'],
  settings: ['show', 'set', 'unset'],
};

/** The command's name as COMMAND_OPTIONS and COMMAND_WORDS know it: "channel add", "logs prune", "serve". */
export function commandName(words: readonly string[]): string {
  const [command, sub] = words;
  if (command === undefined) return '';
  return command in SUBCOMMANDS || (command === 'logs' && sub === 'prune') ? `${command} ${sub ?? ''}` : command;
}

/** A group's sub-command, or a UsageError listing the group's (`channel frobnicate` is no channel's NAME). */
export function checkSubcommand(command: string, sub: string | undefined): void {
  const known = SUBCOMMANDS[command];
  if (!known || (sub !== undefined && known.includes(sub))) return;
  const listed = `${command} takes ${known.join(', ')}`;
  throw new UsageError(sub === undefined ? `${command} needs a command: ${listed}` : `unknown command: ${command} ${sub}; ${listed}`);
}

/** A negative number ("-5", "-0.5", "-.5"): a value (--port -1, topup NAME -5), not a flag. */
const NEGATIVE_NUMBER = /^-(?:\d|\.\d)/;
/** What node:util's parseArgs takes for a flag rather than a value ("-" alone is standard input's value). */
const flagLike = (token: string): boolean => token.length > 1 && token.startsWith('-');

/**
 * The command line's flags and words. A negative number after a flag that takes a value is that value, and one
 * among the words is a word: both reach the command's own checks ("--port must be a whole number from 0...").
 */
export function parseCommandLine(argv: readonly string[]): { values: Values; positionals: string[] } {
  const args: string[] = [];
  const words: string[] = [];
  const negatives: Array<[index: number, word: string]> = [];
  const unknown: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === '--') {
      args.push(...argv.slice(i));
      words.push(...argv.slice(i + 1));
      break;
    }
    if (NEGATIVE_NUMBER.test(token)) {
      negatives.push([words.length, token]);
      words.push(token);
      continue;
    }
    if (!flagLike(token)) {
      args.push(token);
      words.push(token);
      continue;
    }
    const name = token.startsWith('--') ? token.slice(2).split('=', 1)[0]! : null;
    const option = name === null ? (token === '-h' ? OPTIONS.help : undefined) : (OPTIONS as Record<string, { type: string }>)[name];
    if (!option) {
      unknown.push(name === null ? token : `--${name}`);
      continue;
    }
    const next = argv[i + 1];
    if (option.type === 'string' && !token.includes('=') && (next === undefined || (flagLike(next) && !NEGATIVE_NUMBER.test(next)))) {
      throw new UsageError(`${token} needs a value${next === undefined ? '' : ` (got the flag ${next} after it)`}`);
    }
    if (option.type === 'string' && !token.includes('=')) {
      args.push(`${token}=${next}`);
      i++;
    } else {
      args.push(token);
    }
  }
  if (unknown.length > 0) throw unknownOption(unknown[0]!, commandName(words));
  let parsed;
  try {
    parsed = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const positionals = [...parsed.positionals];
  for (const [index, word] of negatives) positionals.splice(index, 0, word);
  return { values: parsed.values, positionals };
}

/** "unknown option --prot; did you mean --port?": the nearest flag of the command, when it is close. */
function unknownOption(flag: string, command: string): UsageError {
  const candidates = ['data', 'database', 'help', ...(COMMAND_OPTIONS[command] ?? (command === '' ? Object.keys(OPTIONS) : []))];
  const typed = flag.replace(/^-+/, '');
  let best: { name: string; distance: number } | null = null;
  for (const name of candidates) {
    const distance = editDistance(typed, name);
    if (!best || distance < best.distance) best = { name, distance };
  }
  const close = best !== null && best.distance <= Math.min(2, Math.floor(typed.length / 3) + 1);
  return new UsageError(`unknown option ${flag}${command ? ` for ${command.trim()}` : ''}${close ? `; did you mean --${best!.name}?` : ''}`);
}

/** Edits (insert, delete, replace, swap two neighbours) from `a` to `b`: "prot" is one from "port". */
export function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}
