/**
 * `model-gateway channel test NAME`: one minimal request (a one-token answer to "ping") to the
 * channel's upstream, as the relay would send it, with the status, the time it took and the
 * upstream's words (keys redacted), so an operator can tell a wrong key, URL or model name at once.
 */
import { DEFAULT_ANTHROPIC_VERSION, errorMessageOf, redactSecrets } from '../contract/index.ts';
import { messagesUrl } from './providers/anthropic/attempt.ts';
import { upstreamUrl } from './providers/openai/requestBody.ts';
import type { ChannelRecord } from './store/types.ts';
import { Agent, fetch } from 'undici';

export interface ChannelTestResult {
  readonly ok: boolean;
  readonly line: string;
}

export async function testChannel(channel: ChannelRecord, model: string, timeoutMs = 30_000): Promise<ChannelTestResult> {
  if (channel.type === 'echo' || channel.baseUrl === null) return { ok: true, line: `channel "${channel.name}" (echo) answers offline` };
  const upstreamModel = channel.models[model] ?? model;
  const anthropic = channel.type === 'anthropic';
  const target = anthropic ? messagesUrl(channel.baseUrl) : upstreamUrl(channel.baseUrl, 'chat');
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (anthropic) {
    headers['anthropic-version'] = DEFAULT_ANTHROPIC_VERSION;
    if (channel.apiKey) headers['x-api-key'] = channel.apiKey;
  } else if (channel.apiKey) headers['authorization'] = `Bearer ${channel.apiKey}`;
  const body = { model: upstreamModel, max_tokens: 1, messages: [{ role: 'user', content: 'ping' }] };
  const started = performance.now();
  const said = (text: string): string => redactSecrets(text, [channel.apiKey ?? undefined]);
  // A connection of its own: the test says how the upstream answers now, not what a pooled socket remembers.
  const agent = new Agent({ connections: 1 });
  try {
    const res = await fetch(target.origin + target.path, { method: 'POST', headers, body: JSON.stringify(body), signal: AbortSignal.timeout(timeoutMs), dispatcher: agent });
    const text = await res.text();
    const ms = Math.round(performance.now() - started);
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON: shown as text.
    }
    const where = `${channel.name} -> ${target.origin}${target.path} (model "${upstreamModel}")`;
    if (res.ok) return { ok: true, line: `OK ${res.status} in ${ms} ms: ${where}` };
    const reason = errorMessageOf(parsed) ?? text.slice(0, 300);
    return { ok: false, line: `FAILED ${res.status} in ${ms} ms: ${where}: ${said(reason)}` };
  } catch (error) {
    const ms = Math.round(performance.now() - started);
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { ok: false, line: `FAILED in ${ms} ms: ${channel.name} -> ${target.origin}: ${said(cause?.code ?? cause?.message ?? (error as Error).message)}` };
  } finally {
    await agent.close();
  }
}
