/**
 * What bench:tts and the benchmark gate share: the embedded default (espeak-ng, SQLite, local files)
 * in this process, an account with credits, and one request timed to its first audio byte.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.ts';
import { systemClock } from '../src/clock.ts';
import { ensureDataDir, loadConfig } from '../src/config.ts';
import { createContext } from '../src/context.ts';
import { openDatabase } from '../src/db/database.ts';
import { createEngines } from '../src/engines/engines.ts';
import { createLogger } from '../src/logger.ts';
import { grantCredits } from '../src/modules/credits/ledger.service.ts';
import { prepareDatabase } from '../src/modules/seeds.ts';

export interface FirstByte {
  /** ms until the first audio byte arrived. */
  first: number;
  /** ms until the whole body arrived. */
  total: number;
  bytes: Buffer;
  cache: string | null;
}

export const BENCH_VOICE_ID = 'espeak-zh-xiaowen';

/** A 31-character Chinese sentence, different for each i (so each is a cold synthesis once). */
export const benchSentence = (i: number) =>
  `今天上午九点，我们在公司会议室讨论新产品第${String(i).padStart(3, '0')}版的发布计划。`;

/** A long Chinese text of exactly `chars` characters. */
export function benchLongText(chars: number): string {
  const paragraph =
    '春天来了，河边的柳树发出了嫩绿的新芽。孩子们在草地上放风筝，笑声传得很远。老人坐在长椅上，一边晒太阳一边聊着往事。城市的街道上车来车往，人们匆匆忙忙地赶去上班。';
  let long = '';
  while ([...long].length < chars) long += paragraph;
  return [...long].slice(0, chars).join('');
}

export async function startTtsServer() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vw-bench-tts-'));
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'development',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    PORT: '0',
    ENGINES: 'none',
  });
  ensureDataDir(config);
  const database = openDatabase(config.database);
  await prepareDatabase(database.db);
  const engines = await createEngines(config);
  const ctx = createContext({ config, database, clock: systemClock, log: createLogger('warn'), engines });
  const app = await buildApp(ctx);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  async function post(url: string, body: unknown) {
    const res = await fetch(base + url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    // biome-ignore lint/suspicious/noExplicitAny: the bench reads whatever data each call returns
    return res.json() as Promise<{ code: number; data: any }>;
  }

  // Sign in by code from the dev outbox and give the account credits.
  const phone = '13700000009';
  await post('/accounts/v1/send_verification_code', { account: phone, scene: 'login' });
  const outbox = (await (await fetch(`${base}/dev/outbox?to=${phone}`)).json()) as {
    data: { messages: { text: string }[] };
  };
  const code = /\b(\d{6})\b/.exec(outbox.data.messages[0].text)![1];
  const signed = await post('/accounts/v1/auth_with_verification_code', { account: phone, code });
  const token: string = signed.data.secure_tokens.access_token;
  await grantCredits(ctx, {
    userId: signed.data.user_info.uid,
    source: 'gift',
    amount: 10_000_000,
    expiresAt: Date.now() + 86_400_000,
    grantKey: 'bench',
    remark: 'bench',
  });

  /** One synthesis over HTTP: ms until the first audio byte arrives, and the whole body. */
  async function firstByte(text: string, extra: Record<string, unknown> = {}): Promise<FirstByte> {
    const t0 = performance.now();
    const res = await fetch(`${base}/v1/tts/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ text, voice_id: BENCH_VOICE_ID, speed: 1, ...extra }),
    });
    if (res.headers.get('content-type') !== 'audio/mpeg') throw new Error(await res.text());
    const reader = res.body!.getReader();
    const chunks: Uint8Array[] = [];
    let first = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!first && value.length) first = performance.now() - t0;
      chunks.push(value);
    }
    return {
      first,
      total: performance.now() - t0,
      bytes: Buffer.concat(chunks),
      cache: res.headers.get('x-cache-hit'),
    };
  }

  return {
    ctx,
    base,
    token,
    dataDir,
    firstByte,
    async close() {
      await app.close();
      await engines.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
