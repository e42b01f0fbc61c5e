/** The words of self sign-up (#/signup). */
import { defineMessages } from '../i18n/lang.ts';

export const SIGN_UP_WORDS = defineMessages({
  en: {
    title: 'Create an account',
    intro: 'Choose a user name and a password. Your account has the same name; you sign in with them from now on.',
    introInvitation: 'This gateway takes sign-ups with an invitation code from its admins. Give yours with the name and password you choose.',
    closed: 'This gateway does not take sign-ups', closedText: 'Its admins create the accounts. Ask an admin of this gateway for one.',
    name: 'User name', nameHint: '1 to 64 letters, digits, ".", "_", "-" or "@".', password: 'Password', passwordHint: 'At least 10 characters.',
    repeat: 'Password again', mismatch: 'The two passwords differ.', tooShort: 'At least 10 characters.', badName: 'Use 1 to 64 letters, digits, ".", "_", "-" or "@".',
    code: 'Invitation code', codeHint: 'As the admin gave it to you (MGI-…).', codeNeeded: 'Signing up here needs an invitation code.',
    submit: 'Create the account and sign in', haveAccount: 'Have an account already?', signIn: 'Sign in',
  },
  'zh-CN': {
    title: '创建账户',
    intro: '选择用户名和密码。你的账户与用户名同名；之后用它们登录。',
    introInvitation: '本网关凭管理员发放的邀请码注册。请填写邀请码以及你选择的用户名和密码。',
    closed: '本网关不开放注册', closedText: '账户由管理员创建。请向本网关的管理员申请。',
    name: '用户名', nameHint: '1 到 64 个字母、数字、"."、"_"、"-" 或 "@"。', password: '密码', passwordHint: '至少 10 个字符。',
    repeat: '再次输入密码', mismatch: '两次输入的密码不一致。', tooShort: '至少 10 个字符。', badName: '请使用 1 到 64 个字母、数字、"."、"_"、"-" 或 "@"。',
    code: '邀请码', codeHint: '按管理员提供的原样填写（MGI-…）。', codeNeeded: '在此注册需要邀请码。',
    submit: '创建账户并登录', haveAccount: '已有账户？', signIn: '登录',
  },
});
