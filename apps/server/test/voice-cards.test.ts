import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as honestCards from '../src/db/migrations/023_honest_voice_cards.ts';
import * as honestPlans from '../src/db/migrations/024_honest_plan_features.ts';
import { call, createTestServer, signIn, type TestServer } from './harness.ts';

/*
 * Voice cards say what a voice is (issue 30): every built-in voice is espeak-ng formant synthesis, so
 * none may promise a broadcaster, a documentary narrator or a "premium" sound.
 */

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await createTestServer();
  token = (await signIn(server.app, '13900000471')).secure_tokens.access_token;
}, 60_000);

afterAll(async () => {
  await server?.close();
});

const voicesOf = async () =>
  (await call(server.app, 'GET', '/p1/voices/internal_get_all_voices?status=[2]', { token })).body.data
    .voices as Array<{
    voice_id: string;
    engine: string;
    engine_label: string;
    description: string;
    labels: { style: string };
  }>;

// Words that claim a trained or human quality the standard engine does not have.
const PROMISES =
  /字正腔圆|播音|纪录片|浑厚|温柔|亲切|知性|甜美|磁性|优雅|专业|自然|绅士|天真|热情|清晰|活泼|可爱|慈祥/u;

describe('voice cards of the standard engine', () => {
  it('describe every built-in voice as the standard engine, machine-like, with tags from its settings', async () => {
    const voices = await voicesOf();
    expect(voices.length).toBe(30);
    for (const v of voices) {
      expect(v.engine).toBe('espeak');
      expect(v.engine_label).toBe('标准引擎');
      expect(v.description, v.voice_id).toMatch(/^标准引擎合成的.*(女声|男声|童声)，机器感明显：/u);
      expect(v.description, v.voice_id).not.toMatch(PROMISES);
      expect(v.labels.style, v.voice_id).not.toMatch(PROMISES);
      for (const tag of v.labels.style.split(',')) expect(tag, v.voice_id).toMatch(/^(音调|语速)|抑扬/u);
    }
    const boyin = voices.find((v) => v.voice_id === 'espeak-zh-boyin')!;
    expect(boyin.description).toBe('标准引擎合成的中年男声，机器感明显：音调中等、语速中等。');
  });

  it('rewrites cards seeded with the old promises, and keeps a description an operator changed', async () => {
    const db = server.ctx.db;
    const now = await voicesOf();
    // A database seeded before: the old seed texts, and one the operator rewrote.
    await db
      .updateTable('voices')
      .set({ description: '字正腔圆的播音男声', style: '正式,播音' })
      .where('voice_id', '=', 'espeak-zh-boyin')
      .execute();
    await db
      .updateTable('voices')
      .set({ description: '浑厚沉稳的纪录片男声', style: '浑厚,沉稳' })
      .where('voice_id', '=', 'espeak-zh-yunze')
      .execute();
    await db
      .updateTable('voices')
      .set({ description: '运营者写的介绍' })
      .where('voice_id', '=', 'espeak-zh-xiaowen')
      .execute();
    await honestCards.up(db as never);
    const after = await voicesOf();
    const byId = (list: typeof now, id: string) => list.find((v) => v.voice_id === id)!;
    for (const id of ['espeak-zh-boyin', 'espeak-zh-yunze']) {
      expect(byId(after, id).description).toBe(byId(now, id).description);
      expect(byId(after, id).labels.style).toBe(byId(now, id).labels.style);
    }
    expect(byId(after, 'espeak-zh-xiaowen').description).toBe('运营者写的介绍');
  });

  it('plan features promise no voice a plan cannot use, and no 高级 sound from the standard engine', async () => {
    const db = server.ctx.db;
    const plansOf = async () =>
      (await call(server.app, 'GET', '/v1/tenant/get_plans', { token })).body.data.plans as Array<{
        level: number;
        title: string;
        features: string[];
      }>;
    const check = async () => {
      const voices = await db.selectFrom('voices').select(['engine', 'required_level']).execute();
      for (const plan of await plansOf()) {
        for (const f of plan.features) {
          // 「全部…声音」 on a plan: every voice is usable on it.
          if (/全部.*声音/u.test(f))
            expect(
              voices.every((v) => v.required_level <= plan.level),
              `${plan.title}: ${f}`,
            ).toBe(true);
          if (voices.every((v) => v.engine === 'espeak')) expect(f, plan.title).not.toMatch(/高级声音/u);
        }
      }
    };
    await check();
    // A database seeded before: the old texts are replaced; an operator's own are kept.
    await db
      .updateTable('plans')
      .set({
        features: JSON.stringify(['每月 2,000 积分', '全部标准声音', '可购买积分包', 'MP3 / WAV / SRT 下载']),
      })
      .where('level', '=', 200)
      .execute();
    await db
      .updateTable('plans')
      .set({ features: JSON.stringify(['运营者写的权益']) })
      .where('level', '=', 300)
      .execute();
    await honestPlans.up(db as never);
    const plans = await plansOf();
    expect(plans.find((p) => p.level === 200)!.features).toContain('标准引擎声音（专业版声音除外）');
    expect(plans.find((p) => p.level === 300)!.features).toEqual(['运营者写的权益']);
    await check();
  });
});
