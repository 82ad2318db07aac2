import useApp from 'antd/es/app/useApp';
import { useEffect } from 'react';
import { creditShortageOf, handleCreditShortage } from '@/lib/creditShortage.ts';
import { http } from '@/lib/http/client.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { openCreditTopUp, openUpgrade } from '@/stores/dialogs.ts';

const CREDIT_KEY = 'vw-credit-prompt';

/** Connects the HTTP client's general error handling (spec §8) to antd's message API. */
export function FeedbackBridge() {
  const { message } = useApp();
  useEffect(() => {
    const d = zhCN.dialogs;
    /** The insufficient-credits prompt with its top-up and upgrade links (one at a time). */
    const showCreditPrompt = (level: 'warning' | 'error', lead?: string) => {
      const open = (fn: () => void) => () => {
        message.destroy(CREDIT_KEY);
        fn();
      };
      message[level]({
        key: CREDIT_KEY,
        duration: 6,
        content: (
          <span className="vw-credit-prompt" data-testid="credit-prompt" data-level={level}>
            {lead && <strong className="vw-credit-prompt-lead">{lead}</strong>}
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
    };
    http.hooks.onError = (display) => {
      if (display.kind === 'credit') {
        showCreditPrompt('warning');
        return;
      }
      // The same text only once at a time: no toast storms when several calls fail together.
      message.error({ key: display.text, content: display.text });
    };
    // Spec §4, credits: refetch the tenant bonus; plan credits exhausted → upload leavable + error.
    http.hooks.onCreditShortage = (error) => {
      void handleCreditShortage(
        (lead) => showCreditPrompt('error', lead),
        undefined,
        creditShortageOf(error.data),
      );
    };
    return () => {
      http.hooks.onError = undefined;
      http.hooks.onCreditShortage = undefined;
    };
  }, [message]);
  return null;
}
