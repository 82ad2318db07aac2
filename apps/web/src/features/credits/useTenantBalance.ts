import type { CallData, creditsCalls } from '@vw/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '@/lib/api.ts';
import { request } from '@/lib/http/client.ts';

export type TenantBalance = CallData<typeof creditsCalls.getTenantBalance>;

/** The balance by lot (GET /v1/balance/get_tenant_balance), loaded while `enabled`. */
export function useTenantBalance(enabled = true) {
  const [data, setData] = useState<TenantBalance | null>(null);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);
  const seq = useRef(0);
  const reload = useCallback(async () => {
    const mine = ++seq.current;
    setLoading(true);
    setFailed(false);
    try {
      const d = await request(api.getTenantBalance, {}, { suppressError: true });
      if (mine === seq.current) setData(d);
    } catch {
      if (mine === seq.current) setFailed(true);
    } finally {
      if (mine === seq.current) setLoading(false);
    }
  }, []);
  useEffect(() => {
    if (enabled) void reload();
  }, [enabled, reload]);
  return { data, loading, failed, reload };
}
