/**
 * Inline completions in the editor: the provider for every language, the status bar item, and the toggle
 * command. Registering is cheap (no request, no file read): the first keystroke in an enabled language does
 * the first work. The route each model answers (FIM or chat) is kept in globalState, per gateway and model.
 */
import * as vscode from 'vscode';
import { COMMANDS } from '../ids.ts';
import type { ExtensionServices } from '../services.ts';
import { CompletionEngine } from './engine.ts';
import { toggledSwitches } from './enablement.ts';
import { GatewayInlineCompletionProvider } from './provider.ts';
import type { CompletionRoute, RouteMemory } from './route.ts';
import { CompletionStatusBar } from './statusBar.ts';

const ROUTES_KEY = 'modelGateway.completionRoutes';

/** The remembered routes: read from globalState once, written back on every change. */
function routesInGlobalState(state: vscode.Memento): RouteMemory {
  const stored = state.get<Record<string, unknown>>(ROUTES_KEY) ?? {};
  const routes = new Map<string, CompletionRoute>();
  for (const [key, route] of Object.entries(stored)) if (route === 'fim' || route === 'chat') routes.set(key, route);
  return {
    get: (key) => routes.get(key),
    set: (key, route) => {
      if (routes.get(key) === route) return;
      routes.set(key, route);
      void state.update(ROUTES_KEY, Object.fromEntries(routes));
    },
  };
}

export interface InlineCompletions {
  readonly status: CompletionStatusBar;
  readonly engine: CompletionEngine;
  /** The provider VS Code asks (for tests that ask it as VS Code does). */
  readonly provider: GatewayInlineCompletionProvider;
}

export function registerInlineCompletions(context: vscode.ExtensionContext, services: ExtensionServices): InlineCompletions {
  const engine = new CompletionEngine(routesInGlobalState(context.globalState));
  const status = new CompletionStatusBar(services);
  const provider = new GatewayInlineCompletionProvider(services, engine, status);
  context.subscriptions.push(
    status,
    provider,
    vscode.languages.registerInlineCompletionItemProvider({ pattern: '**' }, provider),
    // Another model or gateway answers differently: cached answers go.
    services.settings.onDidChange(() => engine.clearCache()),
    services.connection.onDidChange(() => engine.clearCache()),
    vscode.commands.registerCommand(COMMANDS.toggleCompletions, async () => {
      const settings = services.settings.current;
      if (settings.completionModel === '') {
        await vscode.commands.executeCommand(COMMANDS.pickCompletionModel);
        return;
      }
      const { missing } = services.connection.state;
      if (missing.length > 0) {
        await vscode.commands.executeCommand(missing.includes('baseUrl') ? COMMANDS.setBaseUrl : COMMANDS.setApiKey);
        return;
      }
      await services.settings.update('completions.enable', toggledSwitches(settings.completionsEnable));
      status.render();
    }),
  );
  return { status, engine, provider };
}
