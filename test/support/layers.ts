/**
 * The architecture's arrows (DESIGN.md) as data, and the check of one import against them: the top
 * layers of src/, and inside src/gateway its sub-folders (files directly in src/gateway are the
 * composition root and may import any of them).
 */
import { dirname, join, relative, resolve, sep } from 'node:path';

export const LAYERS: Readonly<Record<string, readonly string[]>> = {
  contract: ['contract'],
  wire: ['contract', 'wire'],
  client: ['contract', 'wire', 'client'],
  gateway: ['contract', 'wire', 'gateway'],
  extension: ['contract', 'wire', 'client', 'extension', 'gateway'],
  // The web console runs in the browser: it talks to the gateway over the management API only.
  // The project's one SSE decoder (src/wire, which needs only the contract and runs in a browser) reads its streams.
  console: ['contract', 'wire', 'console'],
};

/** Inside src/gateway: which sub-folders each may import ('root' = a file directly in src/gateway). */
export const GATEWAY_PARTS: Readonly<Record<string, readonly string[]>> = {
  http: ['http'],
  store: ['store'],
  accounts: ['accounts', 'store'],
  relay: ['relay', 'http'],
  providers: ['providers', 'relay', 'http'],
  routes: ['routes', 'root', 'http', 'accounts', 'store', 'relay', 'console'],
  console: ['console'],
  // Prometheus metrics: counted from log rows, served on a listener of their own.
  metrics: ['metrics', 'store', 'http'],
};

function layerOf(src: string, path: string): string {
  return relative(src, path).split(sep)[0]!;
}

function gatewayPartOf(src: string, path: string): string {
  const parts = relative(join(src, 'gateway'), path).split(sep);
  return parts.length === 1 ? 'root' : parts[0]!;
}

/** Why `file` (under `src`) may not import `spec`, or null when it may. */
export function importViolation(src: string, file: string, spec: string): string | null {
  const layer = layerOf(src, file);
  const name = relative(src, file);
  if (spec === 'vscode') return layer === 'extension' ? null : `${name} imports vscode; only src/extension may`;
  if (!spec.startsWith('.')) return null;
  const target = resolve(dirname(file), spec);
  const targetLayer = layerOf(src, target);
  if (!LAYERS[layer]?.includes(targetLayer)) return `${name} (${layer}) must not import ${spec} (${targetLayer})`;
  if (layer === 'extension' && targetLayer === 'gateway' && relative(src, target) !== join('gateway', 'server.ts')) {
    return `${name}: the extension reaches the gateway only through src/gateway/server.ts`;
  }
  if (layer === 'gateway' && targetLayer === 'gateway') {
    const from = gatewayPartOf(src, file);
    const to = gatewayPartOf(src, target);
    const allowed = GATEWAY_PARTS[from];
    if (from !== 'root' && !allowed) return `${name}: src/gateway/${from}/ has no arrows declared in test/support/layers.ts`;
    if (allowed && !allowed.includes(to)) return `${name} (gateway/${from}) must not import ${spec} (gateway/${to})`;
  }
  return null;
}
