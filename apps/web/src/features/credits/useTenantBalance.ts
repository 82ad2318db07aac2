import type { CallData, creditsCalls } from '@vw/contract';
import { api } from '@/lib/api.ts';
import { useCall } from '@/lib/query/hooks.ts';

export type TenantBalance = CallData<typeof creditsCalls.getTenantBalance>;

/** The balance by lot (GET /v1/balance/get_tenant_balance), loaded while `enabled`. */
export function useTenantBalance(enabled = true) {
  // Fresh each time it is enabled (a dialog opening): held credits change with every task.
  const q = useCall(api.getTenantBalance, undefined, { enabled, suppressError: true, staleTime: 0 });
  const data: TenantBalance | null = q.data ?? null;
  const reload = async () => {
    await q.refetch();
  };
  return { data, loading: q.isFetching, failed: q.isError && !q.isFetching, reload };
}
