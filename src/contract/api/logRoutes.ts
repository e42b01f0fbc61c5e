/**
 * The routes of request logs and dashboards (issue 10): a signed-in user's own account's (its logs, one
 * request in full, its dashboard) and the admins' over every account. Beside the others in the one table
 * (routes.ts).
 */
import { Dashboard, DashboardQuery, GatewayDashboard } from './dashboard.ts';
import { AccountLogList, AccountLogsQuery, AdminLogList, AdminLogsQuery, LogDetail, LogDetailQuery } from './logs.ts';
import type { ApiRoute } from './route.ts';

export const ACCOUNT_LOGS_PATH = '/api/console/account/logs';
export const ADMIN_LOGS_PATH = '/api/console/admin/logs';

const CSV = 'with format=csv: the same filtered rows (at most 10,000), as a file to download';

const LIVE = 'Newest first, in pages continued with before=next_before. A live view polls (every 2 s, say) with after=next_after of its last answer: '
  + 'the rows written since come oldest first, each exactly once, however many gateway instances write. Reading is not itself logged.';

export const LOG_ROUTES = {
  listAccountLogs: {
    method: 'GET', path: ACCOUNT_LOGS_PATH, tag: 'account', summary: "The request logs of every key of the user's account", auth: 'session', query: AccountLogsQuery,
    description: LIVE, response: { status: 200, schema: AccountLogList, csv: CSV }, errors: [],
  },
  getAccountLog: {
    method: 'GET', path: `${ACCOUNT_LOGS_PATH}/detail`, tag: 'account', summary: "One request of the user's account in full: attempts, caps, client", auth: 'session', query: LogDetailQuery,
    description: "A row of another account answers 404 log_not_found, exactly like one that does not exist.", response: { status: 200, schema: LogDetail }, errors: ['log_not_found'],
  },
  getDashboard: {
    method: 'GET', path: '/api/console/dashboard', tag: 'account', summary: "The user's account over 24 hours, 7 or 30 days: money, requests, errors, models, latency", auth: 'session', query: DashboardQuery,
    response: { status: 200, schema: Dashboard }, errors: [],
  },
  listAdminLogs: {
    method: 'GET', path: ADMIN_LOGS_PATH, tag: 'activity', summary: 'The request logs of every account, by account or user if asked', auth: 'admin', query: AdminLogsQuery,
    description: `${LIVE} Rows without an account are refusals before a valid key was known (sampled, so that a flood cannot fill the log).`,
    response: { status: 200, schema: AdminLogList, csv: CSV }, errors: ['account_not_found', 'user_not_found'],
  },
  getAdminLog: {
    method: 'GET', path: `${ADMIN_LOGS_PATH}/detail`, tag: 'activity', summary: 'One request of any account in full', auth: 'admin', query: LogDetailQuery,
    response: { status: 200, schema: LogDetail }, errors: ['log_not_found'],
  },
  getGatewayDashboard: {
    method: 'GET', path: '/api/console/admin/dashboard', tag: 'activity', summary: "The whole gateway's dashboard: every account's requests, the accounts that spent most, counts", auth: 'admin', query: DashboardQuery,
    description: 'The same as a user\'s dashboard, over the rows of every account (a refusal before any account was known is not counted: those are sampled).',
    response: { status: 200, schema: GatewayDashboard }, errors: [],
  },
} as const satisfies Record<string, ApiRoute>;
