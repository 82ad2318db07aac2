import { z } from 'zod';
import { defineCall } from '../call.ts';
import { OrderStatus, PAY_COUNTRY_CODE, PayChannel, ProductType } from '../constants/payments.ts';

export * from '../constants/payments.ts';

export const channelDetail = z.object({
  country_code: z.string(),
  title: z.string(),
  /** List price in the currency's main unit (yuan). */
  price: z.number(),
  /** What the buyer pays; 0 means no discount (pay `price`). */
  discount_price: z.number(),
  currency: z.string(),
  /** JSON string: { tags, des, descTitle, desList }. */
  desc: z.string(),
});

export const product = z.object({
  product_id: z.string(),
  product_type: z.union([z.literal(ProductType.Member), z.literal(ProductType.Credit)]),
  title: z.string(),
  level: z.number().int(),
  recharge_credit: z.number().int(),
  is_free_package: z.union([z.literal(0), z.literal(1)]),
  after_charge: z.union([z.literal(0), z.literal(1)]),
  is_annual: z.union([z.literal(0), z.literal(1)]),
  channel_details: z.array(channelDetail),
});
export type Product = z.infer<typeof product>;

export const getProducts = defineCall({
  operationId: 'getProducts',
  method: 'GET',
  path: '/v1/app/products',
  summary: '商品列表（会员 0、积分包 1、全部 -1）',
  tags: ['payments'],
  auth: 'user',
  query: z.object({ type: z.coerce.number().int().min(-1).max(1).default(-1) }),
  data: z.object({ product_list: z.array(product) }),
});

const payChannel = z.enum([PayChannel.Wechat, PayChannel.Alipay]);

export const createOrder = defineCall({
  operationId: 'createPayOrder',
  method: 'POST',
  path: '/v1/pay/create_order',
  summary: '创建支付订单（返回二维码内容与过期时间）',
  tags: ['payments'],
  auth: 'user',
  body: z.object({
    pay_channel: payChannel,
    product_id: z.string().min(1).max(64),
    country_code: z.literal(PAY_COUNTRY_CODE).default(PAY_COUNTRY_CODE),
    return_url: z.string().max(2048).default(''),
  }),
  data: z.object({
    buss_orderid: z.string(),
    pay_channel: payChannel,
    code_url: z.string(),
    /** Unix seconds after which the code can no longer be paid. */
    pay_out_time: z.number().int(),
  }),
});

const orderStatuses = Object.values(OrderStatus) as [number, ...number[]];

export const orderInfo = z.object({
  buss_orderid: z.string(),
  product_id: z.string(),
  pay_channel: payChannel,
  /** Amount in yuan. */
  amount: z.number(),
  status: z
    .number()
    .int()
    .refine((s) => orderStatuses.includes(s)),
  pay_out_time: z.number().int(),
  /** Unix seconds; null until paid. */
  paid_time: z.number().int().nullable(),
});
export type OrderInfo = z.infer<typeof orderInfo>;

export const getOrder = defineCall({
  operationId: 'getPayOrder',
  method: 'GET',
  path: '/v1/pay/get_order',
  summary: '查询订单状态（客户端每 1.5 秒轮询）',
  tags: ['payments'],
  auth: 'user',
  query: z.object({ buss_orderid: z.string().min(1).max(64) }),
  data: z.object({ order_info: orderInfo }),
});
