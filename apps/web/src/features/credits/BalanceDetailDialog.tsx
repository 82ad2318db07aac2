import { ArrowRightOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, Modal, Skeleton } from 'antd';
import { useNavigate } from 'react-router';
import { zhCN } from '@/locales/zh-CN.ts';
import { planOf, useUserStore } from '@/stores/user.ts';
import { formatCredits } from './format.ts';
import { LotList } from './LotList.tsx';
import { useTenantBalance } from './useTenantBalance.ts';
import './credits.css';

const t = zhCN.credits;

/** The balance detail view opened from the profile popup: balance, held, lots, link to /usage. */
export function BalanceDetailDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  const bonus = useUserStore((s) => s.tenantBonus);
  const { data, loading, failed, reload } = useTenantBalance(open);
  const balance = data?.balance ?? planOf(bonus).credits;
  return (
    <Modal
      open={open}
      onCancel={onClose}
      footer={null}
      width={520}
      centered
      title={zhCN.dialogs.balanceTitle}
      className="vw-balance-modal"
    >
      <div data-testid="balance-detail">
        <div className="vw-balance-summary">
          <div className="vw-balance-main">
            <span className="vw-balance-label">{t.balance}</span>
            <strong data-testid="balance-amount">{formatCredits(balance)}</strong>
          </div>
          <div className="vw-balance-side" title={t.heldHint}>
            <span className="vw-balance-label">{t.held}</span>
            <span data-testid="balance-held">{formatCredits(data?.held ?? 0)}</span>
          </div>
        </div>
        <div className="vw-balance-section-title">{t.lots}</div>
        <div className="vw-balance-lots">
          {failed ? (
            <div className="vw-lots-empty">
              {t.loadFailed}
              <Button type="link" size="small" icon={<ReloadOutlined />} onClick={() => void reload()}>
                {t.retry}
              </Button>
            </div>
          ) : loading && !data ? (
            <Skeleton active paragraph={{ rows: 3 }} title={false} />
          ) : (
            <LotList lots={data?.lots ?? []} />
          )}
        </div>
        <Button
          type="link"
          className="vw-balance-usage-link"
          data-testid="balance-usage-link"
          onClick={() => {
            onClose();
            navigate('/usage');
          }}
        >
          {t.viewUsage} <ArrowRightOutlined />
        </Button>
      </div>
    </Modal>
  );
}
