import { CrownFilled } from '@ant-design/icons';
import { zhCN } from '@/locales/zh-CN.ts';

/** Plan badge: a quiet grey pill for the free plan, a gold one for paid plans. */
export function PlanBadge({ name, isFree, compact }: { name: string; isFree: boolean; compact?: boolean }) {
  return (
    <span
      className={`vw-plan-badge ${isFree ? 'is-free' : 'is-paid'}`}
      data-testid="plan-badge"
      data-free={isFree}
    >
      {!isFree && <CrownFilled />}
      {compact ? (isFree ? zhCN.plan.freeBadge : zhCN.plan.paidBadge) : name}
    </span>
  );
}
