import type { TenantBonus } from '@vw/contract';
import { zhCN } from '@/locales/zh-CN.ts';
import { useUploadGuardStore } from '@/stores/upload.ts';
import { loadTenantBonus } from './auth/session.ts';
import { CreditType } from './credits.ts';

/** What a refused job needed and what was available (the data of a 1010 reply from a hold). */
export interface CreditShortage {
  needed: number;
  available: number;
}

export function creditShortageOf(data: unknown): CreditShortage | undefined {
  const d = data as Partial<CreditShortage> | null | undefined;
  return typeof d?.needed === 'number' && typeof d.available === 'number'
    ? { needed: d.needed, available: d.available }
    : undefined;
}

/**
 * The first sentence of the prompt: the job's need against what there is when the reply says so;
 * else, with the plan's credits used up, either "nothing left" or what is left (never "used up"
 * while credits remain).
 */
function leadOf(shortage: CreditShortage | undefined, bonus: TenantBonus | null): string | null {
  const c = zhCN.credits;
  if (shortage) return c.shortage(shortage.needed, shortage.available);
  if (bonus?.credit_type !== CreditType.PlanCreditsExhausted) return null;
  return bonus.credit_balance > 0 ? c.notEnoughLeft(bonus.credit_balance) : c.planCreditsExhausted;
}

let inFlight: Promise<boolean> | null = null;

/**
 * The credit-shortage flow of spec §4: refetch the tenant bonus (the balance shown is stale);
 * if the plan's credits are exhausted (credit_type 3) mark the upload as leavable. The error is
 * shown with its lead sentence (see leadOf) when there is one. Shortages arriving while a refetch
 * runs share it. Resolves whether the error was shown.
 */
export function handleCreditShortage(
  showError: (lead: string) => void,
  load: () => Promise<TenantBonus | null> = loadTenantBonus,
  shortage?: CreditShortage,
): Promise<boolean> {
  if (inFlight) return inFlight;
  inFlight = (async () => {
    try {
      const bonus = await load();
      if (!bonus) return false;
      if (bonus.credit_type === CreditType.PlanCreditsExhausted) {
        useUploadGuardStore.getState().setLeaveAllowed(true);
      }
      const lead = leadOf(shortage, bonus);
      if (!lead) return false;
      showError(lead);
      return true;
    } finally {
      inFlight = null;
    }
  })();
  return inFlight;
}
