import type { CreditLot } from '@vw/contract';
import { Progress, Tag } from 'antd';
import { zhCN } from '@/locales/zh-CN.ts';
import { formatCredits, formatDate } from './format.ts';

const t = zhCN.credits;

const sourceColor: Record<CreditLot['source'], string> = {
  membership: 'gold',
  topup: 'blue',
  gift: 'green',
  redeem: 'purple',
  refund: 'cyan',
};

/** Credit lots with their source, what is left and when they expire (spend order: earliest first). */
export function LotList({ lots, now = Date.now() / 1000 }: { lots: CreditLot[]; now?: number }) {
  if (lots.length === 0) return <div className="vw-lots-empty">{t.lotsEmpty}</div>;
  const sorted = [...lots].sort((a, b) => a.expired_time - b.expired_time);
  return (
    <ul className="vw-lots" data-testid="credit-lots">
      {sorted.map((lot) => {
        const expired = lot.expired_time > 0 && lot.expired_time <= now;
        const pending = lot.effective_time > now;
        const pct = lot.amount > 0 ? Math.round((lot.remaining / lot.amount) * 100) : 0;
        return (
          <li key={lot.lot_id} className={`vw-lot ${expired ? 'is-expired' : ''}`} data-testid="credit-lot">
            <div className="vw-lot-head">
              <Tag color={sourceColor[lot.source]} bordered={false}>
                {lot.source_name || lot.source}
              </Tag>
              <span className="vw-lot-remaining">
                <strong>{formatCredits(lot.remaining)}</strong>
                <span> / {formatCredits(lot.amount)}</span>
              </span>
            </div>
            <Progress
              percent={pct}
              showInfo={false}
              size="small"
              strokeColor={expired ? '#d1d5db' : '#4f46e5'}
              className="vw-lot-bar"
            />
            <div className="vw-lot-foot">
              <span>
                {expired
                  ? t.expired
                  : pending
                    ? t.effectiveFrom(formatDate(lot.effective_time))
                    : lot.expired_time > 0
                      ? t.expiresOn(formatDate(lot.expired_time))
                      : zhCN.plan.noExpiry}
              </span>
              {lot.remark && <span className="vw-lot-remark">{lot.remark}</span>}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
