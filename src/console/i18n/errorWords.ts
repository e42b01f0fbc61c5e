/**
 * The contract's error words (section 7) in the console's two languages: the English is the
 * contract's own table (src/contract/errors.ts, plain data, no zod), the Chinese is written here with
 * the same keys, so the type checker refuses a code, a status family or a troubleshooting step left
 * untranslated (a code added to the contract's table needs its Chinese words here). The codes only
 * request logs carry (client_aborted, a warning on a 200) likewise; anything else falls back to its
 * status family.
 */
import {
  ERROR_CODES, familyOfStatus, firstCheckFor, isErrorCode, LOGGED_ONLY_CODES, STATUS_FAMILIES, TROUBLESHOOTING_STEPS,
  type ErrorCode, type StatusFamilyId, type TroubleshootingStep,
} from '../../contract/errors.ts';
import type { Lang } from './lang.ts';

const ZH_CODES: Readonly<Record<ErrorCode, string>> = {
  missing_api_key: '令牌无效：请求中没有 API 密钥。请发送请求头 "Authorization: Bearer <API_KEY>"。',
  invalid_auth_header: '令牌无效：Authorization 请求头必须是 "Bearer <API_KEY>"。',
  api_key_whitespace: '令牌无效：API 密钥前后有空格或换行。请重新复制密钥，不要带首尾空白。',
  invalid_api_key: '令牌无效：API 密钥错误或已不存在。请从控制台重新复制密钥。',
  not_signed_in: '令牌无效：你尚未登录控制台，或会话已结束。请重新登录。',
  invalid_credentials: '令牌无效：用户名或密码错误。',
  api_key_not_accepted: '令牌无效：API 密钥用于模型接口（/v1），不能用于管理 API。请登录控制台，或向管理路由发送管理员访问令牌。',
  admin_token_not_accepted: '令牌无效：管理员访问令牌（mgt-...）只能用于管理 API 的管理员路由，且不能创建令牌。模型接口需要 API 密钥（sk-...）。',
  invalid_admin_token: '令牌无效：管理员访问令牌错误或已不存在。请管理员在控制台（访问令牌）中新建一个。',
  key_disabled: '此 API 密钥已被禁用。请在控制台中启用它，或使用其他密钥。',
  key_expired: '此 API 密钥已过期。请在控制台中新建密钥。',
  insufficient_balance: '余额不足：账户无法支付此请求。请为账户充值。',
  model_not_permitted: '此 API 密钥没有所请求模型的权限。',
  model_not_priced: '此模型尚未定价，网关不提供服务。请联系运营者为其定价。',
  cross_site_request: '此请求不是来自本网关的控制台页面，已被拒绝。请使用控制台本身。',
  setup_link_invalid: '此设置链接无效：它只能使用一次、有效期一小时，且仅在网关还没有管理员时可用。若已创建管理员，请直接登录；若没有，请重启网关以获得新链接，或运行 model-gateway user create 名称 --admin。',
  current_password_wrong: '当前密码错误，密码未修改。',
  admin_required: '只有本网关的管理员可以执行此操作。请联系管理员。',
  key_spend_limit_reached: '此 API 密钥已达到消费上限。请等待上限重置，或在控制台中提高上限（或换用其他密钥）。',
  ip_not_allowed: '此 API 密钥不能从该地址使用：它只在 IP 允许列表中的地址有效。',
  admin_token_revoked: '此管理员访问令牌已被撤销。请管理员在控制台中新建一个。',
  admin_token_expired: '此管理员访问令牌已过期。请管理员在控制台中新建一个。',
  not_found: '路径不存在。请检查基础地址，是否需要 /v1。',
  endpoint_not_supported: '本网关不提供此接口。',
  key_not_found: '你的账户中没有此 ID 的 API 密钥。',
  user_not_found: '没有此名称的用户。',
  account_not_found: '没有此名称的账户。',
  model_not_found: '找不到模型（model not found）：没有此名称的模型。请从控制台复制准确的模型名称。',
  code_not_found: '没有此 ID 的兑换码，或该批次中没有兑换码。',
  channel_not_found: '没有此名称的渠道。',
  admin_token_not_found: '没有此 ID 的管理员访问令牌。',
  log_not_found: '没有此 ID 的请求日志：它从未写入、不属于你的账户，或已按日志保留期限删除。请从日志列表中重新选择请求。',
  user_code_invalid: '没有使用此代码等待中的登录请求：代码输错、已过期或已被处理。',
  method_not_allowed: '此路径不接受该请求方法。',
  invalid_json: '请求体不是有效的 JSON。',
  invalid_request: '请求无效。',
  redemption_code_invalid: '此兑换码不可用：输错、已使用、已过期或已停用。',
  wrong_endpoint: '此模型不在该接口上提供。',
  request_too_large: '请求体太大。',
  json_required: '此接口只接受 JSON 请求体：请发送 Content-Type: application/json。',
  key_name_taken: '你的账户中已有同名密钥。请换一个名称。',
  user_exists: '已有同名用户。请换一个名称。',
  account_exists: '已有与新用户同名的账户。',
  channel_exists: '已有同名渠道。请换一个名称，或编辑该渠道。',
  admin_token_name_taken: '已有同名（未撤销）的管理员访问令牌。',
  last_admin: '这是最后一个启用的管理员，因此未被禁用或降级。',
  uri_too_long: '请求 URL 太长。',
  headers_too_large: '请求头太大。',
  request_timeout: '请求未能及时到达。请重新发送。',
  rate_limited: '此 API 密钥的请求过于频繁。请稍候重试。',
  concurrency_limited: '此 API 密钥的并发请求过多。请降低并发后重试。',
  sign_in_throttled: '登录失败次数过多。请稍候再试。',
  user_code_throttled: '错误的登录代码过多。请稍候再试。',
  redemption_throttled: '错误的兑换码过多。请稍候再试。',
  upstream_rate_limited: '上游模型服务繁忙（限流）。请稍候重试，或换用其他模型。',
  balance_in_use: '此账户进行中的请求占用了余额；它们结束后余额足够支付本请求。请稍后重试，或减少同时发送的请求。',
  internal_error: '网关内部错误。请稍后重试，并保留此错误以便支持人员排查。',
  upstream_error: '上游模型服务出错。请稍后重试。',
  upstream_unavailable: '目前没有上游可以提供此模型。请稍后重试。',
  upstream_timeout: '上游模型服务未能及时应答。请稍后重试。',
  store_unavailable: '网关暂时无法记录费用（存储无法写入），因此不接受计费请求。请稍后重试。',
  gateway_busy: '网关正忙于接收其他请求。请稍后重试。',
  password_checks_busy: '同时校验的密码过多。请稍后重试。',
  metrics_token_required: '令牌无效：这些指标只提供给持有网关指标令牌的采集程序。请发送 "Authorization: Bearer <token>"（MODEL_GATEWAY_METRICS_TOKEN 的值）。',
  gateway_stopping: '网关正在停止，不再接受新请求。请稍后重试（其他实例，或重启后的本实例会应答）。',
  sign_up_closed: '本网关不开放注册：账户由管理员创建。请向本网关的管理员申请。',
  invitation_not_found: '没有此 ID 的邀请码，或该批次中没有邀请码。',
  invitation_required: '在本网关注册需要邀请码。请向本网关的管理员索取，并与用户名和密码一起填写。',
  invitation_invalid: '此邀请码不可用：输错、已使用、已过期或已停用。请检查，或向发放它的管理员另要一个。',
  password_too_short: '密码太短：请选择至少 10 个字符的密码。',
  sign_up_name_taken: '此名称已被使用。请换一个名称。',
  sign_up_throttled: '来自此地址的注册过多。请稍候再试。',
};

type LoggedOnlyCode = keyof typeof LOGGED_ONLY_CODES;

/** The codes a request log can carry that no answer is refused with (the contract's LOGGED_ONLY_CODES). */
const ZH_LOGGED_ONLY: Readonly<Record<LoggedOnlyCode, string>> = {
  client_aborted: '客户端在应答完成前关闭了连接。请检查客户端自身的超时设置，或请求是否被取消。',
  upstream_ignored_max_tokens: '上游在补全上限之后仍继续输出，网关在上限处截断了应答。请告知运营者：此渠道忽略 max_tokens。',
  charge_withheld: '应答已发出，但记录时账户已无法支付全部费用（提供服务的网关实例曾暂停，超过了它对余额的占用期限）：费用已减至余额所允许的数额。客户端无需处理；运营者可在网关日志中看到原因。',
};

const isLoggedOnly = (code: string): code is LoggedOnlyCode => Object.hasOwn(LOGGED_ONLY_CODES, code);

type FamilyWords = { readonly title: string; readonly meaning: string; readonly action: string };

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

/** A status family in words: its title, what it means, what to do. */
export function familyWords(status: number, lang: Lang): FamilyWords {
  // 0: no answer at all (the key console's fetch could not reach the gateway).
  const id = status === 0 ? 'connection' : status === 499 ? 'aborted' : familyOfStatus(status);
  return lang === 'zh-CN' ? ZH_FAMILIES[id] : STATUS_FAMILIES[id];
}

/** Why a request failed (or what a warning on it means), in words, from its code and status. */
export function reasonOf(code: string | null, status: number, lang: Lang): string {
  if (code !== null && isErrorCode(code)) return lang === 'zh-CN' ? ZH_CODES[code] : ERROR_CODES[code].message;
  if (code !== null && isLoggedOnly(code)) return lang === 'zh-CN' ? ZH_LOGGED_ONLY[code] : LOGGED_ONLY_CODES[code];
  return familyWords(status, lang).meaning;
}

export interface Step {
  readonly id: TroubleshootingStep;
  readonly text: string;
}

/** The troubleshooting order of contract 7.3, in the person's language. */
export function troubleshootingSteps(lang: Lang): readonly Step[] {
  return TROUBLESHOOTING_STEPS.map((s) => ({ id: s.id, text: lang === 'zh-CN' ? ZH_STEPS[s.id] : s.text }));
}

/** Where in the 7.3 order to start for a failed request. */
export function firstStepFor(status: number, code: string | null): TroubleshootingStep {
  return firstCheckFor(status, code ?? undefined);
}
