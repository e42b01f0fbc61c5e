/** The words of the admins' Settings page (#/admin/settings). */
import { defineMessages } from '../i18n/lang.ts';

export const SETTINGS_WORDS = defineMessages({
  en: {
    title: 'Settings',
    intro: 'How this gateway runs, changed while it runs: every instance on the same database applies a change within a second.',
    signUp: 'Sign-up', signUpHint: 'Who may make their own account on the sign-in page.',
    off: 'Off: only admins create accounts', open: 'Open: anyone can make an account', invitation: 'With an invitation code from an admin (Invitations page)',
    invitationsLink: 'Make invitation codes',
    balance: 'Balance of a new account (USD)', balanceHint: 'What an account made by sign-up starts with. $0 is allowed.',
    retention: 'Keep request logs (days)', retentionHint: 'Older request logs are deleted. 0 keeps them all.', retentionBad: 'A whole number from 0 to 36500.',
    retentionFlag: 'This instance was started with --log-retention-days {days}: it keeps request logs {days} days, whatever this setting says.',
    notice: 'Notice on the sign-in page', noticeHint: 'Shown as text to everyone who signs in. Empty: none.', noticeCount: '{count} of {max} characters',
    noticeBad: 'Printable text only (line breaks allowed).', noticeLong: 'At most {max} characters.',
    logsCard: 'Request logs', signInCard: 'Sign-in page', isDefault: 'default', reset: 'Use the default', save: 'Save settings', saved: 'Settings saved.', nothingChanged: 'Nothing changed.',
    resetDone: '{setting} is back to its default.',
  },
  'zh-CN': {
    title: '设置',
    intro: '网关运行时可修改的设置：使用同一数据库的所有实例会在一秒内应用更改。',
    signUp: '注册', signUpHint: '谁可以在登录页面自行创建账户。',
    off: '关闭：只有管理员可以创建账户', open: '开放：任何人都可以创建账户', invitation: '凭管理员发放的邀请码注册（邀请码页面）',
    invitationsLink: '生成邀请码',
    balance: '新账户余额（美元）', balanceHint: '自行注册的账户的初始余额。可以为 $0。',
    retention: '请求日志保留天数', retentionHint: '更早的请求日志会被删除。0 表示全部保留。', retentionBad: '请输入 0 到 36500 之间的整数。',
    retentionFlag: '此实例以 --log-retention-days {days} 启动：无论此设置如何，请求日志都保留 {days} 天。',
    notice: '登录页公告', noticeHint: '以纯文本形式显示给所有登录的人。留空：不显示。', noticeCount: '{count} / {max} 个字符',
    noticeBad: '只能是可打印文本（可以换行）。', noticeLong: '最多 {max} 个字符。',
    logsCard: '请求日志', signInCard: '登录页面', isDefault: '默认', reset: '恢复默认', save: '保存设置', saved: '设置已保存。', nothingChanged: '没有任何更改。',
    resetDone: '{setting} 已恢复默认。',
  },
});

export { SIGN_UP_MODES } from '../../contract/values.ts';
