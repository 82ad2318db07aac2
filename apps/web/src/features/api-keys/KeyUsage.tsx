import type { ApiKeyView } from '@vw/contract';
import { Empty, Skeleton } from 'antd';
import { useEffect, useRef } from 'react';
import { api } from '@/lib/api.ts';
import { invalidateCall, useCall } from '@/lib/query/hooks.ts';
import { zhCN } from '@/locales/zh-CN.ts';

const t = zhCN.apiKeys;

/** Per-day requests and credits of one key, as two rows of small bars. */
export function KeyUsage({ keyView, version }: { keyView: ApiKeyView; version: number }) {
  const usage = useCall(api.apiKeyUsage, { query: { key_id: keyView.key_id, days: 14 } }, { staleTime: 0 });
  // The key list reloaded (a revoke, a rename, new usage): reload the usage too.
  const seenVersion = useRef(version);
  useEffect(() => {
    if (seenVersion.current === version) return;
    seenVersion.current = version;
    void invalidateCall(api.apiKeyUsage);
  }, [version]);
  const days = usage.isError ? [] : (usage.data?.days ?? null);
  const totals = usage.data?.totals ?? { requests: 0, credits: 0, characters: 0 };
  if (!days) return <Skeleton active paragraph={{ rows: 3 }} title={false} />;
  if (days.length === 0) return <Empty />;
  const maxReq = Math.max(1, ...days.map((d) => d.requests));
  const maxCred = Math.max(1, ...days.map((d) => d.credits));
  return (
    <div className="vw-apikeys-usage" data-testid="key-usage">
      <div className="vw-apikeys-usage-head">
        <strong>{t.usageTitle(keyView.name)}</strong>
        <span data-testid="key-usage-totals">
          {t.usageTotal(totals.requests, totals.credits, totals.characters)}
        </span>
      </div>
      <div className="vw-apikeys-bars">
        {days.map((d) => (
          <div
            key={d.day}
            className="vw-apikeys-bar"
            title={`${d.day}：${d.requests} ${t.usageRequests} · ${d.credits} ${t.usageCredits} · ${d.characters} ${t.usageCharacters}`}
          >
            <div className="vw-apikeys-bar-track">
              <div className="vw-apikeys-bar-req" style={{ height: `${(d.requests / maxReq) * 100}%` }} />
              <div className="vw-apikeys-bar-cred" style={{ height: `${(d.credits / maxCred) * 100}%` }} />
            </div>
            <span>{d.day.slice(5)}</span>
          </div>
        ))}
      </div>
      <div className="vw-apikeys-legend">
        <span className="vw-apikeys-dot req" />
        {t.usageRequests}
        <span className="vw-apikeys-dot cred" />
        {t.usageCredits}
      </div>
    </div>
  );
}
