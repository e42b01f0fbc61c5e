/**
 * `model-gateway code ...` and `model-gateway invitation ...`: single-use codes (issue 10), redemption codes
 * (top-up) and invitation codes (sign-up when the setting sign_up is "invitation"). `create` prints the new
 * codes on standard output, one per line, the only time they are shown (the store keeps their hashes); what
 * was made goes to standard error, so `code create ... > codes.txt` holds the codes alone. `list` never shows
 * a code, only what is known of it; `disable` stops codes not yet used, by id or by batch. Making and
 * disabling are recorded in the audit log under CLI_ACTOR, as the console records them under the admin.
 */
import { CLI_ACTOR, formatMicroUsd } from '../contract/index.ts';
import { codeNames, createCodeBatch, disableUnusedCodes, MAX_CODES_PER_BATCH } from './accounts/codes.ts';
import { createInvitationBatch, disableUnusedInvitations } from './accounts/invitations.ts';
import { futureDate, identifier, int, usdFlag, UsageError } from './cliArgs.ts';
import { CODE_STATUSES, codeStatus } from './store/codeQuery.ts';
import type { CodeFilter, CodeStatus, CodeTarget, SingleUseCode, Store } from './store/types.ts';

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

type Names = Awaited<ReturnType<typeof codeNames>>;

/** What differs between the two kinds of code: how a batch is made, listed and disabled, and a listed code's own columns. */
interface Kind<Row extends SingleUseCode> {
  readonly command: 'code' | 'invitation';
  readonly noun: string;
  make(store: Store, count: number, batch: string | null, expiresAt: number | null, flags: CodeFlags): Promise<{ codes: string[]; ids: number[]; worth: string }>;
  list(store: Store, filter: CodeFilter): Promise<Row[]>;
  /** Columns of a listed code before its status (a redemption code's value), and who used it. */
  columns(row: Row, names: Names): { lead: string[]; by: string };
  disable(store: Store, target: CodeTarget): Promise<number>;
}

const userName = (id: number | null, names: Names): string => (id === null ? '-' : String(names.users.get(id) ?? id));

const REDEMPTION: Kind<Awaited<ReturnType<Store['listCodes']>>[number]> = {
  command: 'code',
  noun: 'code',
  async make(store, count, batch, expiresAt, flags) {
    const value = usdFlag(flags.value, '--value (USD)');
    if (value === 0) throw new UsageError('--value (USD): a code must be worth more than $0');
    const made = await createCodeBatch(store, { value, count, batch, expiresAt, createdBy: null, acting: { actor: CLI_ACTOR } });
    return { codes: made.map((m) => m.code), ids: made.map((m) => m.record.id), worth: ` of ${formatMicroUsd(value)}` };
  },
  list: (store, filter) => store.listCodes(filter),
  columns(c, names) {
    const by = c.redeemedAccountId === null ? '-' : `${names.accounts.get(c.redeemedAccountId) ?? c.redeemedAccountId}${c.redeemedUserId === null ? '' : `/${userName(c.redeemedUserId, names)}`}`;
    return { lead: [formatMicroUsd(c.value)], by: `redeemed_by=${by}` };
  },
  disable: (store, target) => disableUnusedCodes(store, target, { actor: CLI_ACTOR }),
};

const INVITATION: Kind<SingleUseCode> = {
  command: 'invitation',
  noun: 'invitation',
  async make(store, count, batch, expiresAt) {
    const made = await createInvitationBatch(store, { count, batch, expiresAt, createdBy: null, acting: { actor: CLI_ACTOR } });
    return { codes: made.map((m) => m.code), ids: made.map((m) => m.record.id), worth: '' };
  },
  list: (store, filter) => store.signUps.listInvitations(filter),
  columns: (c, names) => ({ lead: [], by: `used_by=${userName(c.redeemedUserId, names)}` }),
  disable: (store, target) => disableUnusedInvitations(store, target, { actor: CLI_ACTOR }),
};

export function code(store: Store, sub: string | undefined, args: string[], flags: CodeFlags, io: CodeIo): Promise<number> {
  return singleUse(REDEMPTION, store, sub, args, flags, io);
}

export function invitation(store: Store, sub: string | undefined, args: string[], flags: CodeFlags, io: CodeIo): Promise<number> {
  return singleUse(INVITATION, store, sub, args, flags, io);
}

async function singleUse<Row extends SingleUseCode>(kind: Kind<Row>, store: Store, sub: string | undefined, args: string[], flags: CodeFlags, io: CodeIo): Promise<number> {
  const { command, noun } = kind;
  if (sub === 'create') {
    if (args.length > 0) throw new UsageError(`${command} create takes no arguments, got "${args[0]}"`);
    const count = int(flags.count, 'count', 1, 1, MAX_CODES_PER_BATCH);
    const batch = flags.batch === undefined ? null : identifier(flags.batch, '--batch');
    const expiresAt = flags.expires === undefined ? null : futureDate(flags.expires, 'expires', 'the codes');
    const made = await kind.make(store, count, batch, expiresAt, flags);
    for (const c of made.codes) io.out(c);
    io.err(`${count} ${noun}${count === 1 ? '' : 's'}${made.worth} made${batch ? ` in batch "${batch}"` : ''}, ids ${made.ids[0]}..${made.ids.at(-1)}, ` +
      `${expiresAt === null ? 'never expiring' : `expiring ${iso(expiresAt)}`}. They are shown this once: store them now.`);
    return 0;
  }
  if (sub === 'list') {
    if (args.length > 0) throw new UsageError(`${command} list takes no arguments, got "${args[0]}"`);
    const now = Date.now();
    const filter = {
      now, limit: int(flags.limit, 'limit', 1000, 1, 100_000),
      ...(flags.batch !== undefined ? { batch: identifier(flags.batch, '--batch') } : {}),
      ...(flags.status !== undefined ? { status: status(flags.status)! } : {}),
    };
    const names = await codeNames(store);
    for (const c of await kind.list(store, filter)) {
      const { lead, by } = kind.columns(c, names);
      io.out([c.id, c.batch ?? '-', ...lead, codeStatus(c, now), by, `created=${iso(c.createdAt)}`,
        `created_by=${c.createdBy === null ? CLI_ACTOR : userName(c.createdBy, names)}`, `${command === 'code' ? 'redeemed' : 'used'}=${iso(c.redeemedAt)}`,
        `expires=${c.expiresAt === null ? 'never' : iso(c.expiresAt)}`].join('\t'));
    }
    return 0;
  }
  if (sub === 'disable') {
    if ((args.length === 0) === (flags.batch === undefined) || args.length > 1) throw new UsageError(`${command} disable takes one ${noun} ID, or --batch NAME`);
    const id = args[0];
    if (id !== undefined && (!/^\d{1,15}$/.test(id) || Number(id) < 1)) throw new UsageError(`${noun} ID must be a whole number from 1 (as ${command} list shows), got "${id}"`);
    const target = flags.batch !== undefined ? { batch: identifier(flags.batch, '--batch') } : { id: Number(id) };
    const disabled = await kind.disable(store, target);
    io.out(`${disabled} ${noun}${disabled === 1 ? '' : 's'} disabled${'batch' in target ? ` in batch "${target.batch}"` : ` (id ${target.id})`}${disabled === 0 ? ': already used or disabled' : ''}`);
    return 0;
  }
  throw new UsageError(`unknown command: ${command} ${sub ?? ''}`);
}
