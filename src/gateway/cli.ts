/**
 * The `model-gateway` command (bundled to dist/cli.cjs). Every command takes --data DIR
 * (default $MODEL_GATEWAY_DATA, else ./.model-gateway), or --database URL (default
 * $MODEL_GATEWAY_DATABASE_URL) for PostgreSQL. Run with --help for the list.
 */
import { CLI_ACTOR, formatMicroUsd } from '../contract/index.ts';
import { parseTopUp } from './accounts/money.ts';
import { openAccount, topUpAccount } from './accounts/userAdmin.ts';
import { identifier, int, isoDate, need, usdFlag, UsageError } from './cliArgs.ts';
import { key, KEY_USAGE } from './cliKeys.ts';
import { LIMIT_FLAGS, serve } from './cliServe.ts';
import { checkSubcommand, COMMAND_OPTIONS, COMMAND_WORDS, commandName, parseCommandLine, SUBCOMMANDS, type Values } from './cliCommandLine.ts';
import { migrate } from './cliMigrate.ts';
import { model } from './cliModels.ts';
import { readHiddenLine, user } from './cliUsers.ts';
import { code, invitation } from './cliCodes.ts';
import { channel } from './cliChannels.ts';
import { token } from './cliTokens.ts';
import { settings, SETTINGS_USAGE } from './cliSettings.ts';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DB_FILE, DEFAULT_DATA_DIR, openAnyStore } from './store/index.ts';
import { DATABASE_URL_ENV, databaseUrlOf, redactPassword } from './store/databaseUrl.ts';
import { StoreError } from './store/types.ts';
import { diskFull, unwritableReason } from './store/dataFolder.ts';
import type { Store } from './store/types.ts';

const USAGE = `Usage: model-gateway <command> [options]        (every command takes --data DIR or --database URL)

  serve [--host 127.0.0.1] [--port 8080] [--log-retention-days 90] [--stop-grace-ms 5000] [--trust-proxy]
        [--request-deadline-ms 30000] [--max-connections 10000] [--body-memory-mb 256] [--max-answer-mb 64] [--max-event-kb 1024]
              (0 days keeps request logs forever; given, it wins over the setting log_retention_days (default 90);
              on SIGTERM, requests in flight get the grace to finish;
              --trust-proxy: behind a reverse proxy, a request's address is the last one of X-Forwarded-For
              and its scheme X-Forwarded-Proto's; the sign-in throttles count by that address)
        [--metrics-port N [--metrics-host 127.0.0.1]]
              (Prometheus metrics, GET /metrics, on a port of their own: requests, errors, tokens, spending,
              latency, upstream attempts, channels skipped, the store; on 127.0.0.1 unless --metrics-host says;
              with $MODEL_GATEWAY_METRICS_TOKEN set, a scrape must send it as a Bearer token)
  channel add --name NAME [--type openai|anthropic|echo] [--base-url URL] [--api-key KEY|-] --models M1,M2
              [--map PLATFORM=UPSTREAM]... [--priority N] [--weight N] [--timeout-ms N] [--proxy URL]
              [--responses yes|no]   (openai: the upstream has the Responses API; default yes for api.openai.com only)
              (--api-key - reads the key from standard input; without --api-key, $MODEL_GATEWAY_CHANNEL_API_KEY)
  channel update NAME [--base-url URL] [--api-key KEY|- | --remove-api-key] [--models M1,M2] [--map PLATFORM=UPSTREAM]...
              [--priority N] [--weight N] [--timeout-ms N] [--proxy URL|none] [--responses yes|no]
              (only the settings given change; --models/--map replace the models served)
  channel list | disable NAME | enable NAME | remove NAME   (list: recent answers served and failed, from the last 1000 log rows)
  channel test NAME [--model M]   one minimal request to the upstream: status, time and its words
  model price MODEL [--kind chat|completion|embedding|image] [--input USD --output USD] [--cached-input USD] [--cache-write USD]
              [--per-image USD [--per-image SIZE|QUALITY|SIZE,QUALITY=USD]...] [--context N] [--tools yes|no|unknown] [--images yes|no|unknown]
              (USD per million tokens; embeddings --input alone; images --per-image alone, by size/quality where given)
              --images yes: the model takes images as input (VS Code's chat lets users attach them only then);
              --tools and --images are kept as they are when not given; unknown makes them not said again
  model list   the priced models: name, kind, prices, context, tools, images, default cap, maximum output (no-channel: nothing serves it)
  model price MODEL --free [--kind K]   serve it at no charge, on purpose (a model with no price is not served)
              [--default-max-tokens N]   the completion cap when a client asks for none (default 8192, or the context if smaller)
              [--max-output N|none]   the most the model writes in one answer (at most its context): a client's larger
              max_tokens is lowered to it, so the upstream does not refuse it; none removes it
  account create NAME [--balance USD] | topup NAME USD | show NAME
${KEY_USAGE}  user create NAME [--admin] [--account ACCOUNT] | list | disable NAME | enable NAME | password NAME
              (the password is asked for, or read from standard input: never an argument; without --account
              the user gets a new account of the same name)
  code create --value USD [--count N] [--batch NAME] [--expires DATE]   redemption codes (top-up): N (1..1000, default 1)
              codes of USD each, printed once on standard output, one per line (only their hashes are kept)
  code list [--batch NAME] [--status unused|used|expired|disabled] [--limit N]   never the codes: id, batch, value,
              status, who redeemed it, dates
  code disable ID | --batch NAME   codes not yet used stop working (used ones stay used)
  invitation create [--count N] [--batch NAME] [--expires DATE]   invitation codes for self sign-up (settings set
              sign_up invitation), printed once like codes | invitation list [--batch NAME] [--status S] [--limit N]
              | invitation disable ID | --batch NAME
  token create NAME --admin-user USER [--expires DATE]   an admin access token for scripts (Authorization: Bearer mgt-...
              on the admin routes of /api/), acting as USER (an enabled admin); printed once on standard output
  token list   never the tokens: id, name, status, who they act as, dates | token revoke NAME
${SETTINGS_USAGE}  logs [--limit N] [--json]
  logs prune --before DATE   delete request logs from before DATE (YYYY-MM-DD or an ISO date-time)
  backup FILE      a consistent copy of the data into a new FILE, even while serving (it prints how to restore)
  migrate --from DATA_FOLDER --database URL   copy a SQLite gateway (accounts, users, keys, channels, models,
              request logs, the audit log, ids kept) into an EMPTY PostgreSQL database in one transaction, and verify it;
              needs $MODEL_GATEWAY_SECRET_KEY (channel keys are sealed again with it)

--data DIR defaults to $MODEL_GATEWAY_DATA, else ./.model-gateway (SQLite).
--database postgres://user:password@host:5432/db (default $${DATABASE_URL_ENV}): run on PostgreSQL 14+ instead,
              any number of serving instances per database; channel keys there need $MODEL_GATEWAY_SECRET_KEY.
`;

interface Io {
  out: (line: string) => void;
  err: (line: string) => void;
  /** All of standard input (for `--api-key -`: a secret on the command line is visible to every user in ps). */
  readStdin?: () => Promise<string>;
  /** A password: asked on the terminal without echo, else the first line of standard input. */
  readSecret?: (prompt: string) => Promise<string>;
}

async function account(store: Store, sub: string | undefined, args: string[], values: Values, io: Io): Promise<number> {
  const name = identifier(args[0], 'account NAME');
  if (sub === 'create') {
    const a = await openAccount(store, name, values.balance === undefined ? 0 : usdFlag(values.balance, '--balance'), { actor: CLI_ACTOR });
    io.out(`account "${a.name}" created with ${formatMicroUsd(a.balance)}`);
  } else if (sub === 'topup') {
    let amount: number;
    try {
      amount = parseTopUp(need(args[1], 'amount (USD)'));
    } catch (error) {
      throw error instanceof UsageError ? error : new UsageError(`amount (USD): ${(error as Error).message}`);
    }
    const a = await topUpAccount(store, name, amount, { actor: CLI_ACTOR });
    io.out(`account "${a.name}" balance ${formatMicroUsd(a.balance)}`);
  } else if (sub === 'show') {
    const a = await store.getAccount(name);
    if (!a) throw new StoreError('not_found', `no account named "${name}"`);
    io.out(`account "${a.name}": balance ${formatMicroUsd(a.balance)}, spent ${formatMicroUsd(a.totalSpent)}`);
  } else {
    throw new UsageError(`unknown command: account ${sub ?? ''}`);
  }
  return 0;
}

async function logs(store: Store, values: Values, io: Io): Promise<number> {
  const rows = (await store.listLogs(int(values.limit, 'limit', 50, 1))).reverse();
  for (const l of rows) {
    if (values.json) {
      io.out(JSON.stringify(l));
      continue;
    }
    io.out([new Date(l.time).toISOString(), l.requestId, l.method, l.path, l.status, l.errorCode ?? '-', l.accountName ?? '-', l.keyName ?? '-',
      l.model ?? '-', l.channel ?? '-', `${l.promptTokens}+${l.completionTokens}${l.usageEstimated ? '~' : ''} tok`, formatMicroUsd(l.cost),
      `${l.latencyMs}ms`, l.firstByteMs === null ? '-' : `ttfb ${l.firstByteMs}ms`, l.stream ? 'stream' : ''].join('\t').trimEnd());
  }
  return 0;
}

async function pruneLogs(store: Store, values: Values, io: Io): Promise<number> {
  const before = isoDate(need(values.before, '--before'), 'before');
  // A date to come would take today's rows too, those of requests still being answered among them.
  if (before > Date.now()) throw new UsageError(`--before is in the future (${new Date(before).toISOString()}): it would delete every row; give a day that has passed`);
  const pruned = await store.pruneLogs(before);
  io.out(`pruned ${pruned} request log rows from before ${new Date(before).toISOString()}`);
  return 0;
}

async function backup(store: Store, file: string, dataDir: string, io: Io): Promise<number> {
  await store.backup(file);
  io.out(`backed up ${dataDir} to ${file} (${statSync(file).size} bytes), consistent even while serving.`);
  io.out(`To restore: stop the gateway, copy ${file} to ${join(dataDir, DB_FILE)}, delete ${DB_FILE}-wal and ${DB_FILE}-shm next to it, start again.`);
  io.out(`Its channel keys are sealed with ${join(dataDir, 'secret.key')}: keep a copy of that file with the backup (a folder restored without it serves no channel until each channel's key is given again).`);
  return 0;
}

/** The commands that only read the store (backup writes its copy elsewhere): they run on a folder that cannot be written. */
const READING = new Set(['account show', 'key list', 'key show', 'user list', 'channel list', 'model list', 'code list', 'invitation list', 'token list', 'settings show', 'logs', 'backup']);

/** The sub-commands that make something (account create, channel add, model price, settings set...): they may start a new data folder. */
const MAKING = new Set(['create', 'add', 'price', 'set']);

export async function main(argv: string[], io: Io, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let parsed;
  try {
    parsed = parseCommandLine(argv);
  } catch (error) {
    // The mistake and where help is, not the whole help: the line that matters stays on the screen.
    io.err(`model-gateway: ${(error as Error).message}\nRun "model-gateway --help" for usage.`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help || positionals.length === 0) {
    (values.help ? io.out : io.err)(USAGE);
    return values.help ? 0 : 2;
  }
  const [command, sub, ...args] = positionals;
  const twoWord = command! in SUBCOMMANDS;
  const name = commandName(positionals);
  const allowed = new Set(['data', 'database', 'help', ...(COMMAND_OPTIONS[name] ?? [])]);
  const dataDir = values.data ?? (env['MODEL_GATEWAY_DATA'] || DEFAULT_DATA_DIR);
  // Whatever goes wrong below, the database password never reaches the terminal.
  let databaseUrl: string | null = null;
  try {
    // An unset "$DB_URL" given as --database would otherwise run on a SQLite folder, another gateway's data.
    if (values.database !== undefined && values.database.trim() === '') throw new UsageError('--database is empty: give the PostgreSQL URL, or leave --database out for the data folder');
    databaseUrl = databaseUrlOf(values.database, env);
    checkSubcommand(command!, sub);
    const extra = Object.keys(values).filter((k) => !allowed.has(k));
    if (extra.length > 0) throw new UsageError(`${name} does not take --${extra.join(', --')}`);
    const words = COMMAND_WORDS[name];
    if (words !== undefined && args.length > words) throw new UsageError(`${name} takes ${words === 0 ? 'no words after it' : `${words} word${words === 1 ? '' : 's'} after it`}, got also "${args.slice(words).join(' ')}" (quote a value with spaces)`);
    if (command === 'logs' && sub === 'prune' && args.length > 0) throw new UsageError(`logs prune takes no words after it, got "${args.join(' ')}"`);
    if (command === 'serve') {
      if (sub !== undefined) throw new UsageError(`serve takes no arguments, got "${sub}"`);
      return await serve({ host: values.host, port: values.port, logRetentionDays: values['log-retention-days'], stopGraceMs: values['stop-grace-ms'], trustProxy: values['trust-proxy'],
        metricsPort: values['metrics-port'], metricsHost: values['metrics-host'],
        limits: Object.fromEntries(Object.keys(LIMIT_FLAGS).map((flag) => [flag, (values as Record<string, unknown>)[flag] as string | undefined])) }, { dataDir, databaseUrl }, io, env);
    }
    if (command === 'migrate') {
      if (sub !== undefined) throw new UsageError(`migrate takes no arguments, got "${sub}"`);
      return await migrate(values.from, databaseUrl, io, env);
    }
    if (!twoWord && command !== 'logs' && command !== 'backup') throw new UsageError(`unknown command: ${command}`);
    if (command === 'backup' && (sub === undefined || args.length > 0)) throw new UsageError('backup takes one FILE (a new file)');
    if (command === 'logs' && sub !== undefined && sub !== 'prune') throw new UsageError(`logs takes no arguments but prune, got "${sub}"`);
    // A mistyped --data would otherwise be a new, empty gateway: only a command that makes something may start one.
    if (databaseUrl === null && !(twoWord && MAKING.has(sub ?? '')) && !existsSync(join(dataDir, DB_FILE))) {
      throw new UsageError(`there is no gateway in ${dataDir} (no ${DB_FILE} there): check --data (or MODEL_GATEWAY_DATA), or start one there with model-gateway serve`);
    }
    const readOnly = databaseUrl === null && READING.has(name) && unwritableReason(dataDir) !== null;
    const store = await openAnyStore({ dataDir, env, databaseUrl, log: io.err, readOnly });
    try {
      if (command === 'channel') return await channel(store, sub, args, values, io, env);
      if (command === 'model') return await model(store, sub, args, values, io);
      if (command === 'account') return await account(store, sub, args, values, io);
      if (command === 'key') return await key(store, sub, args, values, io);
      if (command === 'user') return await user(store, sub, args, { account: values.account, admin: values.admin }, io);
      if (command === 'code') return await code(store, sub, args, values, io);
      if (command === 'invitation') return await invitation(store, sub, args, values, io);
      if (command === 'token') return await token(store, sub, args, values, io);
      if (command === 'settings') return await settings(store, sub, args, values, io);
      if (command === 'backup') return await backup(store, sub!, dataDir, io);
      if (sub === 'prune') return await pruneLogs(store, values, io);
      return await logs(store, values, io);
    } finally {
      await store.close();
    }
  } catch (error) {
    const say = (text: string): void => io.err(redactPassword(`model-gateway: ${text}`, databaseUrl));
    if (error instanceof UsageError) {
      say(`${error.message}\nRun "model-gateway --help" for usage.`);
      return 2;
    }
    if (error instanceof StoreError) {
      say(error.message);
      return 1;
    }
    // A write that found no room ("database or disk is full"), said naming the folder.
    const full = databaseUrl === null ? diskFull(error, dataDir) : null;
    if (full) {
      say(full.message);
      return 1;
    }
    say(error instanceof Error ? error.message : String(error));
    return 1;
  }
}

function isMain(): boolean {
  const entry = process.argv[1] ?? '';
  return /(?:^|[\\/])(?:cli\.(?:c?js|ts)|model-gateway(?:\.js)?)$/.test(entry);
}

if (isMain()) {
  // A reader that went away (`serve | head -2`, a closed terminal) is no reason to stop serving: what would
  // have been written is dropped. Node reports EPIPE as an 'error' event, which unhandled ends the process.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
    });
  }
  const io: Io = {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    readStdin: async () => {
      let text = '';
      for await (const chunk of process.stdin) text += String(chunk);
      return text;
    },
    readSecret: async (prompt) => {
      if (process.stdin.isTTY) {
        // Typed unseen, so typed twice: a slip would leave a password nobody knows.
        const password = await readHiddenLine(prompt);
        if ((await readHiddenLine('The same again: ')) !== password) throw new UsageError('the two passwords typed differ; nothing was changed');
        return password;
      }
      let text = '';
      for await (const chunk of process.stdin) text += String(chunk);
      return text.split(/\r?\n/)[0] ?? '';
    },
  };
  main(process.argv.slice(2), io).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      io.err(`model-gateway: ${String(error)}`);
      process.exitCode = 1;
    },
  );
}
