import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { z } from 'zod';
import { definePipeline } from '../pipeline.ts';

/** Every stage and item run is appended to TASK_TEST_LOG, so a test sees what ran (in any process). */
function note(line: string) {
  if (process.env.TASK_TEST_LOG) appendFileSync(process.env.TASK_TEST_LOG, `${line}\n`);
  process.stdout.write(`${line}\n`);
}

/**
 * A light stage, then a heavy stage of `items` items. While TASK_TEST_HANG_AT is set (the worker
 * process that is going to be killed), the item with that index never ends.
 */
export const itemsPipeline = definePipeline({
  tool: 'test_items' as never,
  input: z.object({ items: z.number().int() }),
  stages: [
    {
      name: 'prepare',
      label: '准备',
      lane: 'light',
      weight: 1,
      run: async ({ task }) => {
        note(`prepare ${task.id}`);
        return { prepared: true };
      },
    },
    {
      name: 'work',
      label: '处理',
      lane: 'heavy',
      weight: 3,
      run: async (ctx) => {
        const hangAt = process.env.TASK_TEST_HANG_AT;
        const done: number[] = [];
        for (let i = 0; i < ctx.input.items; i++) {
          done.push(
            await ctx.item(`item-${i}`, async () => {
              note(`item ${ctx.task.id} ${i}`);
              if (hangAt !== undefined && Number(hangAt) === i) await new Promise(() => {});
              return i * 10;
            }),
          );
          await ctx.progress((i + 1) / ctx.input.items);
        }
        const key = await ctx.saveArtifact(
          { bytes: Buffer.from(done.join(',')) },
          { name: 'items.txt', contentType: 'text/plain' },
        );
        await ctx.addOutput({ name: '结果.txt', kind: 'file', format: 'txt', key, size: 0 });
        return { sum: done.reduce((a, b) => a + b, 0), prepared: ctx.results.prepare };
      },
    },
  ],
});

/** ffmpeg for ten minutes (-re: real time) in a worker process, until the task is cancelled. */
export const childFfmpegPipeline = definePipeline({
  tool: 'test_child_ffmpeg' as never,
  input: z.object({}),
  stages: [
    {
      name: 'encode',
      label: '编码',
      lane: 'heavy',
      weight: 1,
      run: async (ctx) => {
        const child = spawn(
          'ffmpeg',
          ['-nostdin', '-re', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=600', '-f', 'null', '-'],
          { signal: ctx.signal, stdio: 'ignore' },
        );
        child.on('error', () => {}); // the AbortError of a cancel
        note(`ffmpeg-started ${ctx.task.id} ${child.pid}`);
        await new Promise((resolve) => child.once('exit', resolve));
        note(`ffmpeg-exited ${ctx.task.id} ${Date.now()}`);
        throw new Error('ffmpeg stopped');
      },
    },
  ],
});
