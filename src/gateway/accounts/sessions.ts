/**
 * Console sessions: a random id in an HttpOnly cookie, only its SHA-256 in the store. A session lasts
 * at most SESSION_LIFETIME_MS from sign-in (fixed: signing in again is the only way to extend it) and
 * ends sooner after SESSION_IDLE_MS without a request, on sign-out, when the user's password changes
 * or when the user is disabled (the store revokes those in the same step as the change).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { SessionRecord, Store, UserRecord } from '../store/types.ts';

export const SESSION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
export const SESSION_IDLE_MS = 24 * 60 * 60 * 1000;
/** Use is written at most this often per session: a page polling the API does not write on every read. */
const TOUCH_EVERY_MS = 60 * 1000;

/** 32 random bytes, base64url: what the cookie carries. */
export function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

export function hashSessionId(id: string): string {
  return createHash('sha256').update(id, 'utf8').digest('hex');
}

export interface LiveSession {
  readonly session: SessionRecord;
  readonly user: UserRecord;
}

export class Sessions {
  readonly #store: Store;
  readonly #now: () => number;

  constructor(store: Store, now: () => number = Date.now) {
    this.#store = store;
    this.#now = now;
  }

  /** A new session for `user`; returns the id for the cookie (the only place it exists). */
  async start(user: UserRecord): Promise<string> {
    const now = this.#now();
    // Ended sessions go as new ones come: the table holds about the live ones, with no timer.
    await this.#store.deleteEndedSessions(now, now - SESSION_IDLE_MS);
    const id = newSessionId();
    await this.#store.createSession({ idHash: hashSessionId(id), userId: user.id, createdAt: now, expiresAt: now + SESSION_LIFETIME_MS });
    return id;
  }

  /** The live session with this id and its (enabled) user, or null: unknown, expired, idle too long, revoked. */
  async resolve(id: string): Promise<LiveSession | null> {
    const session = await this.#store.findSession(hashSessionId(id));
    const now = this.#now();
    if (!session || session.revokedAt !== null || session.expiresAt <= now || session.lastSeenAt + SESSION_IDLE_MS <= now) return null;
    const user = await this.#store.findUser({ id: session.userId });
    if (!user || user.status !== 'enabled') return null;
    if (now - session.lastSeenAt >= TOUCH_EVERY_MS) await this.#store.touchSession(session.idHash, now);
    return { session, user };
  }

  async end(id: string): Promise<void> {
    await this.#store.revokeSession(hashSessionId(id), this.#now());
  }
}
