/** The words of the admins' Audit log page (#/admin/audit), with every action of the log in words. */
import type { AuditAction } from '../../contract/admin.ts';
import { defineMessages, type Lang } from '../i18n/lang.ts';
import { usd } from '../i18n/format.ts';
import { moneyOf } from '../dashboard/model.ts';

export const AUDIT_WORDS = defineMessages({
  en: {
    title: 'Audit log',
    intro: 'Admin actions, newest first: who changed which user, balance, channel, price, codes, tokens or settings (cli: the command line; a script: its admin, via its token), and who signed up. Never a password, key, code or token.',
    actor: 'Actor', actorPlaceholder: 'anyone (a user name, or cli)', action: 'Action', anyAction: 'Any action', show: 'Show',
    colTime: 'Time', colActor: 'Actor', colAction: 'Action', colTarget: 'Target', noBatch: '(no batch)', colDetails: 'Details', viaToken: 'via token {name}',
    empty: 'No admin action matches.', noneYet: 'No admin action yet.',
  },
  'zh-CN': {
    title: '审计日志',
    intro: '管理员操作，最新的在前：谁修改了哪个用户、余额、渠道、价格、兑换码、令牌或设置（cli：命令行；脚本：其管理员，经由其令牌），以及谁自行注册。从不记录密码、密钥、兑换码或令牌。',
    actor: '操作者', actorPlaceholder: '任何人（用户名，或 cli）', action: '操作', anyAction: '任何操作', show: '显示',
    colTime: '时间', colActor: '操作者', colAction: '操作', colTarget: '对象', noBatch: '（无批次）', colDetails: '详情', viaToken: '经由令牌 {name}',
    empty: '没有匹配的管理员操作。', noneYet: '还没有管理员操作。',
  },
});

/** Every action of the audit log in words (the type checker refuses one left out). */
export const AUDIT_ACTION_WORDS: Readonly<Record<Lang, Readonly<Record<AuditAction, string>>>> = {
  en: {
    'user.create': 'user created', 'user.disable': 'user disabled', 'user.enable': 'user enabled', 'user.password_reset': 'password reset',
    'user.admin_grant': 'admin granted', 'user.admin_revoke': 'admin revoked', 'account.create': 'account created', 'account.topup': 'account topped up',
    'channel.add': 'channel added', 'channel.update': 'channel changed', 'channel.disable': 'channel disabled', 'channel.enable': 'channel enabled',
    'channel.remove': 'channel deleted', 'model.price': 'model priced', 'code.create': 'codes generated', 'code.disable': 'codes disabled',
    'key.limits': 'key limits changed', 'token.create': 'access token created', 'token.revoke': 'access token revoked',
    'settings.change': 'settings changed', 'invitation.create': 'invitations generated', 'invitation.disable': 'invitations disabled',
    'user.sign_up': 'signed up',
  },
  'zh-CN': {
    'user.create': '创建用户', 'user.disable': '禁用用户', 'user.enable': '启用用户', 'user.password_reset': '重置密码',
    'user.admin_grant': '授予管理员', 'user.admin_revoke': '撤销管理员', 'account.create': '创建账户', 'account.topup': '账户充值',
    'channel.add': '添加渠道', 'channel.update': '修改渠道', 'channel.disable': '禁用渠道', 'channel.enable': '启用渠道',
    'channel.remove': '删除渠道', 'model.price': '模型定价', 'code.create': '生成兑换码', 'code.disable': '禁用兑换码',
    'key.limits': '修改密钥限制', 'token.create': '创建访问令牌', 'token.revoke': '撤销访问令牌',
    'settings.change': '修改设置', 'invitation.create': '生成邀请码', 'invitation.disable': '禁用邀请码',
    'user.sign_up': '自行注册',
  },
};

/** "amount_micro_usd: 12500000, amount: $12.50": an audit row's details as text, nested values as JSON. */
export function detailsText(details: Readonly<Record<string, unknown>> | null): string {
  if (!details) return '—';
  const said = Object.entries(details).filter(([key, value]) => value !== null && value !== undefined && !(key.endsWith('_micro_usd') && `${key.slice(0, -'_micro_usd'.length)}` in details));
  return said.length === 0 ? '—' : said.map(([key, value]) => `${key}: ${valueText(key, value)}`).join(', ');
}

/** Prices (micro-USD per million tokens or per image) and other micro-USD amounts as dollars; the rest as they are. */
function valueText(key: string, value: unknown): string {
  const money = /Price$|_micro_usd$/.test(key);
  if (money && typeof value === 'number') return usd(moneyOf(value));
  if (key === 'imagePrices' && value !== null && typeof value === 'object') {
    return Object.entries(value).map(([variant, price]) => `${variant} ${typeof price === 'number' ? usd(moneyOf(price)) : String(price)}`).join('; ');
  }
  return value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value);
}
