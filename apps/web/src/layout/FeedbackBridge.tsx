import { App } from 'antd';
import { useEffect } from 'react';
import { loadTenantBonus } from '@/lib/auth/session.ts';
import { http } from '@/lib/http/client.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { openCreditTopUp, openUpgrade } from '@/stores/dialogs.ts';

const CREDIT_KEY = 'vw-credit-prompt';

/** Connects the HTTP client's general error handling (spec §8) to antd's message API. */
export function FeedbackBridge() {
  const { message } = App.useApp();
  useEffect(() => {
    http.hooks.onError = (display) => {
      if (display.kind === 'credit') {
        const d = zhCN.dialogs;
        const open = (fn: () => void) => () => {
          message.destroy(CREDIT_KEY);
          fn();
        };
        message.warning({
          key: CREDIT_KEY,
          duration: 6,
          content: (
            <span className="vw-credit-prompt" data-testid="credit-prompt">
              {d.creditPromptBefore}
              <button type="button" className="vw-link-btn" onClick={open(openCreditTopUp)}>
                {d.creditPromptTopUp}
              </button>
              /
              <button type="button" className="vw-link-btn" onClick={open(openUpgrade)}>
                {d.creditPromptUpgrade}
              </button>
            </span>
          ),
        });
        // A credit shortage means the balance shown is stale (spec §4, credits).
        void loadTenantBonus();
        return;
      }
      // The same text only once at a time: no toast storms when several calls fail together.
      message.error({ key: display.text, content: display.text });
    };
    return () => {
      http.hooks.onError = undefined;
    };
  }, [message]);
  return null;
}
