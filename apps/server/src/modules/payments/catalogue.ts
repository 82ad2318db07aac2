import {
  deriveProductPricing,
  PAY_COUNTRY_CODE,
  type Product,
  ProductListType,
  ProductType,
} from '@vw/contract';
import type { Db } from '../../db/database.ts';
import type { ProductRow } from '../../db/schema.ts';
import { DEFAULT_PLANS } from '../credits/plans.ts';

interface SeedProduct {
  product_id: string;
  product_type: number;
  title: string;
  level: number;
  months: number;
  recharge_credit: number;
  is_annual: number;
  /** List price and what the buyer pays, in yuan. */
  price: number;
  pay: number;
  tags: string[];
  des: string;
}

const planFeatures = (level: number) => DEFAULT_PLANS.find((p) => p.level === level)?.features ?? [];

function member(
  level: number,
  title: string,
  annual: boolean,
  price: number,
  pay: number,
  tags: string[] = [],
) {
  return {
    product_id: `member_${level}_${annual ? 'year' : 'month'}`,
    product_type: ProductType.Member,
    title: `${title}${annual ? '（年付）' : '（月付）'}`,
    level,
    months: annual ? 12 : 1,
    recharge_credit: 0,
    is_annual: annual ? 1 : 0,
    price,
    pay,
    tags,
    des: annual ? '按年订阅，每月发放积分' : '按月订阅，随时升级',
  } satisfies SeedProduct;
}

function creditPack(credits: number, pay: number, tags: string[] = []) {
  return {
    product_id: `credit_${credits}`,
    product_type: ProductType.Credit,
    title: `${credits.toLocaleString('en-US')} 积分`,
    level: 0,
    months: 0,
    recharge_credit: credits,
    is_annual: 0,
    price: pay,
    pay,
    tags,
    des: '积分包自购买起 2 年内有效',
  } satisfies SeedProduct;
}

/** The catalogue a fresh installation sells; the operator edits it with `npm run admin -- products …`. */
export const DEFAULT_PRODUCTS: SeedProduct[] = [
  { ...member(100, '免费版', false, 0, 0), product_id: 'member_100', title: '免费版', months: 0 },
  member(200, '基础版', false, 49, 39),
  member(200, '基础版', true, 588, 374, ['省 36%']),
  member(300, '专业版', false, 129, 99, ['推荐']),
  member(300, '专业版', true, 1548, 948, ['推荐', '省 39%']),
  member(400, '企业版', false, 499, 399),
  member(400, '企业版', true, 5988, 3828, ['省 36%']),
  creditPack(1000, 10),
  creditPack(5000, 48),
  creditPack(20000, 180, ['热门']),
  creditPack(100000, 850, ['超值']),
];

function toRow(p: SeedProduct, now: number): ProductRow {
  const desList = p.product_type === ProductType.Member ? planFeatures(p.level) : [];
  return {
    product_id: p.product_id,
    product_type: p.product_type,
    title: p.title,
    level: p.level,
    months: p.months,
    recharge_credit: p.recharge_credit,
    is_free_package: p.level === 100 ? 1 : 0,
    after_charge: p.price > p.pay ? 1 : 0,
    is_annual: p.is_annual,
    channel_details: JSON.stringify([
      {
        country_code: PAY_COUNTRY_CODE,
        title: p.title,
        price: p.price,
        discount_price: p.pay,
        currency: 'CNY',
        desc: JSON.stringify({ tags: p.tags, des: p.des, descTitle: p.title, desList }),
      },
    ]),
    is_disabled: 0,
    updated_at: now,
  };
}

export async function seedProducts(db: Db, now = Date.now()): Promise<void> {
  for (const product of DEFAULT_PRODUCTS) {
    await db
      .insertInto('products')
      .values(toRow(product, now))
      .onConflict((oc) => oc.column('product_id').doNothing())
      .execute();
  }
}

export function toProduct(row: ProductRow): Product {
  return {
    product_id: row.product_id,
    product_type: row.product_type === ProductType.Credit ? ProductType.Credit : ProductType.Member,
    title: row.title,
    level: row.level,
    recharge_credit: row.recharge_credit,
    is_free_package: row.is_free_package ? 1 : 0,
    after_charge: row.after_charge ? 1 : 0,
    is_annual: row.is_annual ? 1 : 0,
    channel_details: JSON.parse(row.channel_details),
  };
}

/** The CN price the buyer pays, in fen; null when the product has no CN channel detail. */
export function priceFen(row: ProductRow): number | null {
  const pricing = deriveProductPricing(toProduct(row));
  return pricing ? Math.round(pricing.price * 100) : null;
}

/** Listed products: member plans by level (monthly first), credit packs by price then credits. */
export async function listProducts(db: Db, type: number): Promise<Product[]> {
  let query = db.selectFrom('products').selectAll().where('is_disabled', '=', 0);
  if (type !== ProductListType.All) query = query.where('product_type', '=', type);
  const rows = await query.execute();
  const members = rows
    .filter((r) => r.product_type === ProductType.Member)
    .sort((a, b) => a.level - b.level || a.is_annual - b.is_annual);
  const credits = rows
    .filter((r) => r.product_type === ProductType.Credit)
    .sort((a, b) => (priceFen(a) ?? 0) - (priceFen(b) ?? 0) || a.recharge_credit - b.recharge_credit);
  return [...members, ...credits].map(toProduct);
}

export async function findProduct(db: Db, productId: string): Promise<ProductRow | undefined> {
  return db.selectFrom('products').selectAll().where('product_id', '=', productId).executeTakeFirst();
}

export async function findAllProducts(db: Db): Promise<ProductRow[]> {
  return db.selectFrom('products').selectAll().orderBy('product_type').orderBy('level').execute();
}

/** Operator edits: the fields a price change or a new pack needs. */
export interface ProductEdit {
  title?: string;
  price?: number;
  pay?: number;
  recharge_credit?: number;
  disabled?: boolean;
  tags?: string[];
  desList?: string[];
}

export async function editProduct(
  db: Db,
  productId: string,
  edit: ProductEdit,
  now: number,
): Promise<ProductRow> {
  const row = await findProduct(db, productId);
  if (!row) throw new Error(`no product ${productId}`);
  const details = toProduct(row).channel_details.map((d) => {
    if (d.country_code !== PAY_COUNTRY_CODE) return d;
    const desc = JSON.parse(d.desc || '{}');
    return {
      ...d,
      title: edit.title ?? d.title,
      price: edit.price ?? d.price,
      discount_price: edit.pay ?? d.discount_price,
      desc: JSON.stringify({
        ...desc,
        descTitle: edit.title ?? desc.descTitle,
        tags: edit.tags ?? desc.tags,
        desList: edit.desList ?? desc.desList,
      }),
    };
  });
  const cn = details.find((d) => d.country_code === PAY_COUNTRY_CODE);
  const next = {
    title: edit.title ?? row.title,
    recharge_credit: edit.recharge_credit ?? row.recharge_credit,
    is_disabled: edit.disabled === undefined ? row.is_disabled : edit.disabled ? 1 : 0,
    after_charge: cn && cn.discount_price > 0 && cn.price > cn.discount_price ? 1 : 0,
    channel_details: JSON.stringify(details),
    updated_at: now,
  };
  await db.updateTable('products').set(next).where('product_id', '=', productId).execute();
  return { ...row, ...next };
}
