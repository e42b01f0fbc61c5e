/**
 * One scrape of a gateway's metrics: the requests counted so far (requestMetrics.ts) and what is true at
 * this moment (requests and connections open, whether the store writes, log rows not yet written, bodies
 * being received, channels skipped by the circuit breaker, the process's CPU and memory, the event loop's
 * delay since the last scrape).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { GATEWAY_VERSION } from '../../contract/index.ts';
import { EXPOSITION_TYPE, renderSampled, type Labels } from './exposition.ts';
import type { RequestMetrics } from './requestMetrics.ts';

export { EXPOSITION_TYPE };

/** The event-loop monitor's timer: a fine one would cost an idle gateway CPU of its own (1 ms: ~3% of a core here). */
const LOOP_RESOLUTION_MS = 20;

/** What is true of the gateway when it is scraped. */
export interface GatewayState {
  readonly store: string;
  readonly startedAt: number;
  readonly requestsInFlight: number;
  readonly connections: number;
  readonly storeWritable: boolean;
  readonly logRowsUnwritten: number;
  readonly bodyBytesReceiving: number;
  /** Every channel: whether it is enabled, and whether the circuit breaker skips it now. */
  readonly channels: ReadonlyArray<{ readonly name: string; readonly enabled: boolean; readonly skipped: boolean }>;
}

export class Scraper {
  readonly #requests: RequestMetrics;
  readonly #loop: ReturnType<typeof monitorEventLoopDelay>;

  constructor(requests: RequestMetrics) {
    this.#requests = requests;
    this.#loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
    this.#loop.enable();
  }

  text(state: GatewayState): string {
    const out: string[] = [];
    const one = (labels: Labels, value: number): Array<readonly [Labels, number]> => [[labels, value]];
    renderSampled(out, 'gauge', 'model_gateway_info', 'The gateway: its version and store (the value is always 1).', one({ version: GATEWAY_VERSION, store: state.store }, 1));
    renderSampled(out, 'gauge', 'model_gateway_start_time_seconds', 'When this gateway process started, in seconds since the epoch.', one({}, state.startedAt / 1000));
    renderSampled(out, 'gauge', 'model_gateway_requests_in_flight', 'Requests being answered now.', one({}, state.requestsInFlight));
    renderSampled(out, 'gauge', 'model_gateway_connections_open', 'Client connections open now.', one({}, state.connections));
    renderSampled(out, 'gauge', 'model_gateway_store_writable', '1 while the store writes; 0 while it cannot (billable requests are refused until it can).', one({}, state.storeWritable ? 1 : 0));
    renderSampled(out, 'gauge', 'model_gateway_log_rows_unwritten', 'Request log rows (and their charges) not yet written to the store.', one({}, state.logRowsUnwritten));
    renderSampled(out, 'gauge', 'model_gateway_request_body_bytes', 'Bytes of request bodies being received now.', one({}, state.bodyBytesReceiving));
    renderSampled(out, 'gauge', 'model_gateway_channel_enabled', '1 for an enabled channel, 0 for a disabled one.', state.channels.map((c) => [{ channel: c.name }, c.enabled ? 1 : 0] as const));
    renderSampled(out, 'gauge', 'model_gateway_channel_skipped', '1 while the circuit breaker skips the channel after failures in a row (it is tried again after a cool-down).', state.channels.map((c) => [{ channel: c.name }, c.skipped ? 1 : 0] as const));
    this.#requests.render(out);
    const cpu = process.cpuUsage();
    renderSampled(out, 'counter', 'process_cpu_seconds_total', 'CPU time of the process, user and system, in seconds.', one({}, (cpu.user + cpu.system) / 1e6));
    renderSampled(out, 'gauge', 'process_resident_memory_bytes', 'Resident memory of the process, in bytes.', one({}, process.memoryUsage.rss()));
    renderSampled(out, 'gauge', 'nodejs_heap_used_bytes', "The JavaScript heap's used bytes.", one({}, process.memoryUsage().heapUsed));
    const loop = this.#loop;
    // Node records each timer's whole interval: the delay is what it took beyond the resolution.
    const seconds = (ns: number): number => (Number.isFinite(ns) && loop.count > 0 ? Math.round(Math.max(0, ns / 1e3 - LOOP_RESOLUTION_MS * 1000)) / 1e6 : 0);
    renderSampled(out, 'gauge', 'model_gateway_event_loop_delay_seconds', "The event loop's delay since the last scrape (20 ms resolution): median, 99th percentile and most.", [
      [{ quantile: '0.5' }, seconds(loop.percentile(50))], [{ quantile: '0.99' }, seconds(loop.percentile(99))], [{ quantile: '1' }, seconds(loop.max)],
    ]);
    loop.reset();
    return `${out.join('\n')}\n`;
  }

  close(): void {
    this.#loop.disable();
  }
}
