/**
 * "Did the data change?" for the PostgreSQL store, answered without a query: the request path asks
 * on every keyed request, so the answer is a flag in memory. Three things set it:
 *   - this process's own admin writes (at once);
 *   - a NOTIFY on CHANGES_CHANNEL, which every admin write of any instance or CLI sends in its
 *     transaction (delivered at commit, so a change is seen within milliseconds);
 *   - a re-read of gateway_changes.version every RECHECK_MS, the safety net for a notification
 *     missed while the listening connection was down (it reconnects by itself).
 * Started lazily, on the first question: a one-shot CLI command never opens the listening connection.
 */
import pg from 'pg';
import { randomUUID } from 'node:crypto';

export const CHANGES_CHANNEL = 'model_gateway_changes';
/** The longest a change stays unseen should its notification be lost. */
export const RECHECK_MS = 1000;
const RECONNECT_MS = 1000;

/** Bumps the change version and notifies, in the caller's transaction (parameters: channel, sender). */
export const BUMP_AND_NOTIFY_SQL =
  'WITH bump AS (UPDATE gateway_changes SET version = version + 1 WHERE id = 1 RETURNING version) SELECT pg_notify($1, $2) FROM bump';

export class ChangeFeed {
  /** Names this process in its notifications, so that its own (already flagged) are not counted twice. */
  readonly sender = randomUUID();
  readonly #pool: pg.Pool;
  readonly #connection: pg.ClientConfig;
  readonly #log: (line: string) => void;
  #changed = true;
  #started = false;
  #closed = false;
  #listener: pg.Client | null = null;
  #timer: NodeJS.Timeout | null = null;
  #reconnect: NodeJS.Timeout | null = null;
  #version: string | null = null;
  #rereading = false;

  constructor(pool: pg.Pool, connection: pg.ClientConfig, log: (line: string) => void) {
    this.#pool = pool;
    this.#connection = connection;
    this.#log = log;
  }

  /** True when something may have changed since the last call; starts listening on the first call. */
  take(): boolean {
    if (!this.#started) this.#start();
    const changed = this.#changed;
    this.#changed = false;
    return changed;
  }

  /** This process changed the data. */
  markChanged(): void {
    this.#changed = true;
  }

  #start(): void {
    this.#started = true;
    this.#listen();
    void this.#reread();
    this.#timer = setInterval(() => void this.#reread(), RECHECK_MS);
    this.#timer.unref();
  }

  #listen(): void {
    if (this.#closed) return;
    const client = new pg.Client(this.#connection);
    this.#listener = client;
    const lost = (why: string): void => {
      if (this.#listener !== client || this.#closed) return;
      this.#listener = null;
      // Anything may have changed while nobody listened.
      this.#changed = true;
      this.#log(`the PostgreSQL change feed stopped (${why}); reconnecting (changes are still re-read every ${RECHECK_MS} ms)`);
      client.end().catch(() => undefined);
      this.#reconnect = setTimeout(() => this.#listen(), RECONNECT_MS);
      this.#reconnect.unref();
    };
    client.on('error', (error) => lost(error.message));
    client.on('end', () => lost('connection closed'));
    client.on('notification', (n) => {
      if (n.channel === CHANGES_CHANNEL && n.payload !== this.sender) this.#changed = true;
    });
    client.connect().then(
      () => client.query(`LISTEN ${CHANGES_CHANNEL}`),
    ).then(
      // Changes made between the loss and this LISTEN are covered: `lost` set the flag.
      () => undefined,
      (error: unknown) => lost(error instanceof Error ? error.message : String(error)),
    );
  }

  async #reread(): Promise<void> {
    if (this.#rereading || this.#closed) return;
    this.#rereading = true;
    try {
      const { rows } = await this.#pool.query<{ version: string }>('SELECT version FROM gateway_changes WHERE id = 1');
      const version = rows[0]?.version ?? null;
      // The first read is the baseline: a change committed before it may have escaped both the caller's
      // first snapshot and the notifications (LISTEN was not running yet), so it counts as a change too.
      if (version !== this.#version) this.#changed = true;
      this.#version = version;
    } catch {
      // The database is unreachable: the store's own calls say so; the next tick tries again.
    } finally {
      this.#rereading = false;
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearInterval(this.#timer);
    if (this.#reconnect) clearTimeout(this.#reconnect);
    const listener = this.#listener;
    this.#listener = null;
    await listener?.end().catch(() => undefined);
  }
}
