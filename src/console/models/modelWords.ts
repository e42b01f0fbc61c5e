/** The words of the model catalogue (#/models) and of the model table the key console shares. */
import { defineMessages } from '../i18n/lang.ts';

export const MODEL_WORDS = defineMessages({
  en: {
    title: 'Models',
    intro: 'Every model open to your account, with its price. Model names must match exactly: copy them.',
    search: 'Search models', searchPlaceholder: 'Search by name',
    count: '{count} models open to your account.', countOne: '1 model open to your account.',
    matches: '{count} models match "{q}".', matchesOne: '1 model matches "{q}".',
    noMatch: 'No model name contains "{q}".',
    none: 'No model is open to your account yet. Ask the gateway\u2019s operator.',
    tableLabel: 'Model catalogue',
    name: 'Model name', kind: 'Kind', context: 'Context', maxOutput: 'Max output', input: 'Input / 1M tokens', output: 'Output / 1M tokens', tools: 'Tools', images: 'Image input',
    copyName: 'Copy model name {name}',
    perImage: '{price} / image', cached: 'cached {price}',
    chat: 'chat', completion: 'completion', embedding: 'embedding', image: 'image',
    toolsYes: 'yes', toolsNo: 'no', unknown: '\u2014', free: 'free',
    tokens: '{n} tokens',
  },
  'zh-CN': {
    title: '模型',
    intro: '你的账户可用的全部模型及价格。模型名称必须完全一致：请直接复制。',
    search: '搜索模型', searchPlaceholder: '按名称搜索',
    count: '你的账户可用 {count} 个模型。', countOne: '你的账户可用 1 个模型。',
    matches: '{count} 个模型匹配“{q}”。', matchesOne: '1 个模型匹配“{q}”。',
    noMatch: '没有名称包含“{q}”的模型。',
    none: '你的账户目前没有可用的模型。请联系网关运营者。',
    tableLabel: '模型目录',
    name: '模型名称', kind: '类型', context: '上下文', maxOutput: '最大输出', input: '输入 / 百万 token', output: '输出 / 百万 token', tools: '工具调用', images: '图像输入',
    copyName: '复制模型名称 {name}',
    perImage: '{price} / 张图', cached: '缓存 {price}',
    chat: '对话', completion: '补全', embedding: '向量嵌入', image: '图像',
    toolsYes: '支持', toolsNo: '不支持', unknown: '\u2014', free: '免费',
    tokens: '{n} token',
  },
});
