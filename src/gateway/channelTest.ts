/**
 * A channel test, the same from the CLI (`model-gateway channel test NAME`) and the admins' console: one
 * minimal request (a one-token answer to "ping") to the channel's upstream, as the relay would send it,
 * with the status, the time it took, the upstream's words (keys redacted) and, when it failed, the
 * contract's code the relay would give that failure, so an operator can tell a wrong key, URL or model
 * name at once.
 */
import { DEFAULT_ANTHROPIC_VERSION, errorMessageOf, channelSecrets, redactSecrets, shownUrl, type ErrorCode } from '../contract/index.ts';
import { messagesUrl } from './providers/anthropic/attempt.ts';
import { upstreamUrl } from './providers/openai/requestBody.ts';
import { classifyFailure, upstreamStatusCode } from './relay/failure.ts';
import type { ChannelRecord } from './store/types.ts';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface ChannelTestOutcome {
  readonly ok: boolean;
  /** The upstream's name for the model asked for. */
  readonly upstreamModel: string;
  /** The upstream's HTTP status; null when none came (no connection, no answer in time, an echo channel). */
  readonly status: number | null;
  readonly ms: number;
  /** The relay's code for this failure (upstream_error, upstream_rate_limited, upstream_timeout, upstream_unavailable); null when it worked. */
  readonly code: ErrorCode | null;
  /** What happened, in one line: the status, the time, where it went and the upstream's words. */
  readonly line: string;
}

/** Never aborted: a test's failure is never the client's. */
const NO_CLIENT = new AbortController().signal;
/** The most of an upstream's answer a test reads. */
const TEST_ANSWER_BYTES = 1024 * 1024;
/** The longest a test waits, whatever the channel's own timeout. */
const MAX_TEST_MS = 30_000;

/** The test of `channel` with `model`, waiting as long as the relay would (the channel's timeout), at most 30 s. */
export async function testChannel(channel: ChannelRecord, model: string, timeoutMs = Math.min(channel.timeoutMs, MAX_TEST_MS)): Promise<ChannelTestOutcome> {
  const upstreamModel = channel.models[model] ?? model;
  if (channel.type === 'echo' || channel.baseUrl === null) return { ok: true, upstreamModel, status: null, ms: 0, code: null, line: `channel "${channel.name}" (echo) answers offline` };
  const anthropic = channel.type === 'anthropic';
  const target = anthropic ? messagesUrl(channel.baseUrl) : upstreamUrl(channel.baseUrl, 'chat');
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (anthropic) {
    headers['anthropic-version'] = DEFAULT_ANTHROPIC_VERSION;
    if (channel.apiKey) headers['x-api-key'] = channel.apiKey;
  } else if (channel.apiKey) headers['authorization'] = `Bearer ${channel.apiKey}`;
  const body = { model: upstreamModel, max_tokens: 1, messages: [{ role: 'user', content: 'ping' }] };
  const started = performance.now();
  const said = (text: string): string => redactSecrets(text, channelSecrets(channel));
  try {
    const { status, text } = await post(target.origin + target.path, headers, JSON.stringify(body), timeoutMs);
    const ms = Math.round(performance.now() - started);
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON: shown as text.
    }
    // The address as channel list shows it: a key in its query (?key=...) masked.
    const where = `${channel.name} -> ${shownUrl(target.origin + target.path)} (model "${upstreamModel}")`;
    if (status >= 200 && status < 300) return { ok: true, upstreamModel, status, ms, code: null, line: `OK ${status} in ${ms} ms: ${where}` };
    const reason = errorMessageOf(parsed) ?? text.slice(0, 300);
    return { ok: false, upstreamModel, status, ms, code: upstreamStatusCode(status), line: `FAILED ${status} in ${ms} ms: ${where}: ${said(reason)}` };
  } catch (error) {
    const ms = Math.round(performance.now() - started);
    const code = (error as NodeJS.ErrnoException).code;
    const failed = classifyFailure(error, null, NO_CLIENT) === 'timeout' ? 'upstream_timeout' : 'upstream_unavailable';
    return { ok: false, upstreamModel, status: null, ms, code: failed, line: `FAILED in ${ms} ms: ${channel.name} -> ${shownUrl(target.origin)}: ${said(code ?? (error as Error).message)}` };
  }
}

/**
 * One POST on a connection of its own (no pool: the test says how the upstream answers now), with
 * node:http: the relay's undici parts have no fetch, and undici's whole index is not worth loading.
 */
function post(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<{ status: number; text: string }> {
  const send = url.startsWith('https:') ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, { method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(body) }, agent: false, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      const done = () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        bytes += chunk.length;
        // A one-token answer is a few hundred bytes: what comes beyond the cap is not read (nor held).
        if (bytes > TEST_ANSWER_BYTES) {
          res.destroy();
          done();
        }
      });
      res.on('end', done);
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' })));
    req.on('error', reject);
    req.end(body);
  });
}
