/**
 * `model-gateway serve`: starts the gateway on the data folder, prints what to do next, and stops
 * gracefully on SIGINT or SIGTERM (listened for from the start, so one during start-up is not lost).
 */
import { MAX_LOG_RETENTION_DAYS } from '../contract/index.ts';
import { int, listenHost, UsageError } from './cliArgs.ts';
import { describeDatabase } from './store/databaseUrl.ts';
import { ECHO_MODELS_BY_KIND } from './admin.ts';

/** MODEL_GATEWAY_ECHO_DELAY_MS: the echo model's pace for this server (tests and benchmarks set 0). */
function echoDelayOf(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env['MODEL_GATEWAY_ECHO_DELAY_MS'];
  const value = raw === undefined || raw.trim() === '' ? NaN : Number(raw);
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** MODEL_GATEWAY_LEASE_SECONDS: on PostgreSQL, a balance lease's life without renewal (tests shorten it; default 60). */
/** The token a scrape must send (MODEL_GATEWAY_METRICS_TOKEN): from the environment, never a flag (ps shows flags). */
function metricsTokenOf(env: NodeJS.ProcessEnv): string | undefined {
  const token = env['MODEL_GATEWAY_METRICS_TOKEN']?.trim();
  if (!token) return undefined;
  if (token.length < 16) throw new UsageError('MODEL_GATEWAY_METRICS_TOKEN must be at least 16 characters (for example: openssl rand -hex 24)');
  return token;
}

function leaseTtlOf(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env['MODEL_GATEWAY_LEASE_SECONDS'];
  const value = raw === undefined || raw.trim() === '' ? NaN : Number(raw);
  return Number.isFinite(value) && value >= 1 && value <= 3600 ? Math.round(value * 1000) : undefined;
}

/** serve's own flags, as given. */
export interface ServeFlags {
  readonly host: string | undefined;
  readonly port: string | undefined;
  readonly logRetentionDays: string | undefined;
  readonly stopGraceMs: string | undefined;
  /** Behind a reverse proxy: keys' IP allow-lists read the last address of X-Forwarded-For. */
  readonly trustProxy?: boolean | undefined;
  /** Prometheus metrics on a port of their own (and its address), as given. */
  readonly metricsPort?: string | undefined;
  readonly metricsHost?: string | undefined;
  /** The hardening limits (contract: slow clients, unbounded answers), as given. */
  readonly limits?: Readonly<Partial<Record<LimitFlag, string>>>;
}

/** serve's flags for the limits that hold hostile clients and upstreams: flag -> [option, default, min, max, unit in bytes]. */
export const LIMIT_FLAGS = {
  'request-deadline-ms': ['requestDeadlineMs', 30_000, 1_000, 3_600_000, 1],
  'max-connections': ['maxConnections', 10_000, 1, 1_000_000, 1],
  'body-memory-mb': ['bodyBudgetBytes', 256, 1, 65_536, 2 ** 20],
  'max-answer-mb': ['maxAnswerBytes', 64, 1, 4096, 2 ** 20],
  'max-event-kb': ['maxSseChars', 1024, 1, 1_048_576, 1024],
} as const;
export type LimitFlag = keyof typeof LIMIT_FLAGS;

/** The limits given, as startGateway's options (a flag left out keeps its default there). */
function limitOptions(given: ServeFlags['limits']): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [flag, [option, fallback, min, max, unit]] of Object.entries(LIMIT_FLAGS)) {
    const value = given?.[flag as LimitFlag];
    if (value !== undefined) out[option] = int(value, flag, fallback, min, max) * unit;
  }
  return out;
}

/** Where the data is: the SQLite folder, or a PostgreSQL database when its URL is given. */
export interface ServeStore {
  readonly dataDir: string;
  readonly databaseUrl: string | null;
}

export async function serve(values: ServeFlags, { dataDir, databaseUrl }: ServeStore, io: { readonly out: (line: string) => void; readonly err: (line: string) => void }, env: NodeJS.ProcessEnv): Promise<number> {
  // Loaded only here: the admin commands stay quick to start.
  const { startGateway } = await import('./server.ts');
  const echoDelayMs = echoDelayOf(env);
  const leaseTtlMs = leaseTtlOf(env);
  const port = int(values.port, 'port', 8080, 0, 65_535);
  if (values.metricsHost !== undefined && values.metricsPort === undefined) throw new UsageError('--metrics-host needs --metrics-port: the port Prometheus scrapes');
  // An empty --host (an unset "$HOST") would listen on every interface: the default is this machine only.
  const host = values.host === undefined ? '127.0.0.1' : listenHost(values.host, 'host');
  const metricsHost = values.metricsHost === undefined ? '127.0.0.1' : listenHost(values.metricsHost, 'metrics-host');
  const metricsPort = values.metricsPort === undefined ? undefined : int(values.metricsPort, 'metrics-port', 9464, 0, 65_535);
  if (metricsPort !== undefined && metricsPort !== 0 && metricsPort === port) throw new UsageError(`--metrics-port ${metricsPort} is the API's --port: give the metrics a port of their own`);
  const metricsToken = metricsTokenOf(env);
  // Listening for signals from the start: a SIGTERM while starting still ends in a graceful stop.
  let signalled: string | null = null;
  let wake = (): void => undefined;
  // A second Ctrl-C while stopping does not kill the gateway (its last logs, and their charges, would be lost):
  // the stop is bounded by --stop-grace-ms anyway.
  const onSignal = (signal: string): void => {
    if (signalled !== null) {
      io.err(`${signal}: already stopping (requests in flight get up to the grace to finish, then the last logs are written)`);
      return;
    }
    signalled = signal;
    wake();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let gw;
  try {
    gw = await startGateway({
      dataDir, databaseUrl, host, port, bootstrap: true, firstAdminSetup: true, log: io.err,
      // Given, the flag wins over the admins' setting log_retention_days; absent, the setting (default 90) applies.
      ...(values.logRetentionDays !== undefined ? { logRetentionDays: int(values.logRetentionDays, 'log-retention-days', 90, 0, MAX_LOG_RETENTION_DAYS) } : {}),
      stopGraceMs: int(values.stopGraceMs, 'stop-grace-ms', 5000, 0, 3_600_000), trustProxy: values.trustProxy === true, ...limitOptions(values.limits),
      ...(echoDelayMs !== undefined ? { echoDelayMs } : {}),
      ...(leaseTtlMs !== undefined ? { leaseTtlMs } : {}),
      ...(metricsPort !== undefined ? { metricsPort, metricsHost, ...(metricsToken ? { metricsToken } : {}) } : {}),
    });
  } catch (error) {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    const code = (error as NodeJS.ErrnoException).code;
    // The metrics listener starts after the API's: a refusal naming its port is about --metrics-port.
    const listening = error as { port?: unknown; address?: unknown };
    if (code === 'EADDRINUSE' && metricsPort !== undefined && metricsPort !== 0 && listening.port === metricsPort) {
      throw new UsageError(`--metrics-port ${metricsPort} is in use (another program listens there): choose another, or 0 for any free port`);
    }
    if (code === 'EADDRNOTAVAIL' && values.metricsHost !== undefined && listening.address === values.metricsHost && values.metricsHost !== values.host) {
      throw new UsageError(`--metrics-host ${values.metricsHost} is not an address of this machine`);
    }
    if (code === 'EADDRINUSE') throw new UsageError(`port ${port} is in use (another program listens there): try --port ${port + 1}, or --port 0 for any free port`);
    if (code === 'EADDRNOTAVAIL') throw new UsageError(`--host ${values.host} is not an address of this machine`);
    // A well-formed host name that the resolver does not know (or cannot look up now).
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
      const flag = values.metricsHost !== undefined && (error as { hostname?: unknown }).hostname === metricsHost && metricsHost !== host ? 'metrics-host' : 'host';
      throw new UsageError(`--${flag} ${flag === 'host' ? host : metricsHost}: no such host name here (${code}): give an IP address of this machine, or a name that resolves to one`);
    }
    throw error;
  }
  const where = databaseUrl === null ? dataDir : describeDatabase(databaseUrl);
  if (gw.bootstrapKey) {
    const { completion, embedding, image } = ECHO_MODELS_BY_KIND;
    io.out(`Bootstrapped ${where}: account "local" with $10.00, channel "echo" serving the offline models "echo" (chat), "${completion}", "${embedding}" and "${image}", key "default".`);
    io.out(`Your API key (shown once): ${gw.bootstrapKey}`);
  }
  io.out(`Model Gateway listening on ${gw.url} (store: ${gw.storeKind}, ${databaseUrl === null ? 'data' : 'database'}: ${where})`);
  if (gw.metricsUrl) io.out(`Prometheus metrics at ${gw.metricsUrl}${metricsToken ? ' (scrapes send MODEL_GATEWAY_METRICS_TOKEN as a Bearer token)' : ''}`);
  if (gw.setupUrl) {
    io.out(`No console admin yet. Create the first one in your browser (this link works once, for one hour; a restart prints a new one):`);
    io.out(`  ${gw.setupUrl}`);
    io.out(`  or from a terminal: model-gateway user create NAME --admin`);
  }
  io.out(`Next: open the console at ${gw.url}/ (with the key, or sign in as a user); OpenAI-style clients take the base URL ${gw.url}/v1 and the key. Try:`);
  // A model it serves: on a folder made with the CLI there may be no echo (and a curl answering 404 would mislead).
  const model = gw.chatModel ?? '<a model of: model-gateway model list>';
  io.out(`  curl ${gw.url}/v1/chat/completions -H "Authorization: Bearer ${gw.bootstrapKey ?? '<your key>'}" -H "Content-Type: application/json" -d '{"model":"${model}","messages":[{"role":"user","content":"hello"}]}'`);
  if (signalled === null) await new Promise<void>((resolve) => (wake = resolve));
  io.err(`${String(signalled)}: stopping gracefully`);
  try {
    await gw.stop();
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  io.err('stopped');
  return 0;
}
