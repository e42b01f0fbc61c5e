/**
 * The @gateway conversation -> OpenAI chat messages. Pure: participant.ts turns
 * VS Code's ChatRequestTurn / ChatResponseTurn into the plain turns below.
 *
 * Only turns of this participant are sent, in order. Slash-command turns (/models,
 * /selftest, /balance) and failed answers are left out: they are about the
 * extension, not part of the conversation with the model (a /codebase turn is: its question was answered by it). For an answer we prefer
 * the text kept in the result's metadata (the answer without the "Thinking" block);
 * otherwise we join the response's markdown.
 */
import type { ChatMessage } from '../../contract/index.ts';

export interface RequestTurn {
  readonly kind: 'request';
  readonly participant: string;
  readonly prompt: string;
  readonly command?: string | undefined;
}

export interface ResponseTurn {
  readonly kind: 'response';
  readonly participant: string;
  readonly command?: string | undefined;
  /** The markdown parts of the response, in order. */
  readonly markdown: readonly string[];
  /** ChatResult.metadata as returned by our handler. */
  readonly metadata?: { readonly [key: string]: unknown } | undefined;
  /** ChatResult.errorDetails was set. */
  readonly failed?: boolean | undefined;
}

export type Turn = RequestTurn | ResponseTurn;

/** What our handler stores in ChatResult.metadata after a chat answer. */
export interface AnswerMetadata {
  readonly answer?: string;
  /** The question as the model was asked it, when it was more than the prompt (/terminal's command and output). */
  readonly asked?: string;
  readonly failed?: boolean;
  readonly command?: string;
}

export interface Reference {
  /** A short label: a file path, a variable name. */
  readonly label: string;
  readonly text: string;
}

/** An image attached to the prompt (a pasted screenshot), for a model that takes images. */
export interface AttachedImage {
  readonly mimeType: string;
  readonly data: Uint8Array;
}

export interface PromptInput {
  readonly prompt: string;
  readonly references?: readonly Reference[];
  readonly images?: readonly AttachedImage[];
  readonly system?: string;
}

/** Slash commands whose turns are questions answered by the model, kept in the conversation like plain turns. */
const CONVERSATION_COMMANDS: ReadonlySet<string> = new Set(['codebase', 'terminal']);

function isAsideCommand(command: string | undefined): boolean {
  return command !== undefined && command !== '' && !CONVERSATION_COMMANDS.has(command);
}

function responseText(turn: ResponseTurn): string | undefined {
  const metadata = turn.metadata as AnswerMetadata | undefined;
  if (turn.failed || metadata?.failed) return undefined;
  if (typeof metadata?.answer === 'string') return metadata.answer;
  const text = turn.markdown.join('');
  return text.trim() === '' ? undefined : text;
}

/** The user message for a prompt, with the text of attached references after it. */
export function userContent(prompt: string, references: readonly Reference[] = []): string {
  if (references.length === 0) return prompt;
  const blocks = references.map((ref) => `${ref.label}:\n\`\`\`\n${ref.text}\n\`\`\``);
  return `${prompt}\n\n${blocks.join('\n\n')}`;
}

export function historyToMessages(history: readonly Turn[], participantId: string, current: PromptInput): ChatMessage[] {
  const messages: ChatMessage[] = [];
  if (current.system) messages.push({ role: 'system', content: current.system });
  let pendingUser: string | undefined;
  for (const turn of history) {
    if (turn.participant !== participantId) continue;
    if (turn.kind === 'request') {
      // A request whose answer never came (failed, or a slash command) is dropped with it.
      pendingUser = isAsideCommand(turn.command) ? undefined : turn.prompt;
      continue;
    }
    if (isAsideCommand(turn.command)) {
      pendingUser = undefined;
      continue;
    }
    const answer = responseText(turn);
    const asked = (turn.metadata as AnswerMetadata | undefined)?.asked;
    if (pendingUser !== undefined && answer !== undefined) {
      messages.push({ role: 'user', content: typeof asked === 'string' ? asked : pendingUser }, { role: 'assistant', content: answer });
    }
    pendingUser = undefined;
  }
  const text = userContent(current.prompt, current.references);
  const images = current.images ?? [];
  // Images only with the prompt they came with: earlier turns' attachments are not kept by VS Code's history.
  const content = images.length === 0 ? text : [{ type: 'text', text }, ...images.map(imagePart)];
  messages.push({ role: 'user', content });
  return messages;
}

function imagePart(image: AttachedImage): { type: 'image_url'; image_url: { url: string } } {
  return { type: 'image_url', image_url: { url: `data:${image.mimeType.toLowerCase()};base64,${Buffer.from(image.data).toString('base64')}` } };
}
