/** The one object every register* function receives, built once at activation; every part is disposed with the extension. */
import * as vscode from 'vscode';
import { userAgent } from './connection/environment.ts';
import { GatewayConnection } from './connection/gatewayConnection.ts';
import { createLog } from './log/requestLog.ts';
import { ProfileService, readProfiles } from './profiles/profileService.ts';
import { keySecretName } from './profiles/profiles.ts';
import { ApiKeyStore } from './secrets/apiKeyStore.ts';
import { CodebaseIndex } from './codebase/codebaseIndex.ts';
import { ReviewProblems } from './review/reviewProblems.ts';
import { TerminalHistory } from './terminal/terminalHistory.ts';
import { ImageStorage } from './images/imageStorage.ts';
import { SettingsService } from './settings/settings.ts';
import type { Translate } from './translate.ts';

export interface ExtensionServices {
  readonly context: vscode.ExtensionContext;
  readonly settings: SettingsService;
  readonly apiKey: ApiKeyStore;
  /** Named gateways; the active one is what the settings and the key store hold. */
  readonly profiles: ProfileService;
  readonly connection: GatewayConnection;
  /** "Model Gateway" log channel; everything written to it is redacted. */
  readonly log: vscode.LogOutputChannel;
  /** `vscode.l10n.t`, for handing to the pure modules (explain, self-test report). */
  readonly t: Translate;
  /** The workspace's index for @gateway /codebase; null with no folder open (nowhere to keep it, nothing to index). */
  readonly codebase: CodebaseIndex | null;
  /** The findings of reviews of uncommitted changes, in the Problems panel. */
  readonly reviewProblems: ReviewProblems;
  /** The terminals' last commands (shell integration), for @gateway /terminal. */
  readonly terminals: TerminalHistory;
  /** Images drawn by /image and Generate Image…, until the user saves them. */
  readonly images: ImageStorage;
}

export function createServices(context: vscode.ExtensionContext): ExtensionServices {
  let connection: GatewayConnection | undefined;
  const log = createLog(() => connection?.secrets() ?? []);
  const settings = new SettingsService();
  // Profiles first: the key store reads the active profile's key from the start.
  const initialProfiles = readProfiles(context.globalState, settings);
  const apiKey = new ApiKeyStore(context.secrets, keySecretName(initialProfiles.active));
  // Before the connection, so that a switch made in another window is followed (key entry) before the connection
  // reads the new settings. A switch changes base URL and key together: the connection waits for both.
  const profiles = new ProfileService(context.globalState, settings, apiKey, initialProfiles, (change) => connection!.batch(change));
  connection = new GatewayConnection(settings, apiKey, log, userAgent(context));
  context.subscriptions.push(log, settings, apiKey, profiles, connection);
  const codebase = context.storageUri ? new CodebaseIndex(context.storageUri, log, () => settings.current.completionsExclude) : null;
  const reviewProblems = new ReviewProblems(context.workspaceState);
  context.subscriptions.push(reviewProblems);
  const terminals = new TerminalHistory();
  context.subscriptions.push(terminals);
  return { context, settings, apiKey, profiles, connection, log, t: vscode.l10n.t, codebase, reviewProblems, terminals, images: new ImageStorage(context.globalStorageUri) };
}
