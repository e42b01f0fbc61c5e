/** The words of the Playground (#/playground), in both languages. */
import { defineMessages } from '../i18n/lang.ts';

export const PLAYGROUND_WORDS = defineMessages({
  en: {
    title: 'Playground',
    intro: 'Chat with a model before you configure a tool. Each answer is a real request, charged to your account and listed in your logs under the key named "{key}" (made on first use; disable it on the API keys page to turn the playground off).',
    model: 'Model', noModels: 'No chat model is open to your account yet. Ask the gateway\u2019s operator.',
    system: 'System prompt (optional)', systemPlaceholder: 'You are a helpful assistant.',
    message: 'Your message', messagePlaceholder: 'Ask something\u2026', sendHint: 'Ctrl+Enter or \u2318+Enter sends.',
    send: 'Send', stop: 'Stop', clear: 'New conversation',
    conversation: 'Conversation', empty: 'No messages yet. Pick a model, type a message and send it.',
    you: 'You', assistant: 'Assistant', writing: 'writing\u2026',
    stopped: 'Stopped: the answer so far is kept.',
    stats: '{prompt} in + {completion} out tokens \u00b7 {cost} \u00b7 first token {first} \u00b7 {total} in all',
    statsNoUsage: 'first token {first} \u00b7 {total} in all \u00b7 no usage reported',
    streamError: 'The answer stopped with an error',
  },
  'zh-CN': {
    title: '演练场',
    intro: '在配置工具之前先与模型对话试试。每次回答都是一次真实请求，由你的账户付费，并以名为“{key}”的密钥记录在你的日志中（首次使用时自动创建；在 API 密钥页面禁用它即可关闭演练场）。',
    model: '模型', noModels: '你的账户目前没有可用的对话模型。请联系网关运营者。',
    system: '系统提示词（可选）', systemPlaceholder: '你是一个乐于助人的助手。',
    message: '你的消息', messagePlaceholder: '问点什么\u2026', sendHint: '按 Ctrl+Enter 或 \u2318+Enter 发送。',
    send: '发送', stop: '停止', clear: '新对话',
    conversation: '对话', empty: '还没有消息。选择模型，输入消息后发送。',
    you: '你', assistant: '助手', writing: '正在生成\u2026',
    stopped: '已停止：已生成的部分保留。',
    stats: '输入 {prompt} + 输出 {completion} token \u00b7 {cost} \u00b7 首个 token {first} \u00b7 共 {total}',
    statsNoUsage: '首个 token {first} \u00b7 共 {total} \u00b7 未报告用量',
    streamError: '回答因错误中断',
  },
});
