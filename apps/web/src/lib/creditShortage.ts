import type { TenantBonus } from '@vw/contract';
import { useUploadGuardStore } from '@/stores/upload.ts';
import { loadTenantBonus } from './auth/session.ts';
import { CreditType } from './credits.ts';

let inFlight: Promise<boolean> | null = null;

/**
 * The credit-shortage flow of spec §4: refetch the tenant bonus (the balance shown is stale);
 * if the plan's credits are exhausted (credit_type 3) mark the upload as leavable and show the
 * error. Shortages arriving while a refetch runs share it. Resolves whether the error was shown.
 */
export function handleCreditShortage(
  showError: () => void,
  load: () => Promise<TenantBonus | null> = loadTenantBonus,
): Promise<boolean> {
  if (inFlight) return inFlight;
  inFlight = (async () => {
    try {
      const bonus = await load();
      if (bonus?.credit_type !== CreditType.PlanCreditsExhausted) return false;
      useUploadGuardStore.getState().setLeaveAllowed(true);
      showError();
      return true;
    } finally {
      inFlight = null;
    }
  })();
  return inFlight;
}
