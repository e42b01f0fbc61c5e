/** The words of the frame around every page (Layout, ConsoleApp, Preferences). */
import { defineMessages } from './i18n/lang.ts';

export const LAYOUT_WORDS = defineMessages({
  en: {
    skip: 'Skip to the page', menu: 'Menu', signOut: 'Sign out', admin: 'admin', accountIs: 'Account: {account}',
    language: 'Language', theme: 'Theme', system: 'System', light: 'Light', dark: 'Dark',
    notFound: 'There is no page here.', notFoundHint: 'Check the address, or pick a page from the menu.', adminOnly: 'This page is for admins.',
    home: 'Go to the dashboard',
  },
  'zh-CN': {
    skip: '跳到页面内容', menu: '菜单', signOut: '退出登录', admin: '管理员', accountIs: '账户：{account}',
    language: '语言', theme: '主题', system: '跟随系统', light: '浅色', dark: '深色',
    notFound: '这里没有页面。', notFoundHint: '请检查地址，或从菜单中选择页面。', adminOnly: '此页面仅限管理员。',
    home: '前往仪表盘',
  },
});
