/**
 * The tools a @gateway prompt names with `#` (#terminalLastCommand, #terminalSelection, #gatewayCodebase, #fetch...):
 * VS Code hands a participant these references and leaves running them to it. Each is run and its answer attached to
 * the prompt as a file is. A tool that takes no input runs as it is; one that needs input gets it from the chat model,
 * asked to call that tool for the prompt (one more request, charged like any; a model without tool calling gives
 * none, which a note under the answer says).
 */
import * as vscode from 'vscode';
import type { GatewayClient } from '../../client/index.ts';
import { toOpenAiTools } from '../lm/tools.ts';
import { maskSecrets } from '../terminal/maskSecrets.ts';
import type { Reference } from './history.ts';
import { MAX_CHARS_EACH, type ReferenceNote } from './references.ts';

export interface ToolReferences {
  readonly references: Reference[];
  readonly notes: ReferenceNote[];
  /** A request went to the gateway for a tool's input (the balance may have moved). */
  readonly requested: boolean;
}

export interface ToolReferenceAsk {
  readonly request: vscode.ChatRequest;
  readonly client: GatewayClient;
  readonly model: string;
  readonly token: vscode.CancellationToken;
  readonly signal: AbortSignal;
  readonly secrets: readonly (string | undefined)[];
  readonly log: vscode.LogOutputChannel;
}

export async function toolReferenceTexts(ask: ToolReferenceAsk): Promise<ToolReferences> {
  const { request } = ask;
  const references: Reference[] = [];
  const notes: ReferenceNote[] = [];
  let requested = false;
  for (const reference of request.toolReferences ?? []) {
    const label = reference.range ? request.prompt.slice(reference.range[0], reference.range[1]) || `#${reference.name}` : `#${reference.name}`;
    const tool = vscode.lm.tools.find((candidate) => candidate.name === reference.name);
    if (!tool) {
      notes.push({ label, reason: 'tool_failed' });
      continue;
    }
    try {
      let input: object = {};
      if (needsInput(tool.inputSchema)) {
        requested = true;
        const made = await inputFromModel(ask, tool);
        if (made === null) {
          notes.push({ label, reason: 'tool_no_input' });
          continue;
        }
        input = made;
      }
      const result = await vscode.lm.invokeTool(tool.name, { input, toolInvocationToken: request.toolInvocationToken }, ask.token);
      const text = result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('').trim();
      const kept = text.length > MAX_CHARS_EACH ? `${text.slice(0, MAX_CHARS_EACH)}\n… (truncated)` : text;
      if (kept !== text) notes.push({ label, reason: 'cut' });
      references.push({ label, text: maskSecrets(kept, ask.secrets) });
    } catch (error) {
      if (ask.token.isCancellationRequested) throw error;
      notes.push({ label, reason: 'tool_failed' });
      ask.log.warn(`@gateway: the tool ${tool.name} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { references, notes, requested };
}

/** A schema with required properties: the tool cannot run on `{}`. */
function needsInput(schema: object | undefined): boolean {
  const required = (schema as { required?: unknown } | undefined)?.required;
  return Array.isArray(required) && required.length > 0;
}

/** The tool's input as the chat model gives it when made to call that tool for the prompt; null when it does not. */
async function inputFromModel(ask: ToolReferenceAsk, tool: vscode.LanguageModelToolInformation): Promise<object | null> {
  const answer = await ask.client.chat({
    model: ask.model,
    messages: [
      { role: 'system', content: `Call the tool ${tool.name} with the input that serves the user's request.` },
      { role: 'user', content: ask.request.prompt },
    ],
    tools: toOpenAiTools([tool]),
    tool_choice: { type: 'function', function: { name: tool.name } },
  }, { signal: ask.signal });
  const calls = answer.choices[0]?.message.tool_calls ?? [];
  const call = calls.find((c) => c.function?.name === tool.name) ?? calls[0];
  try {
    const input: unknown = JSON.parse(call?.function?.arguments ?? '');
    return typeof input === 'object' && input !== null && !Array.isArray(input) ? input : null;
  } catch {
    return null;
  }
}
