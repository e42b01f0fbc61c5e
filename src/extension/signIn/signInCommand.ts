/**
 * "Model Gateway: Sign In" (issue 14). On a gateway that advertises device sign-in (contract 4.11):
 * a code, shown with "Copy code" and "Open browser", the approval page opened in the browser, a
 * cancellable wait while deviceFlow.ts polls, and the key straight into SecretStorage (never the
 * clipboard, a URL, a setting or a log). Elsewhere (one-api, new-api): today's flow, the console opened
 * and the key pasted with Set API Key's checks.
 */
import { hostname } from 'node:os';
import * as vscode from 'vscode';
import { createDispatcher } from '../../client/index.ts';
import { proxySettings } from '../connection/gatewayConnection.ts';
import { COMMANDS } from '../ids.ts';
import type { ExtensionServices } from '../services.ts';
import { DeviceSignInError, findDeviceFlow, startDeviceSignIn, waitForKey } from './deviceFlow.ts';

/** Who asks, as the approver sees it (RFC 7591's client_name). */
const CLIENT_ID = 'model-gateway-vscode';

function clientName(): string {
  return `${vscode.env.appName.includes('Code') ? 'VS Code' : vscode.env.appName} on ${hostname()}`;
}

async function pasteKeyFlow(services: ExtensionServices): Promise<boolean> {
  const t = vscode.l10n.t;
  services.log.info('Sign In: the gateway offers no browser sign-in; opening its console for a key to paste.');
  const choice = await vscode.window.showInformationMessage(
    t("This gateway does not offer sign-in with the browser. Create an API key on its console's keys page, then paste it."),
    t('Open Console and Paste Key'),
  );
  if (!choice) return false;
  await vscode.commands.executeCommand(COMMANDS.openConsole);
  return (await vscode.commands.executeCommand<boolean>(COMMANDS.setApiKey)) === true;
}

export function registerSignInCommand(context: vscode.ExtensionContext, services: ExtensionServices): void {
  const t = vscode.l10n.t;
  context.subscriptions.push(
    vscode.commands.registerCommand(COMMANDS.signIn, async (): Promise<boolean> => {
      const root = services.connection.state.root;
      if (!root) {
        const choice = await vscode.window.showWarningMessage(t('Set the base URL of your gateway first.'), t('Set Base URL'));
        if (choice) await vscode.commands.executeCommand(COMMANDS.setBaseUrl);
        return false;
      }
      // The typed client's transport with VS Code's proxy settings (http.proxy, http.noProxy), as every other request.
      let dispatcher;
      let endpoints;
      try {
        dispatcher = createDispatcher(proxySettings());
        endpoints = await findDeviceFlow(root, { dispatcher });
      } catch (error) {
        await dispatcher?.close();
        void vscode.window.showErrorMessage(t('Cannot reach the gateway at {0}: {1}', root, error instanceof Error ? error.message : String(error)));
        return false;
      }
      if (!endpoints) {
        await dispatcher.close();
        return pasteKeyFlow(services);
      }
      try {
        const started = await startDeviceSignIn(endpoints, CLIENT_ID, clientName(), { dispatcher });
        const page = vscode.Uri.parse(started.verification_uri_complete ?? started.verification_uri);
        services.log.info('Sign In: waiting for the request to be approved in the browser.');
        await vscode.env.openExternal(page);
        const result = await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: t('Model Gateway: waiting for approval in the browser (code {0})', started.user_code), cancellable: true },
          async (_progress, token) => {
            const controller = new AbortController();
            const cancelled = token.onCancellationRequested(() => controller.abort());
            // The code with its buttons, beside the progress; a click answers and shows it again until the wait ends.
            let waiting = true;
            const offer = async (): Promise<void> => {
              while (waiting) {
                const choice = await vscode.window.showInformationMessage(t('Your sign-in code is {0}. Confirm it in the browser.', started.user_code), t('Copy code'), t('Open browser'));
                if (!waiting || choice === undefined) return;
                if (choice === t('Copy code')) await vscode.env.clipboard.writeText(started.user_code);
                else await vscode.env.openExternal(page);
              }
            };
            void offer();
            try {
              return await waitForKey(endpoints, started, {
                dispatcher,
                signal: controller.signal,
                onSlowDown: (seconds) => services.log.info(`Sign In: the gateway asked to poll every ${seconds} s.`),
              });
            } finally {
              waiting = false;
              cancelled.dispose();
            }
          },
        );
        await services.apiKey.set(result.key);
        await services.connection.reload();
        services.log.info(`Sign In: a new key${result.keyName ? ` "${result.keyName}"` : ''} was saved in secure storage.`);
        void vscode.window.showInformationMessage(
          result.keyName ? t('Signed in: the new key "{0}" is saved in secure storage.', result.keyName) : t('Signed in: the new key is saved in secure storage.'),
        );
        return true;
      } catch (error) {
        const kind = error instanceof DeviceSignInError ? error.kind : 'failed';
        const detail = error instanceof Error ? error.message : String(error);
        services.log.info(`Sign In ended without a key (${kind}): ${detail}`);
        if (kind === 'cancelled') void vscode.window.showInformationMessage(t('Sign-in cancelled. No key was saved.'));
        else if (kind === 'denied') void vscode.window.showWarningMessage(t('The sign-in was denied in the browser. No key was saved.'));
        else if (kind === 'expired') void vscode.window.showWarningMessage(t('The sign-in code expired before it was approved. Run Sign In again for a new code.'));
        else void vscode.window.showErrorMessage(t('Sign-in failed: {0}', detail));
        return false;
      } finally {
        await dispatcher.close();
      }
    }),
  );
}
