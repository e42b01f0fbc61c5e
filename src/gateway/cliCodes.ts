/**
 * `model-gateway code ...`: redemption codes (top-up, issue 10). `create` prints the new codes on
 * standard output, one per line, the only time they are shown (the store keeps their hashes); what was
 * made goes to standard error, so `code create ... > codes.txt` holds the codes alone. `list` never shows
 * a code, only what is known of it; `disable` stops codes not yet used, by id or by batch. Making and
 * disabling are recorded in the audit log under CLI_ACTOR, as the console records them under the admin.
 */
import { CLI_ACTOR, formatMicroUsd } from '../contract/index.ts';
import { codeNames, createCodeBatch, disableUnusedCodes, MAX_CODES_PER_BATCH } from './accounts/codes.ts';
import { futureDate, identifier, int, usd, UsageError } from './cliArgs.ts';
import { CODE_STATUSES, codeStatus } from './store/codeQuery.ts';
import type { CodeStatus, Store } from './store/types.ts';

export interface CodeFlags {
  readonly value?: string | undefined;
  readonly count?: string | undefined;
  readonly batch?: string | undefined;
  readonly expires?: string | undefined;
  readonly status?: string | undefined;
  readonly limit?: string | undefined;
}

interface CodeIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

const iso = (ms: number | null): string => (ms === null ? '-' : new Date(ms).toISOString());

function status(value: string | undefined): CodeStatus | undefined {
  if (value === undefined) return undefined;
  if (!(CODE_STATUSES as readonly string[]).includes(value)) throw new UsageError(`--status must be one of ${CODE_STATUSES.join(', ')}, got "${value}"`);
  return value as CodeStatus;
}

export async function code(store: Store, sub: string | undefined, args: string[], flags: CodeFlags, io: CodeIo): Promise<number> {
  if (sub === 'create') {
    if (args.length > 0) throw new UsageError(`code create takes no arguments, got "${args[0]}"`);
    const value = usd(flags.value, '--value (USD)');
    if (value === 0) throw new UsageError('--value (USD): a code must be worth more than $0');
    const count = int(flags.count, 'count', 1, 1, MAX_CODES_PER_BATCH);
    const batch = flags.batch === undefined ? null : identifier(flags.batch, '--batch');
    const expiresAt = flags.expires === undefined ? null : futureDate(flags.expires, 'expires');
    const made = await createCodeBatch(store, { value, count, batch, expiresAt, createdBy: null, acting: { actor: CLI_ACTOR } });
    for (const m of made) io.out(m.code);
    io.err(`${count} code${count === 1 ? '' : 's'} of ${formatMicroUsd(value)} made${batch ? ` in batch "${batch}"` : ''}, ids ${made[0]!.record.id}..${made.at(-1)!.record.id}, ` +
      `${expiresAt === null ? 'never expiring' : `expiring ${iso(expiresAt)}`}. They are shown this once: store them now.`);
    return 0;
  }
  if (sub === 'list') {
    if (args.length > 0) throw new UsageError(`code list takes no arguments, got "${args[0]}"`);
    const now = Date.now();
    const filter = {
      now, limit: int(flags.limit, 'limit', 1000, 1, 100_000),
      ...(flags.batch !== undefined ? { batch: identifier(flags.batch, '--batch') } : {}),
      ...(flags.status !== undefined ? { status: status(flags.status)! } : {}),
    };
    const names = await codeNames(store);
    for (const c of await store.listCodes(filter)) {
      const by = c.redeemedAccountId === null ? '-' : `${names.accounts.get(c.redeemedAccountId) ?? c.redeemedAccountId}${c.redeemedUserId === null ? '' : `/${names.users.get(c.redeemedUserId) ?? c.redeemedUserId}`}`;
      io.out([c.id, c.batch ?? '-', formatMicroUsd(c.value), codeStatus(c, now), `redeemed_by=${by}`, `created=${iso(c.createdAt)}`,
        `created_by=${c.createdBy === null ? CLI_ACTOR : (names.users.get(c.createdBy) ?? c.createdBy)}`, `redeemed=${iso(c.redeemedAt)}`, `expires=${c.expiresAt === null ? 'never' : iso(c.expiresAt)}`].join('\t'));
    }
    return 0;
  }
  if (sub === 'disable') {
    if ((args.length === 0) === (flags.batch === undefined) || args.length > 1) throw new UsageError('code disable takes one code ID, or --batch NAME');
    const id = args[0];
    if (id !== undefined && (!/^\d{1,15}$/.test(id) || Number(id) < 1)) throw new UsageError(`code ID must be a whole number from 1 (as code list shows), got "${id}"`);
    const target = flags.batch !== undefined ? { batch: identifier(flags.batch, '--batch') } : { id: Number(id) };
    const disabled = await disableUnusedCodes(store, target, { actor: CLI_ACTOR });
    io.out(`${disabled} code${disabled === 1 ? '' : 's'} disabled${'batch' in target ? ` in batch "${target.batch}"` : ` (id ${target.id})`}${disabled === 0 ? ': already used or disabled' : ''}`);
    return 0;
  }
  throw new UsageError(`unknown command: code ${sub ?? ''}`);
}
