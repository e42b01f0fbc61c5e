/**
 * The failure before any request: no base URL, an unusable base URL, or no API key.
 * It says what is missing and which command fixes it (no vscode import).
 */

import { COMMANDS } from '../ids.ts';

export type MissingPart = 'baseUrl' | 'apiKey';

export class NotConfiguredError extends Error {
  readonly code = 'not_configured';
  readonly missing: readonly MissingPart[];
  /** Why the configured base URL cannot be used (the client's words), when that is the problem. */
  readonly baseUrlProblem: string | null;
  /** The command that fixes the first missing part. */
  readonly command: string;

  constructor(missing: readonly MissingPart[], baseUrlProblem: string | null = null) {
    const parts: string[] = [];
    if (missing.includes('baseUrl')) {
      parts.push(baseUrlProblem ?? 'No base URL is set (setting modelGateway.baseUrl). Run "Model Gateway: Set Base URL" or "Model Gateway: Start Local Gateway".');
    }
    if (missing.includes('apiKey')) parts.push('No API key is set. Run "Model Gateway: Set API Key".');
    super(`Model Gateway is not configured. ${parts.join(' ')}`);
    this.name = 'NotConfiguredError';
    this.missing = [...missing];
    this.baseUrlProblem = baseUrlProblem;
    this.command = missing.includes('baseUrl') ? COMMANDS.setBaseUrl : COMMANDS.setApiKey;
  }
}

export function isNotConfiguredError(error: unknown): error is NotConfiguredError {
  return error instanceof NotConfiguredError || (typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'not_configured' && Array.isArray((error as { missing?: unknown }).missing));
}
