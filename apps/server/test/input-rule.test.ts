import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceKey, signReport } from '../src/modules/analytics/analytics.service.ts';
import { call, createTestServer, fund, signIn, type TestServer } from './harness.ts';

/**
 * The input rule (issue 14) over every operation of both OpenAPI documents, read at run time so
 * operations added later are covered without touching this file: U+0000 and lone surrogates in any
 * string, and nesting deeper than the limit, answer 422 with a detail type, never 500.
 */
let server: TestServer;
let token: string;
let apiKey: string;

beforeAll(async () => {
  server = await createTestServer({ PUBLIC_API_KEY_RPM: '5000', PUBLIC_API_ACCOUNT_RPM: '5000' });
  const a = await signIn(server.app, '13900000201');
  token = a.secure_tokens.access_token;
  await fund(server, a.user_info.uid, 100_000);
  const key = await call(server.app, 'POST', '/v1/api_keys/create', { token, body: { name: 'sweep' } });
  apiKey = key.body.data.secret_key;
});
afterAll(async () => server?.close());

interface Operation {
  method: string;
  path: string;
  hasBody: boolean;
  bodyProps: string[];
  queryParams: string[];
  surface: 'workbench' | 'public';
}

type Doc = {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: Array<{ name: string; in: string }>;
        requestBody?: { content: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
      }
    >
  >;
};

async function operationsOf(url: string, surface: Operation['surface']): Promise<Operation[]> {
  const doc = (await server.app.inject({ method: 'GET', url })).json() as Doc;
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const json = op.requestBody?.content['application/json']?.schema;
      ops.push({
        method: method.toUpperCase(),
        path,
        hasBody: Boolean(op.requestBody),
        bodyProps: Object.keys(json?.properties ?? {}),
        queryParams: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
        surface,
      });
    }
  }
  return ops;
}

/** A body with `value` in every property the schema names (and one it does not). */
const bodyWith = (op: Operation, value: unknown) =>
  Object.fromEntries([...op.bodyProps, 'probe'].map((name) => [name, value]));

/** JSON text nested `levels` deep (built as text: JSON.stringify itself would overflow the stack). */
const deepJson = (levels: number) => `${'['.repeat(levels)}"x"${']'.repeat(levels)}`;

async function send(op: Operation, query: string, body?: unknown) {
  const url = op.path.replace(/\{[^}]+\}/g, 'a%00b') + query;
  const headers: Record<string, string> =
    op.surface === 'public' ? { 'x-api-key': apiKey } : { authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await server.app.inject({
    method: op.method as 'GET',
    url,
    headers,
    payload: body === undefined || typeof body === 'string' ? body : JSON.stringify(body),
  });
  const json = res.headers['content-type']?.toString().startsWith('application/json') ? res.json() : null;
  return {
    status: res.statusCode,
    code: json?.code,
    type: json?.data?.detail?.[0]?.type as string | undefined,
  };
}

describe('the input rule covers every operation of both OpenAPI documents', () => {
  it('refuses U+0000, lone surrogates and deep nesting with 422, never 500', async () => {
    const ops = [
      ...(await operationsOf('/openapi.json', 'workbench')),
      ...(await operationsOf('/api/v1/openapi.json', 'public')),
    ];
    expect(ops.length).toBeGreaterThan(50);
    expect(ops.some((o) => o.path === '/api/v1/audio/speech')).toBe(true);
    const failures: string[] = [];
    const expect422 = (op: Operation, what: string, r: Awaited<ReturnType<typeof send>>, type: string) => {
      const refused = r.code === 422 && r.type === type && (op.surface === 'workbench' || r.status === 422);
      if (!refused)
        failures.push(`${op.method} ${op.path} (${what}): HTTP ${r.status} code ${r.code} ${r.type}`);
    };
    for (const op of ops) {
      const nulQuery = `?${[...op.queryParams, 'probe'].map((p) => `${p}=a%00b`).join('&')}`;
      const body = op.hasBody ? bodyWith(op, 'a\u0000b') : undefined;
      expect422(op, 'U+0000', await send(op, nulQuery, body), 'value_error.text_malformed');
      if (op.hasBody) {
        expect422(
          op,
          'lone surrogate',
          await send(op, '', bodyWith(op, '\ud800')),
          'value_error.text_malformed',
        );
        const deepBody = JSON.stringify(bodyWith(op, 'DEEP')).replace('"DEEP"', deepJson(5000));
        expect422(op, 'deep', await send(op, '', deepBody), 'value_error.too_deep');
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('refuses an analytics report whose properties nest 5,000 deep (signed, unauthenticated)', async () => {
    const device = 'dev-deep';
    const ts = server.clock.now();
    const events = `[{"event":"x","time":${ts},"props":{"a":${deepJson(5000)}}}]`;
    const data = Buffer.from(events).toString('base64');
    const res = await call(server.app, 'POST', '/v1/analytics/report', {
      body: { data, ts, device_id: device, sign: signReport(await deviceKey(server.ctx, device), ts, data) },
    });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(422);
    expect(res.body.data.detail[0].type).toBe('value_error.too_deep');
  });

  it('refuses a lone surrogate in TTS text on all three surfaces', async () => {
    const text = 'ab\ud800cd';
    const workbench = await call(server.app, 'POST', '/v1/tts/generate', {
      token,
      body: { text, voice_id: 'espeak-zh-xiaowen' },
    });
    expect(workbench.body.data.detail[0].type).toBe('value_error.text_malformed');
    for (const [url, body] of [
      ['/api/v1/tts', { text, voice_id: 'espeak-zh-xiaowen' }],
      ['/api/v1/audio/speech', { model: 'tts-1', input: text, voice: 'alloy' }],
    ] as const) {
      const res = await server.app.inject({
        method: 'POST',
        url,
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
      expect(res.statusCode, url).toBe(422);
      expect(res.json().error.type, url).toBe('value_error.text_malformed');
    }
  });
});
