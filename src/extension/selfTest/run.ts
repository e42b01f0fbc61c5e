/**
 * The self-test of contract 7.4, step by step (no vscode import):
 *   1. GET /api/status (no key)             -> the service is reachable
 *   2. GET /v1/models (with the key)        -> the key is basically usable; the configured model is listed
 *   3. POST /v1/chat/completions (1 message) -> OpenAI-compatible calls basically work
 * Each step records its outcome, HTTP status, time, request id and the gateway's message;
 * a failed step carries the 7.2 meaning and the 7.3 order starting at the first thing to check.
 */
import { reasoningTextOf } from '../../contract/index.ts';
import { CLIENT_ERROR_CODES, GatewayClient, errorFromResponse, type BodyEndpoint } from '../../client/index.ts';
import { explainError } from '../errors/explain.ts';
import type { Explanation } from '../errors/explain.ts';
import { NotConfiguredError } from '../errors/notConfigured.ts';
import type { MissingPart } from '../errors/notConfigured.ts';
import type { RequestRecord } from '../log/redact.ts';
import { english } from '../translate.ts';
import type { Translate } from '../translate.ts';

export type StepId = 'status' | 'models' | 'chat';
export type StepOutcome = 'passed' | 'warning' | 'failed' | 'skipped';

export interface SelfTestStep {
  readonly id: StepId;
  readonly number: 1 | 2 | 3;
  readonly title: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly outcome: StepOutcome;
  readonly httpStatus: number | null;
  readonly durationMs: number;
  readonly requestId: string | null;
  /** What was found, in one sentence. */
  readonly detail: string;
  readonly gatewayMessage: string | null;
  /** Present when the step failed. */
  readonly explanation: Explanation | null;
}

export interface SelfTestReport {
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly baseUrl: string;
  /** The configured model ('' when none). */
  readonly model: string;
  /** The model the chat step used (the configured one, else the first listed). */
  readonly chatModel: string | null;
  /** Model ids from /v1/models, when the step got that far. */
  readonly models: readonly string[] | null;
  /** Whether the configured model is in that list (null when unknown or no model is set). */
  readonly modelListed: boolean | null;
  readonly steps: readonly SelfTestStep[];
  /** No step failed (warnings allowed). */
  readonly ok: boolean;
  readonly firstFailure: SelfTestStep | null;
}

export interface SelfTestConfig {
  readonly baseUrl: string;
  readonly apiKey?: string | undefined;
  readonly model: string;
  readonly timeoutMs?: number;
  readonly proxy?: string;
  readonly noProxy?: string;
  readonly userAgent?: string;
  /** Also told about every request (the extension logs them). */
  readonly onResponse?: (record: RequestRecord) => void;
  /** The user's parameters for a model (modelGateway.modelParameters): the chat step sends what chats send. */
  readonly bodyDefaults?: (model: string, endpoint: BodyEndpoint) => Readonly<Record<string, unknown>>;
}

export interface SelfTestOptions {
  /** Called as each step starts (outcome undefined) and ends. */
  readonly onStep?: (step: { id: StepId; number: number; title: string; done?: SelfTestStep }) => void;
  readonly t?: Translate;
  readonly signal?: AbortSignal;
}

const TITLES: Record<StepId, string> = {
  status: 'Service reachable (GET /api/status)',
  models: 'API key accepted (GET /v1/models)',
  chat: 'Chat completion works (POST /v1/chat/completions)',
};
const PATHS: Record<StepId, { method: 'GET' | 'POST'; path: string; number: 1 | 2 | 3 }> = {
  status: { method: 'GET', path: '/api/status', number: 1 },
  models: { method: 'GET', path: '/v1/models', number: 2 },
  chat: { method: 'POST', path: '/v1/chat/completions', number: 3 },
};

/** The one message of the minimal conversation. */
export const SELF_TEST_PROMPT = 'This is a connection test. Reply with the single word: OK';

function familyOf(error: unknown): string | null {
  const family = (error as { family?: unknown } | null)?.family;
  return typeof family === 'string' ? family : null;
}

function firstText(completion: unknown): { text: string; reasoning: string } {
  const choice = (completion as { choices?: Array<{ message?: Record<string, unknown> }> }).choices?.[0]?.message ?? {};
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  return { text: str(choice['content']).trim(), reasoning: reasoningTextOf(choice).trim() };
}

function shorten(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Run the three steps. Never throws for a gateway failure: failures are in the report. */
export async function runSelfTest(config: SelfTestConfig, options: SelfTestOptions = {}): Promise<SelfTestReport> {
  const t = options.t ?? english;
  const secrets = [config.apiKey];
  const startedAt = new Date().toISOString();
  const steps: SelfTestStep[] = [];
  let last: RequestRecord | null = null;

  let client: GatewayClient | null = null;
  let clientError: unknown = null;
  if (config.baseUrl.trim() === '') {
    clientError = new NotConfiguredError(['baseUrl']);
  } else {
    try {
      client = new GatewayClient({
        baseUrl: config.baseUrl,
        ...(config.apiKey ? { apiKey: config.apiKey } : {}),
        ...(config.timeoutMs ? { timeoutMs: config.timeoutMs } : {}),
        ...(config.proxy ? { proxy: config.proxy } : {}),
        ...(config.noProxy ? { noProxy: config.noProxy } : {}),
        ...(config.userAgent ? { userAgent: config.userAgent } : {}),
        ...(config.bodyDefaults ? { bodyDefaults: config.bodyDefaults } : {}),
        maxRetries: 1,
        onResponse: (record: RequestRecord) => {
          last = record;
          config.onResponse?.(record);
        },
      });
    } catch (error) {
      const unusableBaseUrl = (error as { code?: unknown }).code === CLIENT_ERROR_CODES.invalid_base_url;
      clientError = unusableBaseUrl ? new NotConfiguredError(['baseUrl'], (error as Error).message) : error;
    }
  }

  const record = (id: StepId, outcome: StepOutcome, started: number, detail: string, error: unknown = null): SelfTestStep => {
    const seen = last as RequestRecord | null;
    const explanation = outcome === 'failed' && error !== null ? explainError(error, t, secrets) : null;
    const step: SelfTestStep = {
      id,
      ...PATHS[id],
      title: t(TITLES[id]),
      outcome,
      httpStatus: explanation?.status ?? (outcome === 'skipped' ? null : (seen?.status ?? null)),
      durationMs: outcome === 'skipped' ? 0 : Math.round(performance.now() - started),
      requestId: explanation?.requestId ?? (outcome === 'skipped' ? null : (seen?.requestId ?? null)),
      detail,
      gatewayMessage: explanation?.gatewayMessage ?? null,
      explanation,
    };
    steps.push(step);
    options.onStep?.({ id, number: step.number, title: step.title, done: step });
    return step;
  };
  const begin = (id: StepId): number => {
    last = null;
    options.onStep?.({ id, number: PATHS[id].number, title: t(TITLES[id]) });
    return performance.now();
  };
  const signal = options.signal ? { signal: options.signal } : {};

  let models: string[] | null = null;
  let modelListed: boolean | null = null;
  let chatModel: string | null = null;
  try {
    // 1. GET /api/status
    let reachable = true;
    let started = begin('status');
    if (!client) {
      record('status', 'failed', started, t('The base URL cannot be used.'), clientError);
      reachable = false;
    } else {
      try {
        const answer = await client.status(signal);
        if (answer.ok) record('status', 'passed', started, t('The service answered: it is online.'));
        else record('status', 'failed', started, t('Something answered at this address, but not the service status (HTTP {0}).', answer.httpStatus), errorFromResponse(answer.httpStatus, answer.body));
      } catch (error) {
        record('status', 'failed', started, t('The service did not answer as expected.'), error);
        const family = familyOf(error);
        reachable = family !== 'connection' && family !== 'timeout' && family !== 'aborted';
      }
    }

    // 2. GET /v1/models
    let keyWorks = false;
    started = begin('models');
    if (!client || !reachable) {
      record('models', 'skipped', started, t('Skipped: the service is not reachable.'));
    } else if (!config.apiKey) {
      const missing: MissingPart[] = ['apiKey'];
      record('models', 'failed', started, t('No API key is set.'), new NotConfiguredError(missing));
    } else {
      try {
        const ids = (await client.chatModels(signal)).map((m) => m.id);
        models = ids;
        keyWorks = true;
        if (config.model === '') {
          record('models', 'warning', started, t('The key works: {0} model(s) listed. No model is configured yet (setting modelGateway.model).', ids.length));
        } else if (ids.includes(config.model)) {
          modelListed = true;
          record('models', 'passed', started, t('The key works: {0} model(s) listed, including "{1}".', ids.length, config.model));
        } else {
          modelListed = false;
          const near = ids.find((m) => m.toLowerCase() === config.model.toLowerCase() || m.toLowerCase().replace(/[^a-z0-9]/g, '') === config.model.toLowerCase().replace(/[^a-z0-9]/g, ''));
          const base = t('The key works ({0} model(s) listed), but the configured model "{1}" is not in the list. Model names must match the console exactly.', ids.length, config.model);
          record('models', 'warning', started, near ? `${base} ${t('Did you mean "{0}"?', near)}` : base);
        }
      } catch (error) {
        record('models', 'failed', started, t('The model list could not be read.'), error);
      }
    }

    // 3. POST /v1/chat/completions
    started = begin('chat');
    chatModel = config.model !== '' ? config.model : (models?.[0] ?? null);
    if (!client || !keyWorks) {
      record('chat', 'skipped', started, t('Skipped: fix the step above first.'));
    } else if (chatModel === null) {
      record('chat', 'skipped', started, t('Skipped: no model is configured and the gateway listed none.'));
    } else {
      try {
        const completion = await client.chat({ model: chatModel, messages: [{ role: 'user', content: SELF_TEST_PROMPT }] }, signal);
        const { text, reasoning } = firstText(completion);
        const used = config.model === '' ? ` ${t('(no model is configured; used "{0}", the first listed)', chatModel)}` : '';
        if (text !== '') record('chat', 'passed', started, `${t('The model "{0}" replied: "{1}"', chatModel, shorten(text))}${used}`);
        else if (reasoning !== '') record('chat', 'passed', started, `${t('The model "{0}" answered with reasoning only: "{1}"', chatModel, shorten(reasoning))}${used}`);
        else record('chat', 'warning', started, `${t('The model "{0}" answered, but with no text.', chatModel)}${used}`);
      } catch (error) {
        record('chat', 'failed', started, t('The chat request with model "{0}" failed.', chatModel), error);
      }
    }
  } finally {
    if (client) await Promise.resolve(client.close()).catch(() => undefined);
  }

  const firstFailure = steps.find((s) => s.outcome === 'failed') ?? null;
  return {
    startedAt,
    finishedAt: new Date().toISOString(),
    baseUrl: config.baseUrl,
    model: config.model,
    chatModel,
    models,
    modelListed,
    steps,
    ok: firstFailure === null,
    firstFailure,
  };
}
