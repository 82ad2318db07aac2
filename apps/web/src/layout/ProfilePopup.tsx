import {
  ApiOutlined,
  CrownOutlined,
  FileProtectOutlined,
  GiftOutlined,
  LogoutOutlined,
  RightOutlined,
  SafetyOutlined,
  UserOutlined,
} from '@ant-design/icons';
import type { TenantBonus, UserInfo } from '@vw/contract';
import { formatDate } from '@vw/contract/helpers/time.ts';
import { Button } from 'antd';
import type { ReactNode } from 'react';
import { displayName } from '@/components/avatar.ts';
import { PlanBadge } from '@/components/PlanBadge.tsx';
import { UserAvatar } from '@/components/UserAvatar.tsx';
import { zhCN } from '@/locales/zh-CN.ts';
import { useDialogStore } from '@/stores/dialogs.ts';
import { planOf } from '@/stores/user.ts';

interface Props {
  user: UserInfo;
  bonus: TenantBonus;
  /** Navigate inside the app and close the popup. */
  go: (to: string) => void;
  close: () => void;
  onLogout: () => void;
}

function LinkRow({
  icon,
  label,
  onClick,
  testId,
}: {
  icon: ReactNode;
  label: string;
  onClick: () => void;
  testId?: string;
}) {
  return (
    <button type="button" className="vw-popup-link" onClick={onClick} data-testid={testId}>
      <span className="vw-popup-link-icon">{icon}</span>
      <span className="vw-popup-link-label">{label}</span>
      <RightOutlined className="vw-popup-link-arrow" />
    </button>
  );
}

/** The profile popup of spec §2. */
export function ProfilePopup({ user, bonus, go, close, onLogout }: Props) {
  const plan = planOf(bonus);
  const t = zhCN.profileMenu;
  const dialogs = useDialogStore.getState();
  const name = displayName(user);
  const openAgreement = (path: string) =>
    window.open(`${import.meta.env.BASE_URL}${path}`, '_blank', 'noopener');
  return (
    <div className="vw-popup" data-testid="profile-popup">
      <div className="vw-popup-head">
        <UserAvatar src={user.avatar_url} name={name} seed={user.uid} size={48} />
        <div className="vw-popup-id">
          <div className="vw-popup-name">{user.nickname || name || t.notSet}</div>
          <div className="vw-popup-email">{user.email || t.emailNotBound}</div>
        </div>
      </div>

      <div className={`vw-plan-card ${plan.isFree ? 'is-free' : 'is-paid'}`}>
        <div className="vw-plan-row">
          <span className="vw-plan-label">{zhCN.plan.current}</span>
          <PlanBadge name={plan.name} isFree={plan.isFree} />
        </div>
        <div className="vw-plan-row">
          <span className="vw-plan-label">{zhCN.plan.expiry}</span>
          <span className="vw-plan-value" data-testid="plan-expiry">
            {plan.expiresAt ? formatDate(plan.expiresAt) : zhCN.plan.noExpiry}
          </span>
        </div>
        <div className="vw-plan-row">
          <span className="vw-plan-label">{zhCN.plan.credits}</span>
          <button
            type="button"
            className="vw-plan-credits"
            onClick={() => {
              close();
              dialogs.openBalanceDetail();
            }}
          >
            <strong data-testid="credit-balance">{plan.credits.toLocaleString('zh-CN')}</strong>
            <span>
              {zhCN.plan.creditsDetail}
              <RightOutlined />
            </span>
          </button>
        </div>
        <div className="vw-plan-actions">
          <Button
            type="primary"
            block
            icon={<CrownOutlined />}
            onClick={() => {
              close();
              dialogs.openPayment({ mode: 'next_level' });
            }}
          >
            {zhCN.plan.upgrade}
          </Button>
          <Button
            block
            onClick={() => {
              close();
              dialogs.openPayment({ mode: 'credit' });
            }}
          >
            {zhCN.plan.buyCredits}
          </Button>
        </div>
      </div>

      <div className="vw-popup-links">
        <LinkRow icon={<CrownOutlined />} label={t.membershipCentre} onClick={() => go('/subscription')} />
        <LinkRow
          icon={<GiftOutlined />}
          label={t.redeem}
          onClick={() => {
            close();
            dialogs.openRedeem();
          }}
        />
        <LinkRow icon={<ApiOutlined />} label={t.apiKeys} onClick={() => go('/api-keys')} />
        <LinkRow
          icon={<UserOutlined />}
          label={t.profile}
          onClick={() => go('/profile')}
          testId="popup-profile"
        />
      </div>

      <div className="vw-popup-foot">
        <div className="vw-popup-legal">
          <button type="button" onClick={() => openAgreement('terms')}>
            <FileProtectOutlined /> {t.terms}
          </button>
          <button type="button" onClick={() => openAgreement('privacy')}>
            <SafetyOutlined /> {t.privacy}
          </button>
        </div>
        <button type="button" className="vw-popup-logout" onClick={onLogout} data-testid="logout">
          <LogoutOutlined /> {t.logout}
        </button>
      </div>
    </div>
  );
}
