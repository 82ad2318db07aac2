import Fastify from 'fastify';

// The baseline for bench:api: a bare Fastify route answering a small JSON envelope.
const app = Fastify();
app.post('/bare', async () => ({
  code: 0,
  msg: 'success',
  data: { user_info: { uid: 'u_bench', type: 2 } },
}));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
