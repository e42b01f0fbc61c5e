/**
 * THE public entry of the gateway (the only file the VS Code extension may import):
 * start a server on an embedded store, get its address, stop it gracefully.
 */
import { join } from 'node:path';
import { createServer } from 'node:http';
import { Server as NetServer, type AddressInfo } from 'node:net';
import { Ledger } from './accounts/ledger.ts';
import { Leases } from './accounts/leases.ts';
import { SharedLimits } from './accounts/sharedLimits.ts';
import { KeyUsage } from './accounts/keyUsage.ts';
import { bootstrapIfEmpty, ECHO_MODEL, issueKey as issueNamedKey } from './admin.ts';
import { createApp, ROUTES, type App } from './app.ts';
import { DEFAULT_BODY_BUDGET_BYTES, DEFAULT_MAX_BODY_BYTES, DEFAULT_REQUEST_DEADLINE_MS } from './http/body.ts';
import { BodyBudget, BodyDeadlines } from './http/bodyBudget.ts';
import { Catalog } from './catalog.ts';
import type { Gateway } from './gateway.ts';
import { LogWriter } from './logs.ts';
import { ConcurrencyLimiter, RateLimiter } from './ratelimit.ts';
import { PROVIDERS } from './providers/index.ts';
import { createRelay } from './relay/index.ts';
import { ChannelHealth } from './relay/health.ts';
import { DEFAULT_MAX_ANSWER_BYTES } from './relay/attempt.ts';
import { DEFAULT_MAX_SSE_CHARS } from '../wire/sse.ts';
import { UpstreamPools } from './relay/pools.ts';
import { Serial } from './serial.ts';
import { answerMalformedRequest, type RefusedRequest } from './http/malformedRequest.ts';
import { logRefusedRequest } from './context.ts';
import { DEFAULT_DATA_DIR, openAnyStore } from './store/index.ts';
import { DiskSpare, SPARE_FILE } from './store/diskSpare.ts';
import type { StoreKind } from './store/types.ts';
import { lockFolder } from './folderLock.ts';
import { keepLogsFor } from './logRetention.ts';
import { retentionDays } from './settings.ts';
import { Sessions } from './accounts/sessions.ts';
import { SignInThrottle } from './accounts/signInThrottle.ts';
import { SetupLink, setupUrl } from './accounts/setupLink.ts';
import { DeviceGrants } from './accounts/deviceGrants.ts';
import { RequestMetrics } from './metrics/requestMetrics.ts';
import { Scraper } from './metrics/scrape.ts';
import { listenForScrapes, type MetricsListener } from './metrics/metricsServer.ts';
import { promisify } from 'node:util';

/** An error of the gateway's own code, as the operator's log says it: the request it came in, its stack. */
function internalError(error: unknown, requestId: string): string {
  return `internal error (request id: ${requestId}): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
}

/** The offline `echo` model's pace: slow enough to watch a stream, fast enough for tests. */
export const DEFAULT_ECHO_DELAY_MS = 15;

export interface GatewayOptions {
  /** Folder of the SQLite store (gateway.db). Default ./.model-gateway. */
  dataDir?: string;
  /** Run on this PostgreSQL database (postgres://user:password@host:5432/db) instead of the data folder's SQLite. */
  databaseUrl?: string | null;
  /** Where MODEL_GATEWAY_SECRET_KEY is read (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Run on an in-memory store (nothing persists). */
  inMemory?: boolean;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 8080; 0 picks a free port. */
  port?: number;
  /** On an empty store, create account `local` ($10), an `echo` channel and model, and key `default` (returned as bootstrapKey). */
  bootstrap?: boolean;
  /** Ensure the bootstrap account, replace any key of this name with a fresh one, return its secret as issuedKey. */
  issueKey?: string;
  /** When node:sqlite cannot be loaded, run on memory (storeKind 'memory') instead of failing. */
  fallbackToMemory?: boolean;
  /** Receives one line per notable event (never a secret). */
  log?: (line: string) => void;
  /** Largest accepted request body. Default 16 MiB. */
  maxBodyBytes?: number;
  /** The whole request (headers and body) must arrive within this; else 408. Default 30 s. */
  requestDeadlineMs?: number;
  /** Memory for all request bodies being received at once; beyond it 503 with Retry-After. Default 256 MiB. */
  bodyBudgetBytes?: number;
  /** Open connections at most; more are refused at once. Default 10,000. */
  maxConnections?: number;
  /** How long stop() waits for requests in flight before aborting them. Default 5000 ms. */
  stopGraceMs?: number;
  /** Milliseconds between two tokens of the offline `echo` model. Default 15. */
  echoDelayMs?: number;
  /** Failures in a row after which a channel is skipped for a cool-down (circuit breaker). Default 3; 0 never skips. */
  breakerFailures?: number;
  /** Requests without a valid key logged in full per source address and minute (the rest are counted). Default 10. */
  unkeyedLogSample?: number;
  /**
   * Request logs older than this many days are deleted in the background; 0 keeps them all. Given, it wins
   * over the admins' setting log_retention_days; absent, the setting applies (default 90).
   */
  logRetentionDays?: number;
  /** Largest JSON answer taken from an upstream (bytes). Default 64 MiB; beyond it 502. */
  maxAnswerBytes?: number;
  /** Longest line or event taken from an upstream stream (characters). Default 1 MiB; beyond it the stream ends in an error. */
  maxSseChars?: number;
  /** When the store has no admin user, make a one-time setup link for the first one (returned as setupUrl, to be shown once). */
  firstAdminSetup?: boolean;
  /** PostgreSQL: a balance lease's life without renewal (a dead instance's money returns within about this). Default 60 s. */
  leaseTtlMs?: number;
  /** The console's clock (sessions, sign-in throttling, the setup link's expiry, device sign-ins) and the keys' periods and days: tests move it. Default Date.now. */
  clock?: () => number;
  /** Behind a reverse proxy: a request's address (for keys' IP allow-lists) is the last one in X-Forwarded-For. Default false: the socket's. */
  trustProxy?: boolean;
  /** Serve Prometheus metrics (GET /metrics) on this port of its own (0 picks a free one). Absent: no metrics are kept. */
  metricsPort?: number;
  /** The metrics listener's address. Default 127.0.0.1, whatever `host` is: the metrics name models and channels. */
  metricsHost?: string;
  /** A scrape must send this as its Bearer token (MODEL_GATEWAY_METRICS_TOKEN); absent: none is asked for. */
  metricsToken?: string;
}

export interface RunningGateway {
  /** http://host:port */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly storeKind: StoreKind;
  /** Secret of the key created when this start bootstrapped an empty store (shown once). */
  readonly bootstrapKey?: string;
  /** Secret of the key made by `issueKey`. */
  readonly issuedKey?: string;
  /** The first-admin setup link (firstAdminSetup, no admin yet): the console's address with a one-time token in its #fragment. */
  readonly setupUrl?: string;
  /** Where Prometheus scrapes this gateway (metricsPort given): http://host:port/metrics. */
  readonly metricsUrl?: string;
  /** A chat model it serves as it starts (`echo` when served), for the first request an operator tries; null: none. */
  readonly chatModel: string | null;
  /** Graceful: stop accepting, wait for (then abort) requests in flight, flush logs, close the store. */
  stop(): Promise<void>;
}

/** How long a stopping gateway with nothing in flight waits for a request already sent on a kept-alive connection. */
const QUIET_MS = 100;
/** How long after the stop began a keep-alive connection with no request is closed, while others drain. */
const IDLE_CLOSE_MS = 500;

function firstChatModel(catalog: Catalog): string | null {
  const chat = catalog.servable().filter((m) => m.model.kind === 'chat').map((m) => m.name);
  return chat.includes(ECHO_MODEL) ? ECHO_MODEL : (chat.sort()[0] ?? null);
}

/** Resolves when `jobs` have all settled or `ms` have passed, whichever is first (the timer cleared either way). */
async function settledWithin(jobs: readonly Promise<unknown>[], ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const elapsed = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  await (jobs.length > 0 ? Promise.race([Promise.allSettled(jobs), elapsed]) : elapsed);
  clearTimeout(timer);
}

/** A gateway without a socket: its request handler, for a server of the caller's (or an in-process test). */
export interface GatewayInstance {
  readonly handle: App['handle'];
  readonly storeKind: StoreKind;
  readonly bootstrapKey?: string;
  readonly issuedKey?: string;
  /** The setup link's token (firstAdminSetup, no admin yet). */
  readonly setupToken?: string;
  /** A chat model served as it starts (`echo` when served); null: none. */
  readonly chatModel: string | null;
  /** Waits for requests in flight, late ones on open connections too, up to `graceMs`, then aborts the rest. */
  drain(graceMs: number): Promise<void>;
  /** Flushes the logs, closes the store and the upstream pools. Call after drain. */
  close(): Promise<void>;
  /** Logs a request the HTTP parser refused before the app saw it (sampled like other requests without a key). */
  logRefused(refused: RefusedRequest): void;
  /** The metrics in Prometheus' text format, with `connections` open now (present when metrics are kept). */
  readonly metricsText?: (connections: number) => string;
}

/** Builds a gateway on its store (bootstrapping it if asked), ready to handle requests. */
export async function createGateway(options: GatewayOptions = {}): Promise<GatewayInstance> {
  const log = options.log ?? (() => undefined);
  const store = await openAnyStore({
    ...(options.dataDir !== undefined ? { dataDir: options.dataDir } : {}),
    ...(options.inMemory !== undefined ? { inMemory: options.inMemory } : {}),
    ...(options.fallbackToMemory !== undefined ? { fallbackToMemory: options.fallbackToMemory } : {}),
    ...(options.env !== undefined ? { env: options.env } : {}),
    databaseUrl: options.inMemory ? null : (options.databaseUrl ?? null),
    log,
  });
  if (store.kind === 'memory' && !options.inMemory) log('node:sqlite is not available here: running on an in-memory store (nothing persists)');
  try {
    const bootstrapKey = options.bootstrap ? await bootstrapIfEmpty(store) : null;
    const issuedKey = options.issueKey !== undefined ? await issueNamedKey(store, options.issueKey) : null;
    const clock = options.clock ?? Date.now;
    const setup = options.firstAdminSetup && !(await store.listUsers()).some((u) => u.admin) ? SetupLink.issue(clock) : null;

    const pools = new UpstreamPools();
    const health = new ChannelHealth(log, options.breakerFailures);
    // On a store several instances share, requests spend from balance leases (docs/multi-instance.md).
    const ledger = new Ledger({ leased: store.leases !== undefined });
    const serial = new Serial();
    const leases = store.leases ? new Leases(store.leases, ledger, { serial: (job) => serial.run(job), log, ...(options.leaseTtlMs !== undefined ? { ttlMs: options.leaseTtlMs } : {}) }) : null;
    const catalog = new Catalog(store, ledger, serial);
    await catalog.refresh();
    // A folder restored without its secret.key (or run with another MODEL_GATEWAY_SECRET_KEY) serves on, without those channels.
    for (const c of catalog.channels) {
      if (c.unreadable) log(`channel "${c.name}" serves nothing: its ${c.unreadable.join(', ')} was sealed with another secret key. Give it again: model-gateway channel update ${c.name} --api-key - (and --base-url or --proxy if they held a secret), or restore the secret.key it was sealed with`);
    }
    leases?.start();
    // Keys' rpm and concurrency across the instances on the database; in memory otherwise (unchanged, no new work per request).
    const shared = store.keyLimits ? new SharedLimits(store.keyLimits, log) : null;
    shared?.start();
    const logs = new LogWriter(store, ledger, serial, (error) => log(`request logs cannot be written (${String(error)}): billable requests are refused until writes work again; retrying`), log, options.unkeyedLogSample);
    if (store.kind === 'sqlite') logs.keepSpare(new DiskSpare(join(options.dataDir ?? DEFAULT_DATA_DIR, SPARE_FILE)));
    // Keys' own spending, requests per day and tokens per minute: exact in memory; re-read every second where instances share the store.
    const usage = new KeyUsage(store, {
      serial: (job) => serial.run(job), unwritten: (keyId, sinceMs, day) => logs.unwritten(keyId, sinceMs, day), clock, log, refreshMs: store.leases ? 1000 : 0,
    });
    if (store.leases) logs.onWritten = (written) => usage.written(written);
    catalog.onKeys = (keys, removed) => usage.keysChanged(keys, removed);
    usage.start();
    const gw: Gateway = {
      store, catalog, ledger, leases, serial, logs, usage, trustProxy: options.trustProxy ?? false,
      rate: shared ?? new RateLimiter(),
      concurrency: shared ?? new ConcurrencyLimiter(),
      relay: createRelay(PROVIDERS, {
        pools,
        echoDelayMs: options.echoDelayMs ?? DEFAULT_ECHO_DELAY_MS,
        limits: { answerBytes: options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES, sseChars: options.maxSseChars ?? DEFAULT_MAX_SSE_CHARS },
        onFault: (error, requestId) => log(internalError(error, requestId)),
        // A refused key fails every request: the channel is disabled (in the store, so `channel list` shows it) until fixed.
        onKeyRefused: (channel, detail) => {
          store.setChannelStatus(channel.name, 'disabled').then(
            () => log(`channel "${channel.name}" disabled: ${detail}. Fix its key, then: model-gateway channel enable ${channel.name}`),
            (error: unknown) => log(`channel "${channel.name}" refused its key but could not be disabled: ${String(error)}`),
          );
        },
      }, health),
      health,
      startedAt: Date.now(),
      body: {
        maxBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
        deadlineMs: options.requestDeadlineMs ?? DEFAULT_REQUEST_DEADLINE_MS,
        budget: new BodyBudget(options.bodyBudgetBytes ?? DEFAULT_BODY_BUDGET_BYTES),
        // Checked a few times per deadline: a late body is answered at most a quarter of it late.
        deadlines: new BodyDeadlines(Math.max(50, Math.min(1000, Math.floor((options.requestDeadlineMs ?? DEFAULT_REQUEST_DEADLINE_MS) / 4)))),
      },
      console: {
        sessions: new Sessions(store, clock), throttle: new SignInThrottle(clock), setup: setup?.link ?? null,
        devices: new DeviceGrants(clock), userCodeThrottle: new SignInThrottle(clock), redeemThrottle: new SignInThrottle(clock), signUpThrottle: new SignInThrottle(clock),
      },
      logRetentionDays: options.logRetentionDays ?? null,
    };
    // Kept only when asked for: a gateway without metrics pays nothing per request for them.
    const scraper = options.metricsPort === undefined ? null : new Scraper(gw.logs.metrics = new RequestMetrics({
      endpoints: new Set(Object.keys(ROUTES).filter((path) => path.startsWith('/v1/'))),
      knownModel: (name) => catalog.lookup(name).kind !== 'unknown',
    }));
    const app = createApp(gw, (error, requestId) => log(internalError(error, requestId)));
    // The setting as of now (a change by another instance or the CLI is reloaded first).
    const stopPruning = keepLogsFor(store, async () => {
      await catalog.refresh();
      return retentionDays(catalog.settings, gw.logRetentionDays);
    }, log);
    return {
      handle: app.handle,
      logRefused: (refused) => logRefusedRequest(gw.logs, refused, gw.usage.now()),
      storeKind: store.kind,
      chatModel: firstChatModel(catalog),
      ...(bootstrapKey ? { bootstrapKey } : {}),
      ...(issuedKey ? { issuedKey } : {}),
      ...(setup ? { setupToken: setup.token } : {}),
      ...(scraper ? {
        metricsText: (connections: number) => scraper.text({
          store: store.kind, startedAt: gw.startedAt, requestsInFlight: app.inFlight.size, connections, storeWritable: gw.logs.durable,
          logRowsUnwritten: gw.logs.queued, bodyBytesReceiving: gw.body.budget.used,
          channels: catalog.channels.map((c) => ({ name: c.name, enabled: c.status === 'enabled', skipped: (health.view(c.id)?.openUntil ?? 0) > Date.now() })),
        }),
      } : {}),
      async drain(graceMs) {
        app.closeConnectionsAfterAnswers();
        const deadline = performance.now() + graceMs;
        for (;;) {
          const left = deadline - performance.now();
          if (left <= 0) break;
          if (app.inFlight.size > 0) {
            await settledWithin([...app.inFlight], left);
            continue;
          }
          // Nothing in flight: a client whose kept-alive answer has just ended may be sending its next request on
          // that connection. It gets its 503 gateway_stopping (and the connection closes), not a reset socket.
          await settledWithin([], Math.min(QUIET_MS, left));
          if (app.inFlight.size === 0) break;
        }
        app.abortAll();
        await Promise.allSettled([...app.inFlight]);
      },
      async close() {
        stopPruning();
        scraper?.close();
        await usage.close();
        await gw.logs.close();
        await shared?.close().catch((error: unknown) => log(`key limit shares could not be handed back (${String(error)}): they lapse in 3 s`));
        // After the last log batch settled from them: what the leases still hold goes back.
        await leases?.close().catch((error: unknown) => log(`balance leases could not be handed back (${String(error)}): they return when they expire`));
        await store.close();
        await pools.close();
      },
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}

/** Starts a gateway on host:port. */
export async function startGateway(options: GatewayOptions = {}): Promise<RunningGateway> {
  // One serving process per data folder (SQLite); any number on one PostgreSQL database, which share
  // balances through leases (docs/multi-instance.md).
  const onDatabase = !options.inMemory && Boolean(options.databaseUrl);
  const lock = options.inMemory || onDatabase ? null : lockFolder(options.dataDir ?? DEFAULT_DATA_DIR);
  let gateway;
  try {
    gateway = await createGateway(options);
  } catch (error) {
    lock?.release();
    throw error;
  }
  const deadlineMs = options.requestDeadlineMs ?? DEFAULT_REQUEST_DEADLINE_MS;
  // Headers within the request deadline (Node answers a late one through clientError: our 408); the body's clock is readBody's.
  const server = createServer(
    { requestTimeout: 0, headersTimeout: deadlineMs, connectionsCheckingInterval: Math.max(50, Math.min(30_000, Math.floor(deadlineMs / 4))) },
    gateway.handle,
  );
  server.maxConnections = options.maxConnections ?? 10_000;
  server.on('clientError', (error: Error, socket) => answerMalformedRequest(error, socket, gateway.logRefused));
  // An Expect other than 100-continue: Node's own answer would be a bare 417 without the error body, the request id or a
  // log row. The request is served as if it had none (RFC 9110 lets a server ignore an expectation it does not know).
  server.on('checkExpectation', gateway.handle);
  const host = options.host ?? '127.0.0.1';
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 8080, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await gateway.close();
    lock?.release();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  let metrics: MetricsListener | null = null;
  const { metricsText } = gateway;
  if (metricsText) {
    const connections = promisify(server.getConnections.bind(server));
    try {
      metrics = await listenForScrapes(options.metricsHost ?? '127.0.0.1', options.metricsPort ?? 0, options.metricsToken ?? null, async () => metricsText(await connections()), (error) => options.log?.(`metrics could not be gathered: ${String(error)}`));
    } catch (error) {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await gateway.close();
      lock?.release();
      throw error;
    }
  }
  lock?.listening(`http://${urlHost}:${port}`);

  let stopping: Promise<void> | null = null;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      // No new connection. Open ones stay until the drain ends: answers from now on say "Connection: close",
      // and a request a client sends meanwhile on a kept-alive connection gets 503 gateway_stopping, not a reset.
      // (net.Server's close: http.Server's would first close every idle connection, racing clients' next requests.)
      const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
      // Connections still idle a moment later are closed (a client about to reuse one has had its 503): a drain
      // that waits on long requests does not hold idle keep-alive connections open for all of it.
      const idle = setTimeout(() => server.closeIdleConnections(), IDLE_CLOSE_MS);
      await gateway.drain(options.stopGraceMs ?? 5000);
      clearTimeout(idle);
      server.closeAllConnections();
      await closed;
      await metrics?.close();
      await gateway.close();
      lock?.release();
    })();
    return stopping;
  };

  return {
    url: `http://${urlHost}:${port}`,
    host,
    port,
    storeKind: gateway.storeKind,
    chatModel: gateway.chatModel,
    ...(gateway.bootstrapKey ? { bootstrapKey: gateway.bootstrapKey } : {}),
    ...(gateway.issuedKey ? { issuedKey: gateway.issuedKey } : {}),
    ...(gateway.setupToken ? { setupUrl: setupUrl(`http://${urlHost}:${port}`, gateway.setupToken) } : {}),
    ...(metrics ? { metricsUrl: metrics.url } : {}),
    stop,
  };
}
