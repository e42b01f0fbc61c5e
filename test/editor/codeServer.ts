// startCodeServer(): one code-server (a real VS Code) on 127.0.0.1, port 0, with its own data folders,
// in its own process group. `stop()` ends the whole group, extension hosts included.
import { execFile } from 'node:child_process';
import { cpSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CodeServerInstall } from './install.ts';
import { installCodeServer } from './install.ts';
import { node24 } from './paths.ts';
import { spawnGroup, stopGroup } from './processes.ts';
import { GiveUp, poll } from '../support/poll.ts';

export type CodeServerOptions = {
  /** A name for the temp folder and the messages. */
  name?: string;
  /** Written to User/settings.json before start. */
  settings?: Record<string, unknown>;
  /** The folder to open; an empty one in the temp folder if not given. */
  workspace?: string;
  /** Extra environment for code-server and its extension host. */
  env?: Record<string, string>;
  /** .vsix files installed with `--install-extension` before start. */
  vsix?: string[];
  /** Extension folders copied into the extensions dir as `<publisher>.<name>-<version>`. */
  extensionFolders?: string[];
};

export type CodeServer = {
  url: string;
  port: number;
  root: string;
  userDataDir: string;
  extensionsDir: string;
  workspace: string;
  logPath: string;
  /** Rewrites User/settings.json; VS Code watches the file and applies the change. */
  writeSettings(settings: Record<string, unknown>): void;
  /** Changes some settings in User/settings.json (undefined removes one), keeping the others. */
  updateSettings(patch: Record<string, unknown>): void;
  /** Log files under the user-data logs folder whose name contains `name` (for example "Model Gateway"). */
  findLogs(name: string): string[];
  stop(): Promise<void>;
};

function run(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { env, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${file} ${args.join(' ')} failed: ${error.message}\n${stdout}\n${stderr}`));
      else resolve(stdout + stderr);
    });
  });
}

function walk(dir: string, out: string[] = []): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const entry of entries) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) walk(path, out);
    else out.push(path);
  }
  return out;
}

/**
 * Copies an unpacked extension into the extensions dir as `<publisher>.<name>-<version>`. Once
 * `--install-extension` has written extensions.json, VS Code loads only what that file lists, so
 * the copy is added to it as well.
 */
function copyExtensionFolder(folder: string, extensionsDir: string): void {
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { publisher: string; name: string; version: string };
  const relativeLocation = `${manifest.publisher}.${manifest.name}-${manifest.version}`;
  const target = join(extensionsDir, relativeLocation);
  cpSync(folder, target, { recursive: true });
  const listPath = join(extensionsDir, 'extensions.json');
  if (!existsSync(listPath)) return;
  const id = `${manifest.publisher}.${manifest.name}`;
  const list = (JSON.parse(readFileSync(listPath, 'utf8')) as { identifier: { id: string } }[]).filter((e) => e.identifier.id !== id);
  list.push({
    identifier: { id },
    version: manifest.version,
    location: { $mid: 1, fsPath: target, external: pathToFileURL(target).href, path: target, scheme: 'file' },
    relativeLocation,
    metadata: { installedTimestamp: Date.now(), source: 'resource' },
  } as { identifier: { id: string } });
  writeFileSync(listPath, JSON.stringify(list));
}

export async function startCodeServer(options: CodeServerOptions = {}, install?: CodeServerInstall): Promise<CodeServer> {
  const { entry } = install ?? (await installCodeServer());
  const name = options.name ?? 'editor';
  const root = mkdtempSync(join(tmpdir(), `mg-${name.replace(/[^a-z0-9-]/gi, '-')}-`));
  const userDataDir = join(root, 'user-data');
  const extensionsDir = join(root, 'extensions');
  const workspace = options.workspace ?? join(root, 'workspace');
  for (const dir of [userDataDir, join(userDataDir, 'User'), extensionsDir, workspace, join(root, 'home'), join(root, 'xdg-config'), join(root, 'xdg-data'), join(root, 'xdg-cache')]) {
    mkdirSync(dir, { recursive: true });
  }
  const settingsPath = join(userDataDir, 'User', 'settings.json');
  const writeSettings = (settings: Record<string, unknown>) => writeFileSync(settingsPath, JSON.stringify(settings, null, 2) + '\n');
  writeSettings(options.settings ?? {});

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: join(root, 'home'),
    XDG_CONFIG_HOME: join(root, 'xdg-config'),
    XDG_DATA_HOME: join(root, 'xdg-data'),
    XDG_CACHE_HOME: join(root, 'xdg-cache'),
    ...options.env,
  };
  // Leaking an npm script's variables into the editor only confuses the extension host.
  for (const key of Object.keys(env)) if (key.startsWith('npm_')) delete env[key];
  const dirs = ['--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];

  if (options.vsix?.length) {
    await run(node24, [entry, ...dirs, ...options.vsix.flatMap((v) => ['--install-extension', v])], env);
  }
  for (const folder of options.extensionFolders ?? []) copyExtensionFolder(folder, extensionsDir);

  const logPath = join(root, 'code-server.log');
  const log = createWriteStream(logPath);
  const child = spawnGroup(
    node24,
    [entry, '--bind-addr', '127.0.0.1:0', '--auth', 'none', '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', ...dirs, workspace],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  let exited: number | null | undefined;
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    log.write(chunk);
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  child.on('exit', (code) => {
    exited = code;
  });

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await stopGroup(child);
    log.end();
    // Failure artifacts are copied to test-results/ before this; MODEL_GATEWAY_EDITOR_KEEP=1 keeps the folder.
    if (!process.env.MODEL_GATEWAY_EDITOR_KEEP) rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  };

  try {
    const port = await poll(
      'code-server to listen',
      () => {
        if (exited !== undefined) throw new GiveUp(`code-server exited with ${exited}:\n${output}`);
        const match = /HTTP server listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
        return match ? Number(match[1]) : undefined;
      },
      60000,
    );
    const url = `http://127.0.0.1:${port}/`;
    await poll(
      'code-server /healthz',
      async () => (await fetch(new URL('healthz', url))).ok,
      60000,
    );
    return {
      url,
      port,
      root,
      userDataDir,
      extensionsDir,
      workspace,
      logPath,
      writeSettings,
      updateSettings: (patch) => {
        const current = JSON.parse(readFileSync(settingsPath, 'utf8')) as Record<string, unknown>;
        writeSettings({ ...current, ...patch });
      },
      findLogs: (logName: string) => walk(join(userDataDir, 'logs')).filter((p) => p.includes(logName)),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
