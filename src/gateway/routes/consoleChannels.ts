/**
 * Channels for admins (issue 10, contract 4.10 "Admins"): GET /api/console/admin/channels lists them with
 * their settings, status and health (served and failed answers from the latest request logs, this
 * instance's failover memory); POST .../channels adds one, .../channels/update edits one (the key only
 * when a new one is given), .../channels/disable, /enable, /delete, and .../channels/test sends one minimal
 * request to the upstream. Every route asks for an admin (a session, or an admin access token; api.ts,
 * by the route table). The changes are the CLI's own (channelAdmin.ts), written by the store with their
 * audit row under the admin's name (and the token's), and seen by the next request here and
 * on every instance on the database. A channel's key is never answered, logged or recorded: only whether
 * one is set, and its last 4 characters when it is long enough for that to give nothing away.
 */
import { channelSecrets, redactSecrets, shownUrl, unmaskUrl, type ChannelView } from '../../contract/index.ts';
import { DEFAULT_CHANNEL_TIMEOUT_MS } from '../admin.ts';
import { addChannel, channelNamed, removeChannel, setChannelEnabled, testModelOf, unpricedModels, updateChannel } from '../channelAdmin.ts';
import { recentHealth, type RecentHealth } from '../channelHealthReport.ts';
import { testChannel } from '../channelTest.ts';
import type { ChannelRecord, ChannelChanges } from '../store/types.ts';
import type { Gateway } from '../gateway.ts';
import type { ApiHandler } from './api.ts';
import { isoTime } from './consoleCatalog.ts';
import { refusal } from './consoleSchemas.ts';

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
    const said = (text: string | null) => (text === null ? null : redactSecrets(text, channelSecrets(c)));
    const logged = recent.get(c.name) ?? none;
    const breaker = gw.health.view(c.id);
    return {
      // URLs as shown (their query values and passwords masked, like the key); an edit sends the masks back, unmaskUrl keeps them.
      name: c.name, type: c.type, base_url: c.baseUrl === null ? null : shownUrl(c.baseUrl), models: { ...c.models }, priority: c.priority, weight: c.weight,
      timeout_ms: c.timeoutMs, proxy: c.proxy === null ? null : shownUrl(c.proxy), responses_api: c.responsesApi ?? null, status: c.status, created_at: isoTime(c.createdAt)!, api_key: keyHint(c.apiKey),
      health: {
        served: logged.served, failed: logged.failed, last_failure: said(logged.lastFailure ?? breaker?.lastFailure ?? null),
        failures_in_a_row: breaker?.failures ?? 0, cooling_down_until: breaker && breaker.openUntil > Date.now() ? isoTime(breaker.openUntil) : null,
      },
    };
  });
}

async function answerChannel(gw: Gateway, name: string, unpriced?: string[]) {
  const [view] = await channelViews(gw, [await channelNamed(gw.store, name)]);
  return { body: { object: 'console.channel' as const, channel: view!, ...(unpriced ? { unpriced } : {}) } };
}

/** GET /api/console/admin/channels: every channel, oldest first. */
export const adminChannels: ApiHandler<'listChannels'> = async (gw) => ({ body: { object: 'list', data: await channelViews(gw, await gw.store.listChannels()) } });

/** POST /api/console/admin/channels: 201 with the channel, and the models it serves that have no price yet (not served until priced). */
export const adminAddChannel: ApiHandler<'addChannel'> = async (gw, _ctx, { caller, body }) => {
  let channel: ChannelRecord;
  try {
    channel = await addChannel(gw.store, body.name, body.api_key ?? null, {
      type: body.type ?? 'openai', baseUrl: body.base_url ?? null, models: body.models, priority: body.priority ?? 0, weight: body.weight ?? 1,
      timeoutMs: body.timeout_ms ?? DEFAULT_CHANNEL_TIMEOUT_MS, proxy: body.proxy ?? null, responsesApi: body.responses_api ?? null,
    }, caller.acting);
  } catch (error) {
    refusal(error, 'channel_not_found', 'channel_exists');
  }
  return answerChannel(gw, channel.name, await unpricedModels(gw.store, channel));
};

/** POST /api/console/admin/channels/update: the fields given change; `api_key` a new key, null none, absent the same. */
export const adminUpdateChannel: ApiHandler<'updateChannel'> = async (gw, _ctx, { caller, body }) => {
  const stored = (await gw.store.listChannels()).find((c) => c.name === body.name);
  const url = (given: string | null | undefined, was: string | null | undefined): string | null | undefined => (typeof given === 'string' ? unmaskUrl(given, was ?? null) : given);
  const changes: ChannelChanges = {
    type: body.type, baseUrl: url(body.base_url, stored?.baseUrl), apiKey: body.api_key, models: body.models, priority: body.priority, weight: body.weight,
    timeoutMs: body.timeout_ms, proxy: url(body.proxy, stored?.proxy), responsesApi: body.responses_api,
  };
  try {
    const channel = await updateChannel(gw.store, body.name, changes, caller.acting);
    // This instance forgets the channel's failures: the next request tries it as it now is.
    gw.health.forget(channel.id);
  } catch (error) {
    refusal(error, 'channel_not_found');
  }
  return answerChannel(gw, body.name);
};

/** POST /api/console/admin/channels/{disable,enable} {name}. */
export function adminChannelAction(action: 'disable' | 'enable'): ApiHandler<'disableChannel' | 'enableChannel'> {
  return async (gw, _ctx, { caller, body: { name } }) => {
    try {
      await setChannelEnabled(gw.store, name, action === 'enable', caller.acting);
    } catch (error) {
      refusal(error, 'channel_not_found');
    }
    if (action === 'enable') gw.health.forget((await channelNamed(gw.store, name)).id);
    return answerChannel(gw, name);
  };
}

/** POST /api/console/admin/channels/delete {name}. */
export const adminDeleteChannel: ApiHandler<'deleteChannel'> = async (gw, _ctx, { caller, body: { name } }) => {
  try {
    await removeChannel(gw.store, name, caller.acting);
  } catch (error) {
    refusal(error, 'channel_not_found');
  }
  return { body: { object: 'console.channel_deleted', name } };
};

/**
 * POST /api/console/admin/channels/test {name, model?}: the CLI's `channel test`, a real request to the
 * upstream (enabled or not). 200 with what happened, whether it worked or not: the status, the time, the
 * upstream's words (keys redacted) and the contract's code of a failure.
 */
export const adminTestChannel: ApiHandler<'testChannel'> = async (gw, _ctx, { body }) => {
  let channel: ChannelRecord;
  let model: string;
  try {
    channel = await channelNamed(gw.store, body.name);
    model = testModelOf(channel, body.model);
  } catch (error) {
    refusal(error, 'channel_not_found');
  }
  const result = await testChannel(channel, model);
  return {
    body: {
      object: 'console.channel_test', channel: channel.name, model, upstream_model: result.upstreamModel, ok: result.ok,
      status: result.status, latency_ms: result.ms, error_code: result.code, message: result.line,
    },
  };
};
