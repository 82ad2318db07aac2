import { PAY_COUNTRY_CODE } from '../constants/payments.ts';

/** The fields of a product the client derives its prices from (spec §3). */
export interface ProductLike {
  after_charge: number;
  channel_details: {
    country_code: string;
    price: number;
    discount_price: number;
    currency: string;
    desc: string;
  }[];
}

/** The parsed `desc` JSON of a channel detail. */
export interface ProductDesc {
  tags: string[];
  des: string;
  descTitle: string;
  desList: string[];
}

/** About 27 currency codes → their symbols; unknown codes show the code itself. */
export const currencySymbols: Record<string, string> = {
  CNY: '¥',
  USD: '$',
  EUR: '€',
  GBP: '£',
  JPY: '¥',
  KRW: '₩',
  HKD: 'HK$',
  TWD: 'NT$',
  MOP: 'MOP$',
  SGD: 'S$',
  AUD: 'A$',
  CAD: 'C$',
  NZD: 'NZ$',
  CHF: 'CHF',
  SEK: 'kr',
  NOK: 'kr',
  DKK: 'kr',
  RUB: '₽',
  INR: '₹',
  THB: '฿',
  MYR: 'RM',
  IDR: 'Rp',
  PHP: '₱',
  VND: '₫',
  BRL: 'R$',
  MXN: 'Mex$',
  ZAR: 'R',
  TRY: '₺',
  AED: 'د.إ',
};

export function parseProductDesc(desc: string): ProductDesc {
  const empty: ProductDesc = { tags: [], des: '', descTitle: '', desList: [] };
  try {
    const parsed = JSON.parse(desc) as Partial<ProductDesc>;
    return {
      tags: Array.isArray(parsed.tags) ? parsed.tags.map(String) : [],
      des: typeof parsed.des === 'string' ? parsed.des : '',
      descTitle: typeof parsed.descTitle === 'string' ? parsed.descTitle : '',
      desList: Array.isArray(parsed.desList) ? parsed.desList.map(String) : [],
    };
  } catch {
    return empty;
  }
}

export interface ProductPricing {
  /** What the buyer pays. */
  price: number;
  /** The struck-through price, shown only when after_charge is 1 and it is higher. */
  originalPrice: number | null;
  paySymbol: string;
  desc: ProductDesc;
}

/** price, originalPrice, paySymbol and desList from the CN channel detail (spec §3); null without one. */
export function deriveProductPricing(product: ProductLike): ProductPricing | null {
  const detail = product.channel_details.find((d) => d.country_code === PAY_COUNTRY_CODE);
  if (!detail) return null;
  const price = detail.discount_price > 0 ? detail.discount_price : detail.price;
  const originalPrice = product.after_charge === 1 && detail.price > price ? detail.price : null;
  return {
    price,
    originalPrice,
    paySymbol: currencySymbols[detail.currency] ?? detail.currency,
    desc: parseProductDesc(detail.desc),
  };
}

/** Member prices are shown per month (/月): annual plans divide by 12, to two decimals at most. */
export function monthlyPrice(price: number, isAnnual: boolean): number {
  return isAnnual ? Math.round((price / 12) * 100) / 100 : price;
}
