/**
 * Channels for admins (issue 10, contract 4.10 "Admins"): GET /api/console/admin/channels lists them with
 * their settings, status and health (served and failed answers from the latest request logs, this
 * instance's failover memory); POST .../channels adds one, .../channels/update edits one (the key only
 * when a new one is given), .../channels/disable, /enable, /delete, and .../channels/test sends one minimal
 * request to the upstream. Every route asks for a signed-in admin (401, 403 admin_required) and every
 * change for the console's CSRF proofs (session.ts). The changes are the CLI's own (channelAdmin.ts),
 * written by the store with their audit row under the admin's name, and seen by the next request here and
 * on every instance on the database. A channel's key is never answered, logged or recorded: only whether
 * one is set, and its last 4 characters when it is long enough for that to give nothing away.
 */
import { ChannelNameBody, ChannelTestBody, NewChannelBody, UpdateChannelBody, redactSecrets, type ChannelTestResult, type ChannelView } from '../../contract/index.ts';
import { DEFAULT_CHANNEL_TIMEOUT_MS } from '../admin.ts';
import { addChannel, channelNamed, removeChannel, setChannelEnabled, testModelOf, unpricedModels, updateChannel } from '../channelAdmin.ts';
import { recentHealth, type RecentHealth } from '../channelHealthReport.ts';
import { testChannel } from '../channelTest.ts';
import { sendJson } from '../http/json.ts';
import type { ChannelRecord, ChannelChanges } from '../store/types.ts';
import type { RequestContext } from '../context.ts';
import type { Gateway } from '../gateway.ts';
import type { Handler } from './common.ts';
import { isoTime } from './consoleCatalog.ts';
import { parseBody, refusal } from './consoleSchemas.ts';
import { readConsoleJson, requireAdmin } from './session.ts';

/** The request logs the health counts are read from, as `channel list` reads them. */
const HEALTH_LOGS = 1000;
/** Keys shorter than this show no characters at all. */
const SHOWN_KEY_MIN_LENGTH = 16;

function keyHint(key: string | null): ChannelView['api_key'] {
  return { set: key !== null, last4: key !== null && key.length >= SHOWN_KEY_MIN_LENGTH ? key.slice(-4) : null };
}

/** Each channel as the admins see it (never its key): the logs are written first, so the counts include the latest requests. */
async function channelViews(gw: Gateway, channels: readonly ChannelRecord[]): Promise<ChannelView[]> {
  await gw.logs.flush();
  const recent = recentHealth(await gw.store.listLogs(HEALTH_LOGS));
  const none: RecentHealth = { served: 0, failed: 0, lastFailure: null };
  return channels.map((c) => {
    const said = (text: string | null) => (text === null ? null : redactSecrets(text, [c.apiKey ?? undefined]));
    const logged = recent.get(c.name) ?? none;
    const breaker = gw.health.view(c.id);
    return {
      name: c.name, type: c.type, base_url: c.baseUrl, models: { ...c.models }, priority: c.priority, weight: c.weight, timeout_ms: c.timeoutMs,
      proxy: c.proxy, responses_api: c.responsesApi ?? null, status: c.status, created_at: isoTime(c.createdAt)!, api_key: keyHint(c.apiKey),
      health: {
        served: logged.served, failed: logged.failed, last_failure: said(logged.lastFailure ?? breaker?.lastFailure ?? null),
        failures_in_a_row: breaker?.failures ?? 0, cooling_down_until: breaker && breaker.openUntil > Date.now() ? isoTime(breaker.openUntil) : null,
      },
    };
  });
}

async function answerChannel(gw: Gateway, ctx: RequestContext, status: number, name: string, extra: Record<string, unknown> = {}): Promise<void> {
  const [view] = await channelViews(gw, [await channelNamed(gw.store, name)]);
  ctx.noLog = true;
  sendJson(ctx.res, ctx.id, status, { object: 'console.channel', channel: view, ...extra });
}

/** GET /api/console/admin/channels: every channel, oldest first. */
export const adminChannels: Handler = async (gw, ctx) => {
  await requireAdmin(gw, ctx);
  const data = await channelViews(gw, await gw.store.listChannels());
  ctx.noLog = true;
  sendJson(ctx.res, ctx.id, 200, { object: 'list', data });
};

/** POST /api/console/admin/channels: 201 with the channel, and the models it serves that have no price yet (not served until priced). */
export const adminAddChannel: Handler = async (gw, ctx) => {
  const { user } = await requireAdmin(gw, ctx);
  const body = parseBody(NewChannelBody, await readConsoleJson(gw, ctx));
  let channel: ChannelRecord;
  try {
    channel = await addChannel(gw.store, body.name, body.api_key ?? null, {
      type: body.type ?? 'openai', baseUrl: body.base_url ?? null, models: body.models, priority: body.priority ?? 0, weight: body.weight ?? 1,
      timeoutMs: body.timeout_ms ?? DEFAULT_CHANNEL_TIMEOUT_MS, proxy: body.proxy ?? null, responsesApi: body.responses_api ?? null,
    }, { actor: user.name });
  } catch (error) {
    refusal(error, 'channel_not_found', 'channel_exists');
  }
  await answerChannel(gw, ctx, 201, channel.name, { unpriced: await unpricedModels(gw.store, channel) });
};

/** POST /api/console/admin/channels/update: the fields given change; `api_key` a new key, null none, absent the same. */
export const adminUpdateChannel: Handler = async (gw, ctx) => {
  const { user } = await requireAdmin(gw, ctx);
  const body = parseBody(UpdateChannelBody, await readConsoleJson(gw, ctx));
  const changes: ChannelChanges = {
    type: body.type, baseUrl: body.base_url, apiKey: body.api_key, models: body.models, priority: body.priority, weight: body.weight,
    timeoutMs: body.timeout_ms, proxy: body.proxy, responsesApi: body.responses_api,
  };
  try {
    const channel = await updateChannel(gw.store, body.name, changes, { actor: user.name });
    // This instance forgets the channel's failures: the next request tries it as it now is.
    gw.health.forget(channel.id);
  } catch (error) {
    refusal(error, 'channel_not_found');
  }
  await answerChannel(gw, ctx, 200, body.name);
};

/** POST /api/console/admin/channels/{disable,enable,delete} {name}. */
export function adminChannelAction(action: 'disable' | 'enable' | 'delete'): Handler {
  return async (gw, ctx) => {
    const { user } = await requireAdmin(gw, ctx);
    const { name } = parseBody(ChannelNameBody, await readConsoleJson(gw, ctx));
    try {
      if (action === 'delete') await removeChannel(gw.store, name, { actor: user.name });
      else await setChannelEnabled(gw.store, name, action === 'enable', { actor: user.name });
    } catch (error) {
      refusal(error, 'channel_not_found');
    }
    if (action === 'delete') {
      ctx.noLog = true;
      sendJson(ctx.res, ctx.id, 200, { object: 'console.channel_deleted', name });
      return;
    }
    if (action === 'enable') gw.health.forget((await channelNamed(gw.store, name)).id);
    await answerChannel(gw, ctx, 200, name);
  };
}

/**
 * POST /api/console/admin/channels/test {name, model?}: the CLI's `channel test`, a real request to the
 * upstream (enabled or not). 200 with what happened, whether it worked or not: the status, the time, the
 * upstream's words (keys redacted) and the contract's code of a failure.
 */
export const adminTestChannel: Handler = async (gw, ctx) => {
  await requireAdmin(gw, ctx);
  const body = parseBody(ChannelTestBody, await readConsoleJson(gw, ctx));
  let channel: ChannelRecord;
  let model: string;
  try {
    channel = await channelNamed(gw.store, body.name);
    model = testModelOf(channel, body.model);
  } catch (error) {
    refusal(error, 'channel_not_found');
  }
  const result = await testChannel(channel, model);
  const answer: ChannelTestResult = {
    object: 'console.channel_test', channel: channel.name, model, upstream_model: result.upstreamModel, ok: result.ok,
    status: result.status, latency_ms: result.ms, error_code: result.code, message: result.line,
  };
  ctx.noLog = true;
  sendJson(ctx.res, ctx.id, 200, answer);
};
