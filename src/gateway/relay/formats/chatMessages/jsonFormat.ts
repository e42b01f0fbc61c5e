/**
 * A chat request's `response_format` (`json_schema`, `json_object`) on a Messages upstream, which has no such field:
 * the model gets one more tool, whose input is the answer in that format, and must call it (Anthropic's own advice
 * for JSON output). The answer's call of that tool is written back as the message's content, streamed as its JSON
 * arrives, with finish_reason "stop": the client reads JSON as it would from OpenAI. The schema is asked for, not
 * enforced by a grammar as OpenAI's strict mode is: the model writes the tool's input to it.
 */
import type { RelayRequest } from '../../types.ts';
import { quoteClientValue } from '../../../../contract/index.ts';
import { ConversionError } from '../types.ts';
import { responsesToChatRequest } from '../chatResponses/request.ts';

type Json = Record<string, unknown>;

/** The tool the answer is written with. */
export interface FormatTool {
  readonly name: string;
  readonly description: string;
  readonly schema: Json;
}

/** The name a schema gives, when it is one a tool may have; else this one. */
const DEFAULT_NAME = 'json_answer';
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** The format tool of a chat body's response_format; null for none or `text`; a ConversionError for what cannot be asked. */
export function formatToolOf(body: Json): FormatTool | null {
  const format = body['response_format'] as Json | null | undefined;
  const type = format?.['type'];
  if (type === undefined || type === null || type === 'text') return null;
  if (type === 'json_object') {
    return { name: freeName(DEFAULT_NAME, body), description: 'Write your whole answer as the input of this tool: one JSON object.', schema: { type: 'object' } };
  }
  if (type !== 'json_schema') throw new ConversionError(`response_format: ${quoteClientValue(type)} cannot be enforced on this model's channel; describe the format in the prompt instead.`);
  const spec = (format?.['json_schema'] ?? {}) as Json;
  const schema = spec['schema'];
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema) || (schema as Json)['type'] !== 'object') {
    throw new ConversionError("response_format.json_schema.schema: this model's channel takes a schema of a JSON object (\"type\": \"object\").");
  }
  const given = typeof spec['name'] === 'string' && TOOL_NAME.test(spec['name']) ? spec['name'] : DEFAULT_NAME;
  const about = typeof spec['description'] === 'string' && spec['description'] !== '' ? ` ${spec['description']}` : '';
  return { name: freeName(given, body), description: `Write your whole answer as the input of this tool, in this JSON format.${about}`, schema: schema as Json };
}

/** `name`, or with a number after it when one of the client's tools has it (the same body gives the same name). */
function freeName(name: string, body: Json): string {
  const tools = Array.isArray(body['tools']) ? (body['tools'] as unknown[]) : [];
  const taken = new Set(tools.map((t) => (t !== null && typeof t === 'object' ? ((t as Json)['function'] as Json | undefined)?.['name'] : undefined)));
  if (!taken.has(name)) return name;
  for (let n = 2; ; n++) {
    const candidate = `${name.slice(0, 60)}_${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** The chat body a request reaches a Messages upstream with (a Responses request goes through chat). */
function chatBodyOf(request: RelayRequest): Json | null {
  if (request.operation === 'chat') return request.body as Json;
  if (request.operation === 'responses') return responsesToChatRequest(request.body);
  return null;
}

/** The name of the tool a request's answer is written with, or null when it asked for no JSON format. */
export function formatToolName(request: RelayRequest): string | null {
  const body = chatBodyOf(request);
  return body ? (formatToolOf(body)?.name ?? null) : null;
}
