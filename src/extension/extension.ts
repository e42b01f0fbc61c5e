/** Entry point: activate() is a list of register* calls; every Disposable goes to context.subscriptions. */
import type * as vscode from 'vscode';
import { registerChatParticipant } from './chat/participant.ts';
import { registerCommitMessageCommand } from './commitMessage/command.ts';
import { registerReviewCommands } from './review/reviewCommand.ts';
import { registerReviewTool } from './review/reviewTool.ts';
import { registerTerminalCommands } from './terminal/terminalCommands.ts';
import { registerDescribeCommand } from './pullRequest/describeCommand.ts';
import { registerImageCommands } from './images/imageCommands.ts';
import { registerImageTool } from './images/imageTool.ts';
import { registerAltText } from './altText/altTextCommand.ts';
import type { FailureStatus } from './terminal/failureStatus.ts';
import { registerCodebaseCommands } from './codebase/commands.ts';
import { registerCodebaseTool } from './codebase/tool.ts';
import { registerEditSelectionCommand } from './editSelection/command.ts';
import { registerQuickFix } from './editSelection/quickFix.ts';
import { registerApiKeyCommands } from './commands/apiKey.ts';
import { registerSignInCommand } from './signIn/signInCommand.ts';
import { registerBaseUrlCommand } from './commands/baseUrl.ts';
import { registerLocalGateway } from './commands/localGateway.ts';
import type { LocalGateway } from './commands/localGateway.ts';
import { registerOpenCommands } from './commands/open.ts';
import { registerPickModelCommand } from './commands/pickModel.ts';
import { registerCompareCommands } from './compare/compareCommands.ts';
import { registerSelfTestCommands } from './commands/selfTest.ts';
import { registerInlineCompletions } from './completions/register.ts';
import type { InlineCompletions } from './completions/register.ts';
import { registerLanguageModelProvider } from './lm/provider.ts';
import { registerProfiles } from './profiles/commands.ts';
import { registerSecretsMigration } from './secrets/migration.ts';
import { createServices } from './services.ts';
import type { ExtensionServices } from './services.ts';
import { registerBalanceStatusBar } from './statusBar/balance.ts';
import type { BalanceStatusBar } from './statusBar/balance.ts';
import { registerUsageView } from './usage/view.ts';
import type { UsageView } from './usage/view.ts';

/** What activate() returns, for the in-editor integration suite. Keep it small. */
export interface ModelGatewayApi {
  readonly services: ExtensionServices;
  readonly localGateway: LocalGateway;
  /** The @gateway participant as VS Code created it. */
  readonly chatParticipant: vscode.ChatParticipant;
  /** Inline completions: their status (on, off, failing) and engine. */
  readonly completions: InlineCompletions;
  /** The Usage view: what it shows. */
  readonly usage: UsageView;
  /** The balance in the status bar: what it shows. */
  readonly balance: BalanceStatusBar;
  /** The status bar's offer to explain a failed terminal command. */
  readonly terminalFailure: FailureStatus;
}

let localGateway: LocalGateway | undefined;

export function activate(context: vscode.ExtensionContext): ModelGatewayApi {
  const services = createServices(context);
  registerApiKeyCommands(context, services);
  registerSignInCommand(context, services);
  registerBaseUrlCommand(context, services);
  registerOpenCommands(context, services);
  registerSelfTestCommands(context, services);
  registerPickModelCommand(context, services);
  registerCompareCommands(context, services);
  const balance = registerBalanceStatusBar(context, services);
  registerProfiles(context, services);
  localGateway = registerLocalGateway(context, services);
  registerSecretsMigration(context, services);
  const chatParticipant = registerChatParticipant(context, services);
  registerLanguageModelProvider(context, services);
  const completions = registerInlineCompletions(context, services);
  const usage = registerUsageView(context, services);
  registerCommitMessageCommand(context, services);
  registerReviewCommands(context, services);
  registerReviewTool(context, services);
  registerDescribeCommand(context, services);
  registerImageCommands(context, services);
  registerImageTool(context, services);
  registerAltText(context, services);
  registerEditSelectionCommand(context, services);
  registerQuickFix(context, services);
  registerCodebaseCommands(context, services);
  registerCodebaseTool(context, services);
  const terminalFailure = registerTerminalCommands(context, services);
  return { services, localGateway, chatParticipant, completions, usage, balance, terminalFailure };
}

export async function deactivate(): Promise<void> {
  await localGateway?.stop();
  localGateway = undefined;
}
