/**
 * The `@gateway` chat participant: a chat with the configured gateway model, plus
 * the /models, /selftest and /balance commands.
 */
import * as vscode from 'vscode';
import { PARTICIPANT_ID } from '../ids.ts';
import type { ExtensionServices } from '../services.ts';
import { answerChat } from './chatTurn.ts';
import { isSlashCommand, runSlashCommand } from './slashCommands.ts';

/** Creates @gateway; returns the participant VS Code made (the in-editor suite checks it exists at run time). */
export function registerChatParticipant(context: vscode.ExtensionContext, services: ExtensionServices): vscode.ChatParticipant {
  const handler: vscode.ChatRequestHandler = (request, chatContext, stream, token) =>
    isSlashCommand(request.command) ? runSlashCommand(services, request.command, stream, token) : answerChat(services, request, chatContext, stream, token);
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, handler);
  participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'gateway-chat.png');
  context.subscriptions.push(participant);
  return participant;
}
