/**
 * Secrets a terminal shows, masked before its text goes to a model (no vscode import): on top of the API keys and
 * `Bearer` values every log is scrubbed of (contract/redact.ts), what `env`, `printenv`, a failed `curl -v` or a
 * cloud CLI print: variables named like secrets, passwords in URLs, well-known token formats and private keys.
 */
import { redactSecrets } from '../../contract/index.ts';

/** `NAME=value` or `name: value` where a part of the name says secret (GITHUB_TOKEN, DB_PASSWORD, aws_secret_access_key, apikey). */
const SECRET_VARIABLE = /\b((?:[A-Za-z0-9]+[_.-])*(?:api_?key|key|token|secret|password|passwd|pass|credentials?)(?:[_.-][A-Za-z0-9]+)*["']?\s*(?:=|:\s)\s*["']?)([^\s"']{4,})/gi;
/** `scheme://user:password@host`. */
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)([^\s@/]+)@/gi;
/** GitHub, GitLab, Slack, AWS access key ids, Google API keys, JWTs. */
const TOKENS = /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{20,}|xox[abpors]-[A-Za-z0-9-]{10,}|(?:AKIA|ASIA)[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35}|eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,})\b/g;
const PRIVATE_KEY = /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g;

export function maskSecrets(text: string, known: readonly (string | undefined)[] = []): string {
  return redactSecrets(text, known)
    .replace(PRIVATE_KEY, '[private key left out]')
    .replace(TOKENS, '****')
    .replace(URL_PASSWORD, '$1****@')
    .replace(SECRET_VARIABLE, (whole, name: string, value: string) => (value.startsWith('****') || value === 'sk-****' ? whole : `${name}****`));
}
