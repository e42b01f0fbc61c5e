/**
 * The contract's words on errors for the key console (section 7): what a status means and what to do
 * (7.2), and the troubleshooting order (7.3). English is the contract's own table (plain data, no zod);
 * the Chinese is written here with the same keys, so the type checker refuses one left out.
 */
import { familyOfStatus, STATUS_FAMILIES, TROUBLESHOOTING_STEPS, type StatusFamilyId, type TroubleshootingStep } from '../../contract/errors.ts';
import type { Lang } from '../i18n/lang.ts';

interface FamilyWords {
  readonly title: string;
  readonly meaning: string;
  readonly action: string;
}

const ZH_FAMILIES: Readonly<Record<StatusFamilyId, FamilyWords>> = {
  bad_request: { title: '请求无效', meaning: '网关无法按所发送的内容接受此请求。', action: '检查请求体：model（字符串）和 messages（由 {role, content} 组成的数组）。' },
  authentication: { title: '认证失败（401）', meaning: 'API 密钥错误、无效、缺失、格式错误，或前后带有空格。', action: '完整地重新复制密钥，不带空格，并以 "Authorization: Bearer <API_KEY>" 发送。' },
  permission: { title: '请求被拒绝（403）', meaning: '密钥有效但被拒绝：余额不足、密钥已禁用或过期，或没有此模型的权限。', action: '在控制台中检查余额、密钥权限和模型权限。' },
  not_found: { title: '路径或模型不存在（404）', meaning: '此地址下没有该路径，或模型名称不存在或不匹配。', action: '检查基础地址（是否需要 /v1），并从控制台复制准确的模型名称。' },
  payload_too_large: { title: '请求太大（413）', meaning: '请求体超过了网关接受的大小。', action: '发送更短的对话或更小的附件。' },
  rate_limit: { title: '请求过多（429）', meaning: '请求过于频繁，或服务繁忙。', action: '降低并发，稍候重试，或换用其他模型。' },
  server: { title: '服务繁忙或临时故障（5xx）', meaning: '服务繁忙、上游出错或出现临时故障。', action: '稍后重试；保留错误文本和请求 ID 以便支持人员排查。' },
  connection: { title: '无法连接网关', meaning: '无法连接到基础地址。', action: '检查基础地址、网络和代理设置。' },
  timeout: { title: '网关未能及时应答', meaning: '在应答到达前请求已超时。', action: '稍后重试，或调高请求超时设置。' },
  aborted: { title: '请求已取消', meaning: '请求在完成前被中止。', action: '无需修复：需要应答时再次发送即可。' },
  invalid_response: { title: '网关的应答不符合预期', meaning: '该地址有应答，但不是 OpenAI 兼容格式。', action: '检查基础地址（是否需要 /v1）：它可能指向网页而不是 API。' },
};

const ZH_STEPS: Readonly<Record<TroubleshootingStep, string>> = {
  address: '检查 API 地址（基础地址，以及是否需要 /v1）。',
  key: '检查 API 密钥（完整，没有多余空格）。',
  balance: '检查余额。',
  model: '检查模型名称是否与控制台中的完全一致。',
  permission: '检查密钥权限和模型权限。',
  logs: '查看控制台的请求日志。',
  restart: '修改配置后，重启终端或应用。',
};

/** What a status means and what to do about it (7.2), in the person's language. */
export function familyWords(status: number, lang: Lang): FamilyWords {
  const id = status === 0 ? 'connection' : status === 499 ? 'aborted' : familyOfStatus(status);
  return lang === 'zh-CN' ? ZH_FAMILIES[id] : STATUS_FAMILIES[id];
}

/** The troubleshooting order of 7.3, in the person's language. */
export function troubleshootingSteps(lang: Lang): readonly { readonly id: TroubleshootingStep; readonly text: string }[] {
  return TROUBLESHOOTING_STEPS.map((s) => ({ id: s.id, text: lang === 'zh-CN' ? ZH_STEPS[s.id] : s.text }));
}

/** The statuses the key console explains, as 7.2 lists them. */
export const EXPLAINED_STATUSES = [[401, 'warn'], [403, 'warn'], [404, 'warn'], [429, 'warn'], [503, 'bad']] as const;
