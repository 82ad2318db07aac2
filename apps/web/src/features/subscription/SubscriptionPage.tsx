import {
  CheckOutlined,
  CrownFilled,
  GiftOutlined,
  InfoCircleOutlined,
  ShoppingOutlined,
  ThunderboltFilled,
} from '@ant-design/icons';
import type { Plan, TenantBonusWithPrevious } from '@vw/contract';
import { Alert, Button, Skeleton, Tooltip } from 'antd';

import { PlanBadge } from '@/components/PlanBadge.tsx';
import { formatCredits, formatDate } from '@/features/credits/format.ts';
import { api } from '@/lib/api.ts';
import { CreditType, FREE_LEVEL, SUBSCRIPTION_SHORTCUT_LEVEL } from '@/lib/credits.ts';
import { useCall } from '@/lib/query/hooks.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { useCatalogueStore } from '@/stores/data.ts';
import { useDialogStore } from '@/stores/dialogs.ts';
import { planOf, useUserStore } from '@/stores/user.ts';
import '@/features/credits/credits.css';

const t = zhCN.subscription;

function CurrentPlan() {
  const bonus = useUserStore((s) => s.tenantBonus) as TenantBonusWithPrevious;
  const plan = planOf(bonus);
  const dialogs = useDialogStore.getState();
  const exhausted = bonus.credit_type === CreditType.PlanCreditsExhausted;
  return (
    <section
      className={`vw-card vw-sub-current ${plan.isFree ? 'is-free' : 'is-paid'}`}
      data-testid="sub-current"
    >
      <div className="vw-sub-current-main">
        <div className="vw-sub-current-icon">{plan.isFree ? <GiftOutlined /> : <CrownFilled />}</div>
        <div className="vw-sub-current-info">
          <div className="vw-sub-current-label">{t.current}</div>
          <div className="vw-sub-current-name">
            <span data-testid="sub-plan-name">{plan.name}</span>
            <PlanBadge name={plan.name} isFree={plan.isFree} compact />
            {plan.hasMembership && (
              <span className="vw-sub-period">{bonus.is_annual_package === 1 ? t.annual : t.monthly}</span>
            )}
          </div>
          <div className="vw-sub-current-facts">
            <span>
              {t.expiry}：
              <strong data-testid="sub-expiry">
                {plan.expiresAt ? formatDate(plan.expiresAt) : zhCN.plan.noExpiry}
              </strong>
            </span>
            <span>
              {t.credits}：<strong data-testid="sub-credits">{formatCredits(plan.credits)}</strong>
            </span>
          </div>
          {bonus.previous && (
            <div className="vw-sub-previous">
              {t.previous(bonus.previous.title, formatDate(bonus.previous.expired_time))}
            </div>
          )}
        </div>
      </div>
      <div className="vw-sub-current-actions">
        <Button type="primary" size="large" onClick={() => dialogs.openPayment({ mode: 'next_level' })}>
          {t.upgrade}
        </Button>
        <Button size="large" onClick={() => dialogs.openPayment({ mode: 'credit' })}>
          {t.buyCredits}
        </Button>
        <Button size="large" type="text" icon={<GiftOutlined />} onClick={() => dialogs.openRedeem()}>
          {t.redeem}
        </Button>
      </div>
      {exhausted && <Alert className="vw-sub-alert" type="warning" showIcon message={t.exhausted} />}
    </section>
  );
}

function PlanCard({ plan, currentLevel }: { plan: Plan; currentLevel: number }) {
  const isCurrent = plan.level === currentLevel;
  const isLower = plan.level < currentLevel;
  const isFree = plan.level <= FREE_LEVEL;
  const recommended = plan.level === SUBSCRIPTION_SHORTCUT_LEVEL;
  // The card buys its own plan (monthly, or annual for annual members) when the catalogue has it.
  const open = () => {
    const isAnnual = useUserStore.getState().tenantBonus.is_annual_package === 1;
    const product = useCatalogueStore
      .getState()
      .products.find(
        (p) => p.product_type === 0 && p.level === plan.level && p.is_annual === (isAnnual ? 1 : 0),
      );
    useDialogStore
      .getState()
      .openPayment(
        product
          ? { mode: 'product', productId: product.product_id }
          : { mode: plan.level === SUBSCRIPTION_SHORTCUT_LEVEL ? 'level_300' : 'next_level' },
      );
  };
  let action: React.ReactNode;
  if (isCurrent)
    action = (
      <Button block disabled>
        {t.currentPlan}
      </Button>
    );
  else if (isFree) action = null;
  else if (isLower)
    action = (
      <Tooltip title={t.lowerPlan}>
        <Button block disabled>
          {t.subscribe}
        </Button>
      </Tooltip>
    );
  else
    action = (
      <Button block type={recommended ? 'primary' : 'default'} onClick={open}>
        {t.subscribe}
      </Button>
    );
  return (
    <div
      className={`vw-plan-tier ${isCurrent ? 'is-current' : ''} ${recommended ? 'is-recommended' : ''}`}
      data-testid="plan-tier"
      data-level={plan.level}
    >
      {recommended && (
        <span className="vw-plan-tier-flag">
          <ThunderboltFilled /> {t.recommended}
        </span>
      )}
      <div className="vw-plan-tier-title">{plan.title}</div>
      <div className="vw-plan-tier-credits">
        {plan.monthly_credits > 0 ? t.perMonth(formatCredits(plan.monthly_credits)) : t.free}
      </div>
      <ul className="vw-plan-tier-features">
        {plan.features.map((f) => (
          <li key={f}>
            <CheckOutlined />
            <span>{f}</span>
          </li>
        ))}
      </ul>
      <div className="vw-plan-tier-action">{action}</div>
    </div>
  );
}

const sortPlans = (d: { plans: Plan[] }) => [...d.plans].sort((a, b) => a.level - b.level);

function PlanComparison() {
  const level = useUserStore((s) => s.tenantBonus.level);
  const q = useCall(api.getPlans, undefined, { suppressError: true, select: sortPlans });
  const plans: Plan[] | null = q.data ?? null;
  const failed = q.isError;
  return (
    <section className="vw-card">
      <div className="vw-card-head">
        <h2>{t.plans}</h2>
        <span className="vw-card-hint">{t.plansHint}</span>
      </div>
      {failed ? (
        <div className="vw-lots-empty">{zhCN.credits.loadFailed}</div>
      ) : !plans ? (
        <Skeleton active paragraph={{ rows: 6 }} title={false} />
      ) : plans.length === 0 ? (
        <div className="vw-lots-empty">{t.plansEmpty}</div>
      ) : (
        <div className="vw-plan-tiers" data-testid="plan-tiers">
          {plans.map((p) => (
            <PlanCard key={p.level} plan={p} currentLevel={level} />
          ))}
        </div>
      )}
    </section>
  );
}

function CreditPacks() {
  const hasMembership = useUserStore((s) => planOf(s.tenantBonus).hasMembership);
  const dialogs = useDialogStore.getState();
  return (
    <section className="vw-card vw-sub-packs">
      <div className="vw-sub-packs-icon">
        <ShoppingOutlined />
      </div>
      <div className="vw-sub-packs-body">
        <h2>{t.packs}</h2>
        <p>{t.packsDesc}</p>
        <ul>
          {t.packPoints.map((p) => (
            <li key={p}>
              <CheckOutlined /> {p}
            </li>
          ))}
        </ul>
      </div>
      <div className="vw-sub-packs-action">
        {hasMembership ? (
          <Button type="primary" size="large" onClick={() => dialogs.openPayment({ mode: 'credit' })}>
            {t.buyCredits}
          </Button>
        ) : (
          <>
            <Button size="large" disabled>
              {t.buyCredits}
            </Button>
            <div className="vw-sub-packs-tip">
              {t.packsNeedMembership}
              <button
                type="button"
                className="vw-link-btn"
                onClick={() => dialogs.openPayment({ mode: 'next_level' })}
              >
                {t.goUpgrade}
              </button>
            </div>
          </>
        )}
      </div>
    </section>
  );
}

function CreditRules() {
  return (
    <section className="vw-card vw-sub-rules" data-testid="credit-rules">
      <h2>
        <InfoCircleOutlined /> {t.rules}
      </h2>
      <ol>
        {t.ruleList.map((r) => (
          <li key={r}>{r}</li>
        ))}
      </ol>
    </section>
  );
}

/** Route /subscription — the membership centre. */
export function Component() {
  return (
    <div className="vw-page vw-sub" data-testid="subscription-page">
      <header className="vw-page-header">
        <h1>{t.title}</h1>
        <p>{t.subtitle}</p>
      </header>
      <CurrentPlan />
      <PlanComparison />
      <CreditPacks />
      <CreditRules />
    </div>
  );
}
