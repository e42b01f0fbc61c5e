/**
 * The "Model Gateway" log channel. Every message written through the channel this module
 * returns is redacted first (sk- keys, Bearer values, the current key), so no caller can leak
 * the key by logging an error or a request. One line per request comes from the client's
 * onResponse hook via logRequest().
 */
import * as vscode from 'vscode';
import { redactSecrets } from '../../contract/index.ts';
import { formatRequestLine } from './redact.ts';
import type { RequestRecord } from './redact.ts';

export const LOG_CHANNEL_NAME = 'Model Gateway';

const LOG_METHODS = new Set(['trace', 'debug', 'info', 'warn', 'error', 'append', 'appendLine', 'replace']);

function redactArg(arg: unknown, secrets: readonly (string | undefined)[]): unknown {
  if (typeof arg === 'string') return redactSecrets(arg, secrets);
  if (arg instanceof Error) {
    const copy = new Error(redactSecrets(arg.message, secrets));
    copy.name = arg.name;
    copy.stack = arg.stack === undefined ? undefined : redactSecrets(arg.stack, secrets);
    return copy;
  }
  return arg;
}

/**
 * Create the channel. `knownSecrets` returns the exact secrets to scrub (the current key),
 * so a key that does not look like `sk-...` is still never written.
 */
export function createLog(knownSecrets: () => readonly (string | undefined)[]): vscode.LogOutputChannel {
  const channel = vscode.window.createOutputChannel(LOG_CHANNEL_NAME, { log: true });
  return new Proxy(channel, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof property !== 'string' || typeof value !== 'function') return value;
      if (!LOG_METHODS.has(property)) return value.bind(target);
      return (...args: unknown[]) => (value as (...a: unknown[]) => unknown).apply(target, args.map((arg) => redactArg(arg, knownSecrets())));
    },
  });
}

/** One line per finished request: warnings for refused or failed ones. */
export function logRequest(log: vscode.LogOutputChannel, record: RequestRecord): void {
  const line = formatRequestLine(record);
  const failed = record.error !== undefined && record.error !== null;
  if (failed || (typeof record.status === 'number' && record.status >= 400)) log.warn(line);
  else log.info(line);
}
