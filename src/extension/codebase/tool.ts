/**
 * The codebase search as a language-model tool (`#gatewayCodebase` in any chat, and for agent mode): any model in
 * VS Code's chat, the gateway's or another vendor's, can look up the workspace's code through the gateway's
 * embedding model and the index /codebase keeps.
 */
import * as vscode from 'vscode';
import { signalFromToken } from '../chat/abort.ts';
import type { ExtensionServices } from '../services.ts';
import { searchCodebase } from './codebaseSearch.ts';
import { MAX_EXCERPTS } from './excerpts.ts';
import { toolText } from './toolText.ts';

export const CODEBASE_TOOL = 'modelGateway_searchCodebase';

interface ToolInput {
  readonly query?: unknown;
  readonly maxResults?: unknown;
}

function queryOf(input: ToolInput): string {
  return typeof input.query === 'string' ? input.query.trim() : '';
}

export function registerCodebaseTool(context: vscode.ExtensionContext, services: ExtensionServices): void {
  const { t } = services;
  context.subscriptions.push(
    vscode.lm.registerTool<ToolInput>(CODEBASE_TOOL, {
      prepareInvocation: (options) => ({ invocationMessage: t('Searching the codebase for "{0}"', queryOf(options.input)) }),
      invoke: async (options, token) => {
        const query = queryOf(options.input);
        // Thrown errors reach the model as the tool's answer: each says what to do.
        if (query === '') throw new Error('The query is empty: say in words what code to look for.');
        const wanted = typeof options.input.maxResults === 'number' && Number.isFinite(options.input.maxResults) ? Math.round(options.input.maxResults) : MAX_EXCERPTS;
        const abort = signalFromToken(token);
        try {
          const found = await searchCodebase(services, query, { token, signal: abort.signal, maxExcerpts: Math.min(10, Math.max(1, wanted)) });
          if (found.kind === 'refused') {
            throw new Error(found.why === 'no_folder'
              ? 'No folder is open in VS Code: there is no workspace code to search.'
              : 'Model Gateway has no embedding model set (modelGateway.embeddingModel). The user can pick one with the command "Model Gateway: Pick Embedding Model".');
          }
          services.connection.balanceMayHaveChanged();
          return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(toolText(query, found.model, found.excerpts))]);
        } finally {
          abort.dispose();
        }
      },
    }),
  );
}
