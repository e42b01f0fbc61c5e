/** The words of the admins' Access tokens page (#/admin/tokens). */
import { defineMessages } from '../i18n/lang.ts';

export const TOKENS_WORDS = defineMessages({
  en: {
    title: 'Admin access tokens',
    intro: 'For scripts that manage this gateway: send Authorization: Bearer mgt-… to the admin routes of the management API, described by the OpenAPI document at',
    intro2: 'A token acts as the admin who made it; every change it makes is in the audit log under that admin and the token’s name. It is never an API key: the model endpoints refuse it.',
    create: 'Create a token', name: 'Name', nameHint: 'What the script is, for the list and the audit log.', expires: 'Expires (optional)',
    expiresHint: 'The end of that day, in your time zone. Empty: never.', expiresBad: 'A day after today.', submit: 'Create token',
    newToken: 'New admin access token', token: 'Token', copyToken: 'Copy admin access token', example: 'Try it with curl', copyExample: 'Copy the curl command',
    colName: 'Name', colToken: 'Token', colStatus: 'Status', colActsAs: 'Acts as', colCreated: 'Created', colLastUsed: 'Last used', colExpires: 'Expires',
    active: 'active', expired: 'expired', revoked: 'revoked',
    revoke: 'Revoke', revokeAsk: 'Revoke {name}?', revokeBody: 'Scripts using it are refused from their next request on. This cannot be undone.',
    revokedSaid: 'Token {name} is revoked.', empty: 'No admin access tokens yet. Create one above; it is shown once.',
  },
  'zh-CN': {
    title: '管理员访问令牌',
    intro: '供管理本网关的脚本使用：向管理 API 的管理员路由发送 Authorization: Bearer mgt-…，接口说明见 OpenAPI 文档',
    intro2: '令牌以创建它的管理员身份操作；它所做的每项更改都会以该管理员和令牌名称记录在审计日志中。它不是 API 密钥：模型接口会拒绝它。',
    create: '创建令牌', name: '名称', nameHint: '脚本的用途，会显示在列表和审计日志中。', expires: '过期日期（可选）',
    expiresHint: '按你的时区，在当天结束时过期。留空：永不过期。', expiresBad: '请选择今天之后的日期。', submit: '创建令牌',
    newToken: '新的管理员访问令牌', token: '令牌', copyToken: '复制管理员访问令牌', example: '用 curl 试一下', copyExample: '复制 curl 命令',
    colName: '名称', colToken: '令牌', colStatus: '状态', colActsAs: '身份', colCreated: '创建时间', colLastUsed: '最近使用', colExpires: '过期',
    active: '有效', expired: '已过期', revoked: '已撤销',
    revoke: '撤销', revokeAsk: '撤销 {name}？', revokeBody: '使用它的脚本从下一个请求起将被拒绝。此操作无法撤回。',
    revokedSaid: '令牌 {name} 已撤销。', empty: '还没有管理员访问令牌。请在上方创建；令牌只显示一次。',
  },
});
