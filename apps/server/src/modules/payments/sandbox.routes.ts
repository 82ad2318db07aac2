import type { FastifyInstance, FastifyReply } from 'fastify';
import { ProviderError } from '../../adapters/payments/payments.ts';
import type { SandboxProvider } from '../../adapters/payments/sandbox.ts';
import type { AppContext } from '../../context.ts';
import { receiveNotify } from './orders.service.ts';

type PageRequest = { Params: { orderId: string }; Querystring: { t?: string; done?: string } };

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

const RESULT_TEXT: Record<string, string> = {
  paid: '支付成功，可以回到电脑上查看结果。',
  declined: '已拒绝支付。',
};

const STATE_TEXT: Record<string, string> = {
  NOTPAY: '待支付',
  SUCCESS: '已支付',
  CLOSED: '已关闭',
  PAYERROR: '支付失败',
};

function page(title: string, body: string): string {
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title>
<style>
body{margin:0;font-family:system-ui,"Noto Sans CJK SC",sans-serif;background:#f5f6fa;color:#1f2329}
main{max-width:420px;margin:32px auto;background:#fff;border-radius:12px;padding:24px;box-shadow:0 4px 16px rgba(0,0,0,.06)}
h1{font-size:18px;margin:0 0 4px}.tag{display:inline-block;background:#fff7e6;color:#d46b08;border-radius:4px;padding:2px 8px;font-size:12px}
dl{display:grid;grid-template-columns:auto 1fr;gap:8px 16px;margin:20px 0}dt{color:#8a8f99}dd{margin:0;word-break:break-all}
.amount{font-size:28px;font-weight:600}.note{color:#8a8f99;font-size:13px;line-height:1.6}
.msg{padding:10px 12px;border-radius:8px;background:#f6ffed;color:#389e0d;margin:12px 0}.err{background:#fff2f0;color:#cf1322}
form{display:inline}button{font-size:16px;border:0;border-radius:8px;padding:12px 20px;margin:8px 8px 0 0;cursor:pointer}
.pay{background:#1677ff;color:#fff}.decline{background:#f0f0f0;color:#1f2329}.again{background:#fff;border:1px solid #d9d9d9}
</style></head><body><main>${body}</main></body></html>`;
}

/**
 * The sandbox provider's pay page: what the QR code opens, on this computer or on a phone on the
 * same network. Paying or declining here reaches the order through the verified notify path.
 */
export function registerSandboxPages(app: FastifyInstance, ctx: AppContext, sandbox: SandboxProvider): void {
  const show = async (
    request: { params: { orderId: string }; query: { t?: string; done?: string } },
    reply: FastifyReply,
    error?: string,
  ) => {
    const { orderId } = request.params;
    const token = request.query.t ?? '';
    const trade = sandbox.checkPageToken(orderId, token) ? await sandbox.findTrade(orderId) : undefined;
    reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
    if (!trade)
      return reply
        .code(404)
        .send(page('订单不存在', '<h1>订单不存在</h1><p class="note">二维码无效或已过期。</p>'));
    const expired = trade.state === 'NOTPAY' && ctx.clock.now() >= trade.expires_at;
    const state = expired ? '已过期' : (STATE_TEXT[trade.state] ?? trade.state);
    const action = (verb: string) =>
      `/pay/sandbox/${encodeURIComponent(orderId)}/${verb}?t=${encodeURIComponent(token)}`;
    const done = request.query.done && RESULT_TEXT[request.query.done];
    const buttons =
      trade.state === 'NOTPAY' && !expired
        ? `<form method="post" action="${action('pay')}"><button class="pay" type="submit">确认支付</button></form>
<form method="post" action="${action('decline')}"><button class="decline" type="submit">拒绝支付</button></form>`
        : trade.state === 'SUCCESS'
          ? `<form method="post" action="${action('pay')}"><button class="again" type="submit">再次支付（模拟重复支付）</button></form>`
          : '';
    return reply.send(
      page(
        '沙箱支付',
        `<span class="tag">沙箱支付 · 不会产生真实扣款</span>
<h1>${escapeHtml(trade.description)}</h1>
<div class="amount">¥${(trade.amount_fen / 100).toFixed(2)}</div>
${done ? `<div class="msg">${done}</div>` : ''}${error ? `<div class="msg err">${escapeHtml(error)}</div>` : ''}
<dl><dt>订单号</dt><dd>${escapeHtml(trade.order_id)}</dd><dt>状态</dt><dd data-state="${trade.state}">${state}</dd>
<dt>有效期至</dt><dd>${new Date(trade.expires_at).toLocaleString('zh-CN', { timeZone: 'Asia/Shanghai' })}</dd></dl>
${buttons}
<p class="note">这是声音工作台的沙箱支付页，用于在未接入微信支付或支付宝时体验完整的购买流程。</p>`,
      ),
    );
  };

  app.get<PageRequest>(
    '/pay/sandbox/:orderId',
    { config: { auth: 'public' }, schema: { hide: true } },
    (request, reply) => show(request, reply),
  );

  // The page's buttons post plain forms; their bodies carry nothing we need.
  app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_req, _body, done) => done(null, {}),
    );
    for (const verb of ['pay', 'decline'] as const) {
      scope.post<PageRequest>(
        `/pay/sandbox/:orderId/${verb}`,
        {
          config: { auth: 'public', rateLimit: { max: 30, timeWindow: '1 minute' } },
          schema: { hide: true },
        },
        async (request, reply) => {
          const { orderId } = request.params;
          const token = request.query.t ?? '';
          if (!sandbox.checkPageToken(orderId, token)) return show(request, reply);
          try {
            const notice = verb === 'pay' ? await sandbox.pay(orderId) : await sandbox.decline(orderId);
            const answer = await receiveNotify(ctx, 'sandbox', notice);
            if (answer && answer.status >= 300) throw new Error(answer.body);
          } catch (err) {
            const message = err instanceof ProviderError ? err.message : '处理失败，请稍后重试';
            if (!(err instanceof ProviderError)) ctx.log.error({ err, orderId }, 'sandbox payment failed');
            return show(request, reply, message);
          }
          const done = verb === 'pay' ? 'paid' : 'declined';
          return reply.redirect(
            `/pay/sandbox/${encodeURIComponent(orderId)}?t=${encodeURIComponent(token)}&done=${done}`,
            303,
          );
        },
      );
    }
  });
}
