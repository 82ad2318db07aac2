import { TASK_EVENTS_PATH, tasksCalls } from '@vw/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { registerCall } from '../http/calls.ts';
import {
  cancelTask,
  deleteTask,
  getTaskView,
  listTaskViews,
  openTaskEventStream,
  resumeTask,
  retryTask,
} from './tasks.service.ts';

const PING_EVERY_MS = 15_000;

export function registerTaskRoutes(app: FastifyInstance, ctx: AppContext): void {
  // Open streams of this app, ended before the server closes (it would wait for them otherwise).
  const open = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of open) end();
  });

  registerCall(app, tasksCalls.getTask, async ({ user, query }) => ({
    task: await getTaskView(ctx, user.uid, query.task_id),
  }));
  registerCall(app, tasksCalls.listTasks, ({ user, query }) => listTaskViews(ctx, user.uid, query));
  registerCall(app, tasksCalls.cancelTask, async ({ user, body }) => ({
    task: await cancelTask(ctx, user.uid, body.task_id),
  }));
  registerCall(app, tasksCalls.retryTask, async ({ user, body }) => ({
    task: await retryTask(ctx, user.uid, body.task_id),
  }));
  registerCall(app, tasksCalls.resumeTask, async ({ user, body }) => ({
    task: await resumeTask(ctx, user.uid, body.task_id),
  }));
  registerCall(app, tasksCalls.deleteTask, async ({ user, body }) => ({
    deleted: await deleteTask(ctx, user.uid, body.task_id),
  }));

  // Server-Sent Events over the normal Bearer token (the web reads it with fetch streaming).
  app.get<{ Querystring: { last_event_id?: string } }>(
    TASK_EVENTS_PATH,
    { config: { auth: 'user' }, schema: { hide: true } },
    async (request, reply) => {
      if (!request.user) throw AppError.unauthorized();
      const raw = request.headers['last-event-id'] ?? request.query.last_event_id;
      const last = raw === undefined || raw === '' ? null : Number(raw);
      if (last !== null && (!Number.isInteger(last) || last < 0)) throw AppError.named('err_invalid_param');
      const stream = await openTaskEventStream(ctx, request.user.uid, last);
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        // Proxies (nginx) would otherwise hold the events back in their buffers.
        'x-accel-buffering': 'no',
      });
      res.write(': connected\n\n');
      const ping = setInterval(() => res.write(': ping\n\n'), PING_EVERY_MS);
      const end = () => {
        clearInterval(ping);
        stream.close();
        open.delete(end);
        if (!res.writableEnded) res.end();
      };
      open.add(end);
      // The response's close (not the request's, which fires once its empty body is read).
      res.once('close', end);
      try {
        for await (const event of stream.events) {
          if (res.destroyed) break;
          res.write(`id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
        }
      } catch (err) {
        request.log.warn({ err }, 'task event stream failed');
      } finally {
        end();
      }
    },
  );
  app.addHook('onClose', () => ctx.taskEvents.close());
}
