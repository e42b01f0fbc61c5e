/** Words the admin pages share: amounts, lists, the panel of a secret shown once, pairs editors. */
import { defineMessages } from '../i18n/lang.ts';

export const ADMIN_WORDS = defineMessages({
  en: {
    usdFormat: 'Write an amount in USD with digits and a point, like 12.50.',
    usdDecimals: 'At most 6 decimals: the smallest amount is $0.000001.',
    usdZero: 'The amount must be more than $0.',
    usdTooBig: 'That is more than the gateway takes.',
    usdHint: 'Exact, in USD: up to 6 decimals.',
    nameRule: '1 to 64 letters, digits, ".", "_", "-" or "@".',
    never: 'never',
    more: 'More',
    older: 'Older',
    shownOnce: 'Copy it now: it is shown this once and cannot be shown again.',
    shownOnceAll: 'Copy them now: they are shown this once and cannot be shown again.',
    copiedDone: 'I have copied it',
    copiedAllDone: 'I have copied them',
    remove: 'Remove',
    noRows: 'Nothing matches.',
    auditNote: 'Every change here is written to the audit log under your name.',
  },
  'zh-CN': {
    usdFormat: '请输入美元金额，只用数字和小数点，例如 12.50。',
    usdDecimals: '最多 6 位小数：最小金额为 $0.000001。',
    usdZero: '金额必须大于 $0。',
    usdTooBig: '超出了网关允许的上限。',
    usdHint: '精确的美元金额，最多 6 位小数。',
    nameRule: '1 到 64 个字母、数字、"."、"_"、"-" 或 "@"。',
    never: '从未',
    more: '加载更多',
    older: '更早',
    shownOnce: '请立即复制：它只显示这一次，之后无法再次查看。',
    shownOnceAll: '请立即复制：它们只显示这一次，之后无法再次查看。',
    copiedDone: '我已复制',
    copiedAllDone: '我已全部复制',
    remove: '移除',
    noRows: '没有匹配的内容。',
    auditNote: '此处的每项更改都会以你的名义记录到审计日志。',
  },
});

/** User, account, batch and token names (the contract's rule), for the browser's own check. */
export { NAME_PATTERN } from '../../contract/values.ts';
