/** The words of signing in and of the first admin's setup. */
import { defineMessages } from '../i18n/lang.ts';

export const SIGN_IN_WORDS = defineMessages({
  en: {
    title: 'Sign in', intro: 'Sign in with the user name and password your gateway admin gave you.',
    name: 'User name', password: 'Password', submit: 'Sign in',
    withKey: 'Only have an API key? Open the console with the key', noAccount: 'No account yet?', signUp: 'Create an account', notice: 'A notice from the admins',
    setupTitle: 'Set up the first admin', setupIntro: 'This link was printed by model-gateway serve and works once, within an hour. Choose the name and password of the gateway\u2019s first admin.',
    passwordHint: 'At least 10 characters.', repeat: 'Password again', mismatch: 'The two passwords differ.', setupSubmit: 'Create the admin and sign in',
    noToken: 'This setup link has no token. Copy the whole link that model-gateway serve printed.',
    wrong: 'The user name or the password is wrong.',
    waiting: 'Wait {seconds} s',
    endedTitle: 'Your session ended',
    ended: 'You were signed out (in another tab, by a password change, by an admin, or after a while without use). Sign in again to go back to the page you were on.',
  },
  'zh-CN': {
    title: '登录', intro: '使用网关管理员提供的用户名和密码登录。',
    name: '用户名', password: '密码', submit: '登录',
    withKey: '只有 API 密钥？用密钥打开控制台', noAccount: '还没有账户？', signUp: '创建账户', notice: '管理员公告',
    setupTitle: '设置第一个管理员', setupIntro: '此链接由 model-gateway serve 打印，一小时内可用一次。请为网关的第一个管理员设置用户名和密码。',
    passwordHint: '至少 10 个字符。', repeat: '再次输入密码', mismatch: '两次输入的密码不一致。', setupSubmit: '创建管理员并登录',
    noToken: '此设置链接缺少令牌。请复制 model-gateway serve 打印的完整链接。',
    wrong: '用户名或密码错误。',
    waiting: '请等待 {seconds} 秒',
    endedTitle: '会话已结束',
    ended: '你已退出登录（在其他标签页中、因密码修改、被管理员操作，或长时间未使用）。重新登录即可回到刚才的页面。',
  },
});
