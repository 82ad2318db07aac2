import { z } from 'zod';
import { defineCall } from '../call.ts';
import { secureTokens, userInfo } from '../entities.ts';

/** A mainland mobile number (optionally +86) or an e-mail address. */
export const accountIdentifier = z
  .string()
  .trim()
  .min(3)
  .max(254)
  .refine((v) => PHONE_RE.test(v) || EMAIL_RE.test(v), { message: 'err_account_invalid' });
export const PHONE_RE = /^(?:\+?86)?1[3-9]\d{9}$/;
export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const VerificationScene = z.enum(['login', 'reset_pwd', 'cancel_account', 'bind']);
export type VerificationScene = z.infer<typeof VerificationScene>;

export const verificationCode = z.string().regex(/^\d{6}$/);
export const password = z.string().min(8).max(64);

const authResult = z.object({
  secure_tokens: secureTokens,
  user_info: userInfo,
  is_new_user: z.boolean(),
});

export const sendVerificationCode = defineCall({
  operationId: 'sendVerificationCode',
  method: 'POST',
  path: '/accounts/v1/send_verification_code',
  summary: '发送验证码（手机号或邮箱）',
  tags: ['accounts'],
  auth: 'public',
  body: z.object({ account: accountIdentifier, scene: VerificationScene }),
  data: z.object({ expires_in: z.number().int(), resend_after: z.number().int() }),
});

export const authWithVerificationCode = defineCall({
  operationId: 'authWithVerificationCode',
  method: 'POST',
  path: '/accounts/v1/auth_with_verification_code',
  summary: '验证码登录（首次登录自动注册）',
  tags: ['accounts'],
  auth: 'public',
  body: z.object({ account: accountIdentifier, code: verificationCode }),
  data: authResult,
});

export const authWithPassword = defineCall({
  operationId: 'authWithPassword',
  method: 'POST',
  path: '/accounts/v1/auth_with_password',
  summary: '密码登录',
  tags: ['accounts'],
  auth: 'public',
  body: z.object({ account: accountIdentifier, password: z.string().min(1).max(64) }),
  data: authResult,
});

export const resetPassword = defineCall({
  operationId: 'resetPassword',
  method: 'POST',
  path: '/accounts/v1/reset_pwd',
  summary: '通过验证码重置密码',
  tags: ['accounts'],
  auth: 'public',
  body: z.object({ account: accountIdentifier, code: verificationCode, new_password: password }),
  data: z.object({}),
});

export const refreshToken = defineCall({
  operationId: 'refreshToken',
  method: 'POST',
  path: '/accounts/v1/token',
  summary: '刷新令牌（每次使用都会轮换）',
  tags: ['accounts'],
  auth: 'public',
  body: z.object({ refresh_token: z.string().min(1).max(512) }),
  data: z.object({ secure_tokens: secureTokens, user_info: userInfo }),
});

export const signOut = defineCall({
  operationId: 'signOut',
  method: 'POST',
  path: '/accounts/v1/sign_out',
  summary: '退出登录（吊销所给的刷新令牌）',
  tags: ['accounts'],
  auth: 'public',
  body: z.object({ refresh_token: z.string().max(512).optional() }),
  data: z.object({}),
});

export const cancelAccount = defineCall({
  operationId: 'cancelAccount',
  method: 'POST',
  path: '/accounts/v1/cancel_account',
  summary: '注销账号（需要 cancel_account 场景的验证码）',
  tags: ['accounts'],
  auth: 'user',
  body: z.object({ code: verificationCode }),
  data: z.object({}),
});

export const getUserInfo = defineCall({
  operationId: 'getUserInfo',
  method: 'POST',
  path: '/v1/user/get_user_info',
  summary: '当前用户信息',
  tags: ['user'],
  auth: 'user',
  data: z.object({ user_info: userInfo }),
});

export const updateProfile = defineCall({
  operationId: 'updateProfile',
  method: 'POST',
  path: '/v1/user/update_profile',
  summary: '修改昵称',
  tags: ['user'],
  auth: 'user',
  body: z.object({ nickname: z.string().trim().min(1).max(32) }),
  data: z.object({ user_info: userInfo }),
});

/** Multipart upload (field `file`, PNG/JPEG/WebP, at most 2 MB); the body is not JSON. */
export const uploadAvatar = defineCall({
  operationId: 'uploadAvatar',
  method: 'POST',
  path: '/v1/user/upload_avatar',
  summary: '上传头像（multipart，字段 file）',
  tags: ['user'],
  auth: 'user',
  data: z.object({ user_info: userInfo }),
});

export const bindAccount = defineCall({
  operationId: 'bindAccount',
  method: 'POST',
  path: '/v1/user/bind_account',
  summary: '绑定手机号或邮箱（bind 场景的验证码）',
  tags: ['user'],
  auth: 'user',
  body: z.object({ account: accountIdentifier, code: verificationCode }),
  data: z.object({ user_info: userInfo }),
});

export const changePassword = defineCall({
  operationId: 'changePassword',
  method: 'POST',
  path: '/v1/user/change_password',
  summary: '设置或修改密码（已有密码时需提供旧密码）',
  tags: ['user'],
  auth: 'user',
  body: z.object({ old_password: z.string().max(64).optional(), new_password: password }),
  data: z.object({}),
});

export const outboxMessage = z.object({
  id: z.string(),
  channel: z.enum(['sms', 'mail']),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  created_at: z.number().int(),
});
export type OutboxMessage = z.infer<typeof outboxMessage>;

/** Development only: the messages the dev outbox "sent". Absent in production mode. */
export const devOutbox = defineCall({
  operationId: 'devOutbox',
  method: 'GET',
  path: '/dev/outbox',
  summary: '开发模式发件箱（验证码短信/邮件）',
  tags: ['dev'],
  auth: 'public',
  query: z.object({ to: z.string().optional() }),
  data: z.object({ messages: z.array(outboxMessage) }),
});
