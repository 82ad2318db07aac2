import {
  API_KEY_HEADER,
  envelope,
  PUBLIC_API_BASE,
  type PublicCallDef,
  publicApiCalls,
  validationErrorData,
} from '@vw/contract';
import { z } from 'zod';

const errorBody = z.object({
  code: z.number().int(),
  msg: z.string(),
  data: validationErrorData.nullable(),
  error: z.object({ message: z.string(), type: z.string(), code: z.string() }),
});

const schema = (s: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(s, { io, target: 'openapi-3.0', unrepresentable: 'any' }) as Record<string, unknown>;

function queryParameters(query: z.ZodType) {
  const json = schema(query, 'input') as { properties?: Record<string, unknown>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, s]) => ({
    name,
    in: 'query',
    required: json.required?.includes(name) ?? false,
    schema: s,
  }));
}

/** A multipart body: the form's fields plus its file parts as binary strings. */
function formSchema(call: PublicCallDef) {
  const json = schema(call.form!, 'input') as { properties?: Record<string, unknown>; required?: string[] };
  const files = call.files ?? [];
  return {
    ...json,
    properties: {
      ...Object.fromEntries(files.map((f) => [f, { type: 'string', format: 'binary' }])),
      ...json.properties,
    },
    required: [...files, ...(json.required ?? [])],
  };
}

function operation(call: PublicCallDef) {
  const ok: Record<string, unknown> = {};
  if (call.data) {
    const body =
      call.operationId === 'publicModels'
        ? envelope(call.data).extend({ object: z.literal('list') })
        : envelope(call.data);
    ok['application/json'] = { schema: schema(body, 'output') };
  }
  if (call.raw) ok['application/json'] = { schema: schema(call.raw, 'output') };
  for (const type of call.audio ?? []) ok[type] = { schema: { type: 'string', format: 'binary' } };
  for (const type of call.text ?? []) ok[type] = { schema: { type: 'string' } };
  const error = (description: string) => ({
    description,
    content: { 'application/json': { schema: schema(errorBody, 'output') } },
  });
  return {
    operationId: call.operationId,
    summary: call.summary,
    ...(call.description ? { description: call.description } : {}),
    tags: call.tags,
    ...(call.query ? { parameters: queryParameters(call.query) } : {}),
    ...(call.form
      ? { requestBody: { required: true, content: { 'multipart/form-data': { schema: formSchema(call) } } } }
      : {}),
    ...(call.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: schema(call.body, 'input') } },
          },
        }
      : {}),
    responses: {
      200: {
        description: '成功',
        headers: {
          'RateLimit-Limit': { schema: { type: 'integer' }, description: '当前窗口（60 秒）允许的请求数' },
          'RateLimit-Remaining': { schema: { type: 'integer' } },
          'RateLimit-Reset': { schema: { type: 'integer' }, description: '窗口重置前的秒数' },
        },
        content: ok,
      },
      400: error('参数错误'),
      401: error(
        'API 密钥缺失、无效、已撤销或已过期（err_tenant_apikey_not_found / err_apikey_revoked / err_apikey_expired）',
      ),
      402: error('积分不足（1010）或密钥额度已用完（err_apikey_credit_limit）'),
      422: error('请求格式不符（value_error.missing / value_error.invalid）'),
      429: error('超过频率限制（code 429，带 Retry-After）或并发数上限（err_concurrency_limit）'),
    },
  };
}

/**
 * The public API's own OpenAPI 3 document, generated from the contract's public call definitions
 * (the routes build it once per app).
 */
export function publicOpenApiDocument(serverUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const call of publicApiCalls) {
    paths[call.path] = { ...paths[call.path], [call.method.toLowerCase()]: operation(call) };
  }
  return {
    openapi: '3.0.3',
    info: {
      title: '声音工作台开放接口',
      version: '1.0.0',
      description:
        '用 API 密钥调用声音工作台的工具，与工作台共用积分。密钥放在 X-API-Key 请求头，或 Authorization: Bearer 请求头。每个密钥与每个账户都有每分钟请求数限制，每个账户按套餐有并发数限制。OpenAI 兼容：官方 SDK 把 baseURL 设为 <站点>/api/v1 即可调用 audio.speech 与 audio.transcriptions。',
    },
    servers: [{ url: serverUrl }],
    security: [{ apiKeyHeader: [] }, { bearerKey: [] }],
    components: {
      securitySchemes: {
        apiKeyHeader: { type: 'apiKey', in: 'header', name: API_KEY_HEADER },
        bearerKey: { type: 'http', scheme: 'bearer', bearerFormat: 'vwk_…' },
      },
    },
    paths,
  };
}

/** A swagger-ui page for the public document, using the assets the client API's /docs already serves. */
export const DOCS_HTML = `<!doctype html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<title>声音工作台开放接口文档</title>
<link rel="stylesheet" href="/docs/static/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/static/swagger-ui-bundle.js"></script>
<script src="${PUBLIC_API_BASE.replace('/v1', '')}/docs/init.js"></script>
</body>
</html>`;

export const DOCS_INIT_JS = `window.ui = SwaggerUIBundle({ url: '${PUBLIC_API_BASE}/openapi.json', dom_id: '#swagger-ui', deepLinking: true });`;
