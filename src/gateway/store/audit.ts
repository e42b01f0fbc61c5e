/**
 * The audit log's rows, the same in every store: the details as JSON (never a secret: a field named
 * like a password, an API key, a token, a secret, a hash or a redemption code is refused, however deep,
 * before anything is written), the listing query both SQL stores run (only the placeholder differs) and
 * the same test in memory, and the row mapper. Newest first by id; paging goes on from `beforeId`.
 */
import { isAuditAction } from '../../contract/index.ts';
import { newestFirstSql, type SqlParam } from './newestFirst.ts';
import { StoreError } from './types.ts';
import type { AuditEntry, AuditFilter, AuditRecord } from './types.ts';

/**
 * Words of a field name that would hold a secret ("password", "new_password", "apiKey", "session_token",
 * "password_hash", a bare "key", a redemption "code" or "codes": each is money to whoever holds it).
 * Details say what changed (amounts, flags, names), never with what. Whole words only: "max_tokens" or
 * "key_name" are not secrets.
 */
const SECRET_WORDS = new Set(['password', 'passwd', 'passphrase', 'secret', 'token', 'hash', 'cookie', 'credential', 'credentials', 'code', 'codes']);

function looksSecret(name: string): boolean {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  return name.toLowerCase() === 'key' || words.some((w, i) => SECRET_WORDS.has(w) || (w === 'key' && (words[i - 1] === 'api' || words[i - 1] === 'secret' || words[i - 1] === 'private')) || w === 'apikey');
}

function secretField(value: unknown): string | null {
  if (value === null || typeof value !== 'object') return null;
  for (const [name, inner] of Object.entries(value)) {
    if (looksSecret(name)) return name;
    const deeper = secretField(inner);
    if (deeper !== null) return `${name}.${deeper}`;
  }
  return null;
}

/** The entry checked (a known action, no secret in its details) and its details as the JSON column holds them (null for none). */
export function auditRow(entry: AuditEntry): { actor: string; action: string; target: string; details: string | null; viaToken: string | null } {
  if (!isAuditAction(entry.action)) throw new StoreError('invalid', `"${String(entry.action)}" is not an audit action`);
  const field = secretField(entry.details ?? null);
  if (field !== null) throw new StoreError('invalid', `audit details must not hold secrets: the field "${field}" looks like one; nothing was changed`);
  const details = entry.details && Object.keys(entry.details).length > 0 ? JSON.stringify(entry.details) : null;
  return { actor: entry.actor, action: entry.action, target: entry.target, details, viaToken: entry.viaToken ?? null };
}

/** The query for `filter`, with `placeholder(n)` for the n-th parameter (1-based): "?" for SQLite, "$n" for PostgreSQL. */
export function auditSql(filter: AuditFilter, placeholder: (n: number) => string): { sql: string; params: SqlParam[] } {
  return newestFirstSql('SELECT * FROM audit_log', 'id', (p) => {
    const where: string[] = [];
    if (filter.actor !== undefined) where.push(`actor = ${p(filter.actor)}`);
    if (filter.action !== undefined) where.push(`action = ${p(filter.action)}`);
    if (filter.beforeId !== undefined) where.push(`id < ${p(filter.beforeId)}`);
    return where;
  }, filter.limit, placeholder);
}

/** The same test as the SQL, for the memory store. */
export function matchesAudit(filter: AuditFilter, row: AuditRecord): boolean {
  return (filter.actor === undefined || row.actor === filter.actor)
    && (filter.action === undefined || row.action === filter.action)
    && (filter.beforeId === undefined || row.id < filter.beforeId);
}

/** An audit_log row (both SQL stores; PostgreSQL gives BIGINT as text). */
export function toAudit(r: Record<string, unknown>): AuditRecord {
  const id = Number(r.id);
  const time = Number(r.time);
  const action = String(r.action);
  if (!Number.isSafeInteger(id) || !Number.isSafeInteger(time) || !isAuditAction(action)) {
    throw new StoreError('invalid', `the audit_log row ${String(r.id)} cannot be read (id, time or action damaged): repair that row`);
  }
  let details: Record<string, unknown> | null = null;
  if (r.details !== null && r.details !== undefined) {
    try {
      const parsed: unknown = JSON.parse(String(r.details));
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
      details = parsed as Record<string, unknown>;
    } catch {
      throw new StoreError('invalid', `the audit_log row ${id} has details that are not a JSON object: repair that row`);
    }
  }
  return { id, time, actor: String(r.actor), action, target: String(r.target), details, viaToken: r.via_token === null || r.via_token === undefined ? null : String(r.via_token) };
}
