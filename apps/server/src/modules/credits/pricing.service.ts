import type { CreditTool } from '@vw/contract';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { getSetting, runtimeSettings } from '../settings/settings.service.ts';
import { getBalance } from './ledger.service.ts';

export interface TaskQuantity {
  characters?: number;
  seconds?: number;
}

/** A tool's row of the pricing table in the runtime settings. */
async function pricingRule(ctx: AppContext, tool: CreditTool) {
  // A table an operator stored before a tool existed still prices it by the default row.
  const rule = (await getSetting(ctx, 'pricing'))[tool] ?? runtimeSettings.pricing.default[tool];
  if (!rule) throw AppError.named('err_invalid_param', `价格表中没有 ${tool}`);
  return rule;
}

/** Credits a task costs by the pricing table in the runtime settings (estimate and charge use this). */
export async function priceTask(ctx: AppContext, tool: CreditTool, quantity: TaskQuantity): Promise<number> {
  const rule = await pricingRule(ctx, tool);
  const amount = rule.basis === 'task' ? 1 : (quantity[rule.basis] ?? 0);
  return Math.max(rule.minimum, Math.ceil(amount / rule.unit) * rule.credits);
}

/**
 * Credits of a line action (re-translating or re-dubbing some lines of a project): the tool's rate
 * for those lines' own seconds, not rounded up to a started unit nor to a clip's floor; at least 1.
 */
export async function priceLines(ctx: AppContext, tool: CreditTool, ms: number): Promise<number> {
  const rule = await pricingRule(ctx, tool);
  if (rule.basis !== 'seconds') return priceTask(ctx, tool, { seconds: Math.ceil(ms / 1000) });
  return Math.max(1, Math.ceil((ms / 1000 / rule.unit) * rule.credits));
}

export async function estimateTask(
  ctx: AppContext,
  userId: string,
  tool: CreditTool,
  quantity: TaskQuantity,
) {
  const credits = await priceTask(ctx, tool, quantity);
  const { balance } = await getBalance(ctx, userId);
  return { credits, balance, sufficient: balance >= credits };
}
