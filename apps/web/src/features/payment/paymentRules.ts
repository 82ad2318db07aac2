import type { Product, TenantBonus } from '@vw/contract';
import { ProductType } from '@vw/contract/constants/payments.ts';
import { clientMessages, codeMessages } from '@vw/contract/errors.ts';
import { deriveProductPricing } from '@vw/contract/helpers/products.ts';
import { FREE_LEVEL, SUBSCRIPTION_SHORTCUT_LEVEL } from '@/lib/credits.ts';
import { isApiError } from '@/lib/http/errors.ts';
import type { PaymentOpenMode } from '@/stores/dialogs.ts';

/** Dialog type: one fixed product (single, 0) or tabs of members and credit packs (multi, 1). */
export const PaymentDialogType = { Single: 0, Multi: 1 } as const;
export type PaymentTab = typeof ProductType.Member | typeof ProductType.Credit;

/** What the rules need to know about the buyer. */
export interface Buyer {
  level: number;
  hasMembership: boolean;
  isAnnual: boolean;
  /** The highest level the catalogue sells (a member there buys no plan again, spec §5). */
  topLevel?: number;
}

export function buyerOf(bonus: TenantBonus, products: Product[] = []): Buyer {
  const hasMembership = bonus.level > FREE_LEVEL && bonus.is_free_package !== 1;
  const levels = memberProducts(products).map((p) => p.level);
  return {
    level: bonus.level,
    hasMembership,
    isAnnual: hasMembership && bonus.is_annual_package === 1,
    topLevel: levels.length > 0 ? Math.max(...levels) : undefined,
  };
}

const atTopLevel = (buyer: Buyer) =>
  buyer.hasMembership && buyer.topLevel !== undefined && buyer.level >= buyer.topLevel;

/** Purchasable member plans (non-free, priced for CN) by level, monthly first; credit packs by price then credits. */
export function memberProducts(products: Product[]): Product[] {
  return products
    .filter(
      (p) => p.product_type === ProductType.Member && p.is_free_package !== 1 && deriveProductPricing(p),
    )
    .sort((a, b) => a.level - b.level || a.is_annual - b.is_annual);
}

export function creditProducts(products: Product[]): Product[] {
  const price = (p: Product) => deriveProductPricing(p)?.price ?? 0;
  return products
    .filter((p) => p.product_type === ProductType.Credit && deriveProductPricing(p))
    .sort((a, b) => price(a) - price(b) || a.recharge_credit - b.recharge_credit);
}

/** Why a product cannot be bought now (spec §5); null when it can. */
export function disabledReason(product: Product, buyer: Buyer): string | null {
  if (product.product_type === ProductType.Credit) {
    return buyer.hasMembership ? null : clientMessages.creditNeedsMembership;
  }
  if (!buyer.hasMembership) return null;
  if (buyer.isAnnual && product.is_annual !== 1) return clientMessages.annualMemberNoMonthly;
  if (product.level < buyer.level) return clientMessages.noLowerPlan;
  if (atTopLevel(buyer)) return clientMessages.topPlanAlready;
  return null;
}

/** The member tab's default: the lowest-level product at or above the buyer's level; none for annual members. */
export function defaultMemberSelection(products: Product[], buyer: Buyer): Product | null {
  if (buyer.isAnnual) return null;
  return memberProducts(products).find((p) => p.level >= buyer.level && !disabledReason(p, buyer)) ?? null;
}

/** The credit tab's default: the smallest pack when the buyer has a membership, else none. */
export function defaultCreditSelection(products: Product[], buyer: Buyer): Product | null {
  if (!buyer.hasMembership) return null;
  return [...creditProducts(products)].sort((a, b) => a.recharge_credit - b.recharge_credit)[0] ?? null;
}

/** What a tab preselects when the user switches to it. */
export function defaultSelectionFor(tab: PaymentTab, products: Product[], buyer: Buyer): Product | null {
  return tab === ProductType.Member
    ? defaultMemberSelection(products, buyer)
    : defaultCreditSelection(products, buyer);
}

/**
 * 您已是最高级套餐用户，暂不支持重复购买套餐 (spec §5): a member at the top level when no member
 * product can be selected — whatever is selected now and however the dialog was opened.
 */
export function showTopLevelTip(products: Product[], buyer: Buyer): boolean {
  const members = memberProducts(products);
  return atTopLevel(buyer) && members.length > 0 && members.every((p) => disabledReason(p, buyer) !== null);
}

/**
 * The message of a failed order creation (spec §8 Payment): the server's message, else the
 * message of a code the client knows, else 网络异常稍后重试 (network errors and unknown codes).
 */
export function createFailedMessage(error: unknown): string {
  if (!isApiError(error) || error.kind === 'network') return clientMessages.paymentCreateFailed;
  if (error.serverMessage) return error.serverMessage;
  const known = error.code in codeMessages || error.type !== undefined;
  return known ? error.message : clientMessages.paymentCreateFailed;
}

export interface PaymentOpening {
  type: (typeof PaymentDialogType)[keyof typeof PaymentDialogType];
  tab: PaymentTab;
  selected: Product | null;
  /** The products the dialog offers (one for single). */
  fixed: Product | null;
}

/** How the dialog opens in each of its four modes (spec §2, §4). */
export function openingFor(mode: PaymentOpenMode, products: Product[], buyer: Buyer): PaymentOpening {
  const multi = (tab: PaymentTab, selected: Product | null): PaymentOpening => {
    // Opening on a credit pack without a membership switches to the member tab with no selection.
    if (tab === ProductType.Credit && !buyer.hasMembership) {
      return { type: PaymentDialogType.Multi, tab: ProductType.Member, selected: null, fixed: null };
    }
    const usable = selected && !disabledReason(selected, buyer) ? selected : null;
    return { type: PaymentDialogType.Multi, tab, selected: usable, fixed: null };
  };
  switch (mode.mode) {
    case 'product': {
      const product = products.find((p) => p.product_id === mode.productId) ?? null;
      return {
        type: PaymentDialogType.Single,
        tab: product?.product_type ?? ProductType.Member,
        selected: product,
        fixed: product,
      };
    }
    case 'credit':
      return multi(ProductType.Credit, defaultCreditSelection(products, buyer));
    case 'next_level': {
      const above = memberProducts(products).filter(
        (p) => p.level > buyer.level && !disabledReason(p, buyer),
      );
      const sameBilling = above.find((p) => (p.is_annual === 1) === buyer.isAnnual);
      return multi(ProductType.Member, sameBilling ?? above[0] ?? null);
    }
    case 'level_300': {
      const target = memberProducts(products).find(
        (p) => p.level >= SUBSCRIPTION_SHORTCUT_LEVEL && !disabledReason(p, buyer),
      );
      return multi(ProductType.Member, target ?? null);
    }
  }
}
