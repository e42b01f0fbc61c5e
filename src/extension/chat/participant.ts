/**
 * The `@gateway` chat participant: a chat with the configured gateway model, plus
 * the /models, /selftest and /balance commands, /codebase (chatTurn.ts), /compare (compare/compareTurn.ts),
^ * /review (review/reviewTurn.ts), /terminal (terminal/terminalTurn.ts) and /image (images/imageTurn.ts).
 */
import * as vscode from 'vscode';
import { PARTICIPANT_ID } from '../ids.ts';
import type { ExtensionServices } from '../services.ts';
import { answerChat } from './chatTurn.ts';
import { answerCompare } from '../compare/compareTurn.ts';
import { answerReview } from '../review/reviewTurn.ts';
import { answerTerminal } from '../terminal/terminalTurn.ts';
import { answerImage } from '../images/imageTurn.ts';
import { isSlashCommand, runSlashCommand } from './slashCommands.ts';

/** Creates @gateway; returns the participant VS Code made (the in-editor suite checks it exists at run time). */
export function registerChatParticipant(context: vscode.ExtensionContext, services: ExtensionServices): vscode.ChatParticipant {
  const handler: vscode.ChatRequestHandler = (request, chatContext, stream, token) => {
    if (isSlashCommand(request.command)) return runSlashCommand(services, request.command, stream, token);
    if (request.command === 'compare') return answerCompare(services, request, stream, token);
    if (request.command === 'review') return answerReview(services, request, stream, token);
    if (request.command === 'terminal') return answerTerminal(services, request, stream, token);
    if (request.command === 'image') return answerImage(services, request, stream, token);
    return answerChat(services, request, chatContext, stream, token);
  };
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, handler);
  participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'gateway-chat.png');
  context.subscriptions.push(participant);
  return participant;
}
