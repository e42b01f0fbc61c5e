/** A CancellationToken as an AbortSignal, so the stop button aborts the HTTP request itself. */
import type * as vscode from 'vscode';

export interface TokenSignal {
  readonly signal: AbortSignal;
  dispose(): void;
}

export function signalFromToken(token: vscode.CancellationToken): TokenSignal {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  const subscription = token.onCancellationRequested(() => controller.abort());
  return { signal: controller.signal, dispose: () => subscription.dispose() };
}
