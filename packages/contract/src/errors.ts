/**
 * Every error the client can see, with its zh-CN message (spec §8).
 * Numeric codes travel in the envelope's `code`; named errors travel as code 422 with
 * `data.detail[0].type` set to the name.
 */

export const OK = 0;

export const ErrorCode = {
  Unauthorized: 401,
  Validation: 422,
  TooManyRequests: 429,
  SurveyAlreadySubmitted: 1002,
  InsufficientBalance: 1010,
  MissingPermission: 1011,
  PlanBelowCurrentLevel: 2000,
  OrderAlreadyPaid: 2001,
  UnpaidOrderExists: 2003,
  AnnualMemberCannotBuyMonthly: 2004,
  AudiobookFileCheckFailed: 3000,
  TextExtractionFailed: 3001,
  NoAudioToDownload: 3002,
  SurveyNotAvailable: 4001,
  RedeemCodeInvalid: 5000,
  RedeemCodeUsed: 5001,
  RedeemCodeExpired: 5002,
  RedeemTooFrequent: 5003,
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export const codeMessages: Record<number, string> = {
  401: '登录已失效，请重新登录',
  422: '参数错误',
  429: '操作过于频繁，请稍后再试',
  1002: '问卷已提交',
  1010: '余额不足',
  1011: '缺少访问权限',
  2000: '不能订购低于当前等级的套餐',
  2001: '订单已支付',
  2003: '检测到未支付订单，请继续支付',
  2004: '您已是年度会员，暂不支持兑换月度会员',
  3000: '有声书文件校验失败',
  3001: '文本提取失败',
  3002: '没有可下载的音频，请至少合成一段语音',
  4001: '问卷不可用',
  5000: '兑换码错误',
  5001: '兑换码已被使用，请重新输入',
  5002: '兑换码已过期，请重新输入',
  5003: '操作过于频繁，请等待30分钟后再试',
};

/** Named errors (spec §8) plus the ones this product adds for accounts. */
export const namedErrorMessages = {
  err_target_language_not_supported: '不支持该目标语言',
  err_video_without_subtitle: '视频中未检测到字幕',
  err_service_busy: '服务繁忙，请稍后再试',
  err_user_not_fount: '用户不存在',
  err_permission_deny: '没有权限',
  err_tenant_not_found: '租户不存在',
  err_tenant_apikey_not_found: 'API 密钥不存在',
  err_interface_unavailable: '接口暂不可用',
  err_interface_not_implemented: '接口未开放',
  err_file_empty: '文件为空',
  err_dubbing_task_not_found: '配音任务不存在',
  err_invalid_param: '参数无效',
  err_file_not_supported: '不支持该文件格式',
  err_task_pending: '任务排队中，请稍候',
  err_audit_refused: '内容审核未通过',
  err_video_translate_not_allowed: '当前账号未开通视频翻译',
  err_subtitle_erase_not_allowed: '当前账号未开通字幕擦除',
  err_lip_sync_not_allowed: '当前账号未开通口型同步',
  err_remove_water_mark_not_allowed: '当前账号未开通去水印',
  err_subtitle_generate_not_allowed: '当前账号未开通字幕生成',
  err_balance_insufficient: '您的积分不足，请前往充值积分/升级套餐',
  err_voice_clone_pvc_insufficient_times: '专业克隆次数不足',
  err_voice_clone_ivc_insufficient_times: '快速克隆次数不足',
  err_sts_balance_insufficient: '变声余额不足',
  err_task_running: '任务正在进行中',
  err_generate_voice_failed: '生成语音失败',
  err_system: '系统错误，请稍后再试',
  'value_error.missing': '缺少必填字段',
  'value_error.invalid': '字段格式不正确',
  // Input the server refuses before any operation sees it (issue 14: U+0000, lone surrogates, nesting).
  'value_error.text_malformed': '内容包含无法识别的字符',
  'value_error.too_deep': '数据层级过深',
  query_status_failed: '查询状态失败',
  err_voice_cannot_access_other_voice: '该声音需要升级到高级套餐才能使用',
  // Accounts (designed here; the spec marks these calls "not shown").
  err_account_invalid: '请输入正确的手机号或邮箱',
  err_verification_code_invalid: '验证码错误',
  err_verification_code_expired: '验证码已过期，请重新获取',
  err_verification_code_too_frequent: '验证码发送过于频繁，请稍后再试',
  err_verification_code_too_many_attempts: '验证码错误次数过多，请重新获取',
  err_password_incorrect: '账号或密码错误',
  err_password_not_set: '该账号尚未设置密码，请使用验证码登录',
  err_password_too_weak: '密码需为 8-64 位，且同时包含字母和数字',
  err_account_already_bound: '该手机号或邮箱已被其他账号绑定',
  err_account_refused: '该账号无法登录',
  err_password_attempts_backoff: '密码错误次数过多，请稍后再试',
  err_password_locked: '密码错误次数过多，账号密码登录已锁定，请使用验证码登录或重置密码',
  err_refresh_token_invalid: '登录已失效，请重新登录',
  err_file_too_large: '文件过大',
  err_not_found: '内容不存在',
  err_product_not_found: '商品不存在或已下架',
  err_order_not_found: '订单不存在',
  err_payment_channel_unavailable: '该支付方式暂未开通，请选择其他支付方式',
  err_payment_provider_failed: '支付服务暂时不可用，请稍后再试',
  err_annual_member_monthly_plan: '您已是年度会员，暂不支持购买月度会员',
  err_credit_pack_needs_membership: '请升级到基础版以上的套餐',
  // Analytics ingest (onboarding issue).
  err_signature_invalid: '签名校验失败',
  err_batch_too_large: '上报数据过多',
  // API keys and the public API (issue 8).
  err_apikey_revoked: 'API 密钥已撤销',
  err_apikey_expired: 'API 密钥已过期',
  err_apikey_credit_limit: '该 API 密钥的积分额度已用完',
  err_apikey_limit_reached: 'API 密钥数量已达上限',
  err_concurrency_limit: '并发请求过多，请等待进行中的请求完成',
  err_webhook_url_invalid: 'Webhook 地址无效：须为 HTTPS 地址',
  err_webhook_limit_reached: 'Webhook 数量已达上限',
  err_webhook_endpoint_disabled: '该 Webhook 地址已停用，请先重新启用',
  // Tasks, media and the editor.
  err_project_version_conflict: '项目已在其他窗口或设备上修改，请刷新后再编辑',
  err_media_too_long: '媒体时长超出当前套餐的上限',
  err_media_resolution_too_high: '视频分辨率超出当前套餐的上限',
  err_task_not_retryable: '该任务当前无法重试',
  err_task_not_paused: '该任务未在等待确认',
} as const;
export type NamedError = keyof typeof namedErrorMessages;

/** Task failure codes (spec §8): all four refund the credits held for the task. */
export const taskFailureMessages: Record<number, string> = {
  1: '生成失败，积分已退还',
  3: '内容涉及敏感信息，积分已退还',
  4: '不支持该语言，积分已退还',
  5: '文本相似度不匹配，积分已退还',
};
export const refundedTaskFailureCodes = [1, 3, 4, 5] as const;

/** Client-side messages of spec §8 that never come from the server. */
export const clientMessages = {
  network: '网络异常！',
  operationFailed: 'Operation failed !',
  insufficientCredits: '您的积分不足，请前往充值积分/升级套餐',
  redeemFailed: '兑换失败，请稍后再试',
  exportFailed: '操作失败，请稍后再试',
  downloadNoUrl: '无法获取下载链接',
  downloadNoStream: '无法获取文件流',
  downloadInProgress: '下载正在进行中',
  downloadFailed: '下载失败',
  paymentCreateFailed: '网络异常稍后重试',
  // An order is paid only together with its plan or credits (one transaction): nothing to wait for.
  paymentSuccess: '支付成功，权益已到账，可立即使用。',
  paymentSuccessShort: '支付成功',
  paymentFailed: '支付失败，请稍后重试',
  paymentDuplicate: '您已成功支付该订单，多余支付金额将自动退回，请留意您的账户变动。',
  qrExpired: '二维码过期 请点击刷新',
  agreementRequired: '请勾选下方协议',
  annualMemberNoMonthly: '您已是年度会员，暂不支持购买月度会员',
  noLowerPlan: '暂不支持购买低版本套餐',
  creditNeedsMembership: '请升级到基础版以上的套餐',
  topPlanAlready: '您已是最高级套餐用户，暂不支持重复购买套餐',
  subscribeRequired: '需要订阅高级会员使用',
  redeemLowerPlan: '您已是会员用户，暂不支持兑换低版本套餐',
} as const;

/** The message for a named error type, falling back to err_system (spec §8, 422 handling). */
export function namedErrorMessage(type: string | undefined): string {
  if (type && type in namedErrorMessages) return namedErrorMessages[type as NamedError];
  return namedErrorMessages.err_system;
}
