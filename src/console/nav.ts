/** The console's menu: what every signed-in user has, and what admins have besides. */
import { defineMessages } from './i18n/lang.ts';

export const NAV_WORDS = defineMessages({
  en: {
    dashboard: 'Dashboard', keys: 'API keys', models: 'Models', playground: 'Playground', logs: 'Logs', topup: 'Top up', account: 'Account',
    adminSection: 'Administration', overview: 'Overview', users: 'Users', channels: 'Channels', prices: 'Models & prices', codes: 'Redemption codes',
    invitations: 'Invitations', allLogs: 'All logs', tokens: 'Access tokens', audit: 'Audit log', settings: 'Settings',
  },
  'zh-CN': {
    dashboard: '仪表盘', keys: 'API 密钥', models: '模型', playground: '演练场', logs: '日志', topup: '充值', account: '账户',
    adminSection: '管理', overview: '总览', users: '用户', channels: '渠道', prices: '模型与价格', codes: '兑换码',
    invitations: '邀请码', allLogs: '全部日志', tokens: '访问令牌', audit: '审计日志', settings: '设置',
  },
});

export type NavWord = keyof (typeof NAV_WORDS)['en'];

export interface NavItem {
  readonly path: string;
  readonly word: NavWord;
}

export const USER_NAV: readonly NavItem[] = [
  { path: '/', word: 'dashboard' },
  { path: '/keys', word: 'keys' },
  { path: '/models', word: 'models' },
  { path: '/playground', word: 'playground' },
  { path: '/logs', word: 'logs' },
  { path: '/topup', word: 'topup' },
  { path: '/account', word: 'account' },
];

export const ADMIN_NAV: readonly NavItem[] = [
  { path: '/admin', word: 'overview' },
  { path: '/admin/users', word: 'users' },
  { path: '/admin/channels', word: 'channels' },
  { path: '/admin/models', word: 'prices' },
  { path: '/admin/codes', word: 'codes' },
  { path: '/admin/invitations', word: 'invitations' },
  { path: '/admin/logs', word: 'allLogs' },
  { path: '/admin/tokens', word: 'tokens' },
  { path: '/admin/audit', word: 'audit' },
  { path: '/admin/settings', word: 'settings' },
];
