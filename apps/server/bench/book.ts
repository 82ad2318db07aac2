/** What bench:audiobook and the benchmark gate share: the book, and a server that imports and synthesises it. */
import type { AddressInfo } from 'node:net';
import { FINISHED_TASK_STATUSES } from '@vw/contract';
import { systemClock } from '../src/clock.ts';
import { call, createTestServer, fund, signIn } from '../test/harness.ts';
import { tusClient } from '../test/tus-client.ts';

/** A deterministic book: narration and quoted dialogue between a few characters, numbers and dates. */
export function generateBook(targetChars: number, chapters: number): string {
  let seed = 20_240_601;
  const rand = (n: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed % n;
  };
  const names = ['林晓', '陈默', '苏婉', '王大山'];
  const verbs = ['说', '问', '笑道', '喊道', '低声说'];
  const narration = [
    '夜色渐渐深了，街上的行人越来越少。',
    '远处传来几声狗叫，风吹动了窗边的帘子。',
    '他把书放回书架，转身看向窗外的灯光。',
    '这座城市在一九九八年经历了一场大雨。',
    '桌上的茶已经凉了，却没有人去动它。',
    '她数了数口袋里的钱，一共三百二十五元。',
    '火车在下午三点十五分准时进站。',
    '山路弯弯曲曲，两旁是茂密的竹林。',
  ];
  const lines = [
    '我们明天一早就出发吧。',
    '你还记得那年冬天发生的事情吗？',
    '这件事情没有那么简单。',
    '快点，再不走就来不及了！',
    '谢谢你，我会好好考虑的。',
    '你得早点回来，别让大家担心。',
  ];
  const perChapter = Math.ceil(targetChars / chapters);
  const out: string[] = [];
  for (let c = 1; c <= chapters; c++) {
    out.push(`第${c}章 夜行之${c}`);
    let chars = 0;
    while (chars < perChapter) {
      let p = '';
      for (let k = 0; k < 3; k++) p += narration[rand(narration.length)];
      if (rand(2) === 0)
        p += `${names[rand(names.length)]}${verbs[rand(verbs.length)]}：“${lines[rand(lines.length)]}”`;
      out.push(p);
      chars += p.length;
    }
  }
  return out.join('\n');
}

/** A test server on a scratch database with a signed-in, funded account and the job worker running. */
export async function startBookServer() {
  const server = await createTestServer();
  server.ctx.clock = systemClock;
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
  const a = await signIn(server.app, '13900000999');
  const token = a.secure_tokens.access_token;
  await fund(server, a.user_info.uid, 1_000_000);
  await server.ctx.jobs.startWorker({ concurrency: 2, heavyConcurrency: 1 });

  /** The task row once a finishing event was recorded. */
  const waitTask = async (taskId: string) => {
    const finals = FINISHED_TASK_STATUSES.map((s) => `task.${s}`);
    for (;;) {
      const e = await server.ctx.db
        .selectFrom('task_events')
        .select('type')
        .where('task_id', '=', taskId)
        .where('type', 'in', finals)
        .executeTakeFirst();
      if (e)
        return server.ctx.db
          .selectFrom('tasks')
          .selectAll()
          .where('id', '=', taskId)
          .executeTakeFirstOrThrow();
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  return {
    server,
    base,
    token,
    waitTask,
    /** tus upload of the text, then import: the work. */
    async importBook(book: string, name = '夜行.txt') {
      const bytes = Buffer.from(book, 'utf8');
      const tus = tusClient(base, token);
      const created = await tus.create(bytes.length, name);
      await tus.patch(created.location, 0, bytes);
      const imported = await call(server.app, 'POST', '/v1/audiobook/import', {
        token,
        body: { tus_upload: created.location },
      });
      if (imported.body.code !== 0) throw new Error(JSON.stringify(imported.body));
      return imported.body.data.work as { work_id: string; chapters_total: number };
    },
    /** The synthesis task of every paragraph, to its end. */
    async synthesize(workId: string) {
      const synth = await call(server.app, 'POST', '/v1/audiobook/synthesize', {
        token,
        body: { work_id: workId },
      });
      if (synth.body.code !== 0) throw new Error(JSON.stringify(synth.body));
      const task = await waitTask(synth.body.data.task_id);
      return { task, paragraphs: synth.body.data.paragraphs as number };
    },
  };
}
