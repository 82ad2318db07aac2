import { CrownFilled } from '@ant-design/icons';
import { Button, Popover } from 'antd';
import type { ReactNode } from 'react';
import { trackClick } from '@/lib/analytics.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { useDialogStore } from '@/stores/dialogs.ts';

/** The subscribe tip hides 200 ms after the pointer leaves (spec §9). */
export const SUBSCRIBE_TIP_HIDE_MS = 200;

/** Opens the subscription payment box from a premium feature and tracks the click (spec §2). */
export function openSubscribeFromTip(source: string) {
  trackClick('subscribe_tip', { source });
  useDialogStore.getState().openPayment({ mode: 'level_300' });
}

/** 需要订阅高级会员使用 + 去订阅, shown on hover over a premium feature. */
export function SubscribeTip({
  children,
  source,
  disabled,
}: {
  children: ReactNode;
  /** Where the tip was shown, for the tracked click. */
  source: string;
  disabled?: boolean;
}) {
  if (disabled) return <>{children}</>;
  return (
    <Popover
      mouseLeaveDelay={SUBSCRIBE_TIP_HIDE_MS / 1000}
      classNames={{ root: 'vw-subscribe-tip' }}
      content={
        <div className="vw-subscribe-tip-body" data-testid="subscribe-tip">
          <CrownFilled className="vw-subscribe-tip-icon" />
          <span>{zhCN.subscribeTip.text}</span>
          <Button
            size="small"
            type="primary"
            className="vw-subscribe-tip-btn"
            onClick={(e) => {
              e.stopPropagation();
              openSubscribeFromTip(source);
            }}
          >
            {zhCN.subscribeTip.action}
          </Button>
        </div>
      }
    >
      {children}
    </Popover>
  );
}
