import { paymentsCalls } from '@vw/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { registerCall } from '../../http/calls.ts';
import { listProducts } from './catalogue.ts';
import { createOrder, pollOrder, receiveNotify } from './orders.service.ts';
import { registerSandboxPages } from './sandbox.routes.ts';

export async function registerPaymentRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  registerCall(app, paymentsCalls.getProducts, async ({ query }) => ({
    product_list: await listProducts(ctx.db, query.type),
  }));
  registerCall(app, paymentsCalls.createOrder, ({ user, body }) => createOrder(ctx, user.uid, body), {
    rateLimit: { max: 30, timeWindow: '1 minute' },
  });
  registerCall(
    app,
    paymentsCalls.getOrder,
    ({ user, query }) => pollOrder(ctx, user.uid, query.buss_orderid),
    {
      rateLimit: { max: 240, timeWindow: '1 minute' },
    },
  );

  // Provider callbacks: verified on the exact bytes received, so the body stays raw.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 64 * 1024 }, (_req, body, done) =>
      done(null, body),
    );
    scope.post<{ Params: { provider: string } }>(
      '/v1/pay/notify/:provider',
      { config: { auth: 'public', rateLimit: false }, schema: { hide: true } },
      async (request, reply) => {
        const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const headers = Object.fromEntries(
          Object.entries(request.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v]),
        );
        const answer = await receiveNotify(ctx, request.params.provider, { headers, rawBody });
        if (!answer) return reply.code(404).type('text/plain').send('unknown provider');
        return reply.code(answer.status).type(answer.contentType).send(answer.body);
      },
    );
  });

  if (ctx.payments.sandbox) registerSandboxPages(app, ctx, ctx.payments.sandbox);
}
