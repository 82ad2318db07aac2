import { createHmac, randomUUID } from 'node:crypto';
import type { MessageSender } from './messaging.ts';

export interface AliyunSmsOptions {
  accessKeyId: string;
  accessKeySecret: string;
  signName: string;
  templateCode: string;
  endpoint: string;
}

/** RFC 3986 encoding as Alibaba Cloud's RPC signature requires. */
function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** Signature v1 of Alibaba Cloud's RPC APIs: HMAC-SHA1 over the sorted, encoded parameters. */
export function signAliyunRpc(method: string, params: Record<string, string>, secret: string): string {
  const canonical = Object.keys(params)
    .sort()
    .map((k) => `${percentEncode(k)}=${percentEncode(params[k])}`)
    .join('&');
  const stringToSign = `${method}&${percentEncode('/')}&${percentEncode(canonical)}`;
  return createHmac('sha1', `${secret}&`).update(stringToSign).digest('base64');
}

/** SMS through Alibaba Cloud (dysmsapi SendSms); the template receives `params` (e.g. {code}). */
export function createAliyunSmsSender(options: AliyunSmsOptions, now: () => number): MessageSender {
  return {
    channel: 'sms',
    provider: 'aliyun',
    async send(message) {
      const params: Record<string, string> = {
        AccessKeyId: options.accessKeyId,
        Action: 'SendSms',
        Format: 'JSON',
        PhoneNumbers: message.to.replace(/^\+?86/, ''),
        RegionId: 'cn-hangzhou',
        SignName: options.signName,
        SignatureMethod: 'HMAC-SHA1',
        SignatureNonce: randomUUID(),
        SignatureVersion: '1.0',
        TemplateCode: options.templateCode,
        TemplateParam: JSON.stringify(message.params),
        Timestamp: new Date(now()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
        Version: '2017-05-25',
      };
      params.Signature = signAliyunRpc('POST', params, options.accessKeySecret);
      const response = await fetch(options.endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(params).toString(),
        signal: AbortSignal.timeout(10_000),
      });
      const body = (await response.json().catch(() => ({}))) as { Code?: string; Message?: string };
      if (!response.ok || body.Code !== 'OK') {
        throw new Error(
          `Aliyun SMS refused the message: ${body.Code ?? response.status} ${body.Message ?? ''}`,
        );
      }
    },
  };
}
