/**
 * GET /api/console/account/logs/detail?id=N and GET /api/console/admin/logs/detail?id=N: one request log
 * row in full, everything the gateway stored about it (the channels tried and why they failed, the cap it
 * set, the upstream's model name, the client's User-Agent and address). A user's route answers only rows of
 * their own account: another account's is 404 log_not_found, exactly like an id that does not exist.
 */
import { attemptsOfLog } from '../channelHealthReport.ts';
import { HttpError } from '../http/errors.ts';
import type { StoredLog } from '../store/types.ts';
import { rowView } from './consoleLogs.ts';
import type { ApiHandler } from './api.ts';

function detailView(l: StoredLog) {
  return {
    object: 'console.log' as const, ...rowView(l), account: l.accountName, channel: l.channel, upstream_model: l.upstreamModel ?? null,
    completion_cap: l.completionCap ?? null, attempts: attemptsOfLog(l.attempts), user_agent: l.userAgent ?? null, client_ip: l.clientIp ?? null,
  };
}

export const accountLogDetail: ApiHandler<'getAccountLog'> = async (gw, _ctx, { caller, query }) => {
  await gw.logs.flush();
  const row = await gw.store.requestLogs.get(query.id);
  if (!row || row.accountId !== caller.user.accountId) throw new HttpError('log_not_found', `Asked for id ${query.id}.`);
  return { body: detailView(row) };
};

export const adminLogDetail: ApiHandler<'getAdminLog'> = async (gw, _ctx, { query }) => {
  await gw.logs.flush();
  const row = await gw.store.requestLogs.get(query.id);
  if (!row) throw new HttpError('log_not_found', `Asked for id ${query.id}.`);
  return { body: detailView(row) };
};
