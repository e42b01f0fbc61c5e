/**
 * The web console's files, built once per test process (esbuild.js's own build, into dist/console),
 * so a console test run alone does not depend on an earlier `npm run build`.
 */
import { buildConsole } from '../../esbuild.js';

let built: Promise<{ js: string; css: string }> | undefined;

export function consoleBuilt(): Promise<{ js: string; css: string }> {
  built ??= buildConsole();
  return built;
}
