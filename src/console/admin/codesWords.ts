/** The words of the admins' Redemption codes page (#/admin/codes). */
import { defineMessages } from '../i18n/lang.ts';

export const CODES_WORDS = defineMessages({
  en: {
    title: 'Redemption codes',
    intro: 'Single-use codes of a value, for users to redeem on their Top up page. The list never shows a code: only who used it and when.',
    generate: 'Generate codes', value: 'Value (USD)', count: 'How many', countHint: '1 to 1000.', batch: 'Batch name (optional)',
    batchHint: 'Names the codes together, to find or disable them at once.', expires: 'Expires (optional)', expiresHint: 'The end of that day, in your time zone. Empty: never.',
    countBad: 'A whole number from 1 to 1000.', expiresBad: 'A day after today.',
    newCodes: 'New codes', newWhat: '{count} codes of {value}', newWhatOne: '1 code of {value}', newBatch: 'batch {batch}', newExpires: 'expiring {date}',
    copyAll: 'Copy all', copyAllLabel: 'Copy all codes',
    filters: 'Show codes', filterBatch: 'Batch', filterBatchPlaceholder: 'every batch', filterStatus: 'Status', anyStatus: 'All',
    unused: 'unused', used: 'used', expired: 'expired', disabled: 'disabled',
    disableBatch: 'Disable this batch', disableBatchAsk: 'Disable every unused code of {batch}?', disableBatchBody: 'Codes already used stay used; the others can no longer be redeemed.',
    disable: 'Disable', disableAsk: 'Disable code {id}?', disableBody: 'It can no longer be redeemed.',
    disabledOne: 'Code {id} is disabled.', disabledMany: '{count} codes of {batch} are disabled.', disabledManyOne: '1 code of {batch} is disabled.',
    colId: 'ID', colBatch: 'Batch', colValue: 'Value', colStatus: 'Status', colBy: 'Redeemed by', colCreated: 'Created', colRedeemed: 'Redeemed', colExpires: 'Expires',
    byAdmin: 'by {name}', empty: 'No code matches. Generate some above.', noneYet: 'No codes yet. Generate some above.',
  },
  'zh-CN': {
    title: '兑换码',
    intro: '具有面值的一次性兑换码，用户可在“充值”页面兑换。列表从不显示兑换码本身：只显示谁在何时使用了它。',
    generate: '生成兑换码', value: '面值（美元）', count: '数量', countHint: '1 到 1000。', batch: '批次名（可选）',
    batchHint: '为这批兑换码命名，便于一起查找或禁用。', expires: '过期日期（可选）', expiresHint: '按你的时区，在当天结束时过期。留空：永不过期。',
    countBad: '请输入 1 到 1000 之间的整数。', expiresBad: '请选择今天之后的日期。',
    newCodes: '新兑换码', newWhat: '{count} 个面值 {value} 的兑换码', newWhatOne: '1 个面值 {value} 的兑换码', newBatch: '批次 {batch}', newExpires: '{date} 过期',
    copyAll: '全部复制', copyAllLabel: '复制全部兑换码',
    filters: '查看兑换码', filterBatch: '批次', filterBatchPlaceholder: '所有批次', filterStatus: '状态', anyStatus: '全部',
    unused: '未使用', used: '已使用', expired: '已过期', disabled: '已禁用',
    disableBatch: '禁用此批次', disableBatchAsk: '禁用 {batch} 中所有未使用的兑换码？', disableBatchBody: '已使用的兑换码不受影响；其余的将无法再兑换。',
    disable: '禁用', disableAsk: '禁用兑换码 {id}？', disableBody: '它将无法再被兑换。',
    disabledOne: '兑换码 {id} 已禁用。', disabledMany: '{batch} 中的 {count} 个兑换码已禁用。', disabledManyOne: '{batch} 中的 1 个兑换码已禁用。',
    colId: 'ID', colBatch: '批次', colValue: '面值', colStatus: '状态', colBy: '兑换者', colCreated: '创建', colRedeemed: '兑换时间', colExpires: '过期',
    byAdmin: '由 {name}', empty: '没有匹配的兑换码。请在上方生成。', noneYet: '还没有兑换码。请在上方生成。',
  },
});
