import type { VerificationScene } from '@vw/contract';
import { Button } from 'antd';
import useApp from 'antd/es/app/useApp';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '@/lib/api.ts';
import { request } from '@/lib/http/client.ts';
import { errorText } from '@/lib/http/errors.ts';
import { zhCN } from '@/locales/zh-CN.ts';

export const RESEND_SECONDS = 60;

/** A seconds countdown that ticks once a second until zero. */
export function useCountdown() {
  const [left, setLeft] = useState(0);
  const timer = useRef<ReturnType<typeof setInterval> | null>(null);
  const stop = useCallback(() => {
    if (timer.current) clearInterval(timer.current);
    timer.current = null;
  }, []);
  useEffect(() => stop, [stop]);
  const start = (seconds: number) => {
    stop();
    setLeft(seconds);
    timer.current = setInterval(() => {
      setLeft((s) => {
        if (s <= 1) {
          stop();
          return 0;
        }
        return s - 1;
      });
    }, 1000);
  };
  return { left, start };
}

interface Props {
  scene: VerificationScene;
  /** Validates and returns the account to send to, or null (the caller shows the field error). */
  getAccount: () => Promise<string | null>;
  /** Shows a send failure inline (next to the account or code field). */
  onError: (text: string) => void;
  onSent?: () => void;
  block?: boolean;
  size?: 'large' | 'middle';
}

/** 获取验证码 with a 60 s countdown and resend (spec: login, bind, reset, cancel). */
export function SendCodeButton({ scene, getAccount, onError, onSent, block, size }: Props) {
  const { left, start } = useCountdown();
  const [sending, setSending] = useState(false);
  const [sentOnce, setSentOnce] = useState(false);
  const { message } = useApp();
  const t = zhCN.login;

  const send = async () => {
    const account = await getAccount();
    if (!account) return;
    setSending(true);
    try {
      const data = await request(
        api.sendVerificationCode,
        { body: { account, scene } },
        { suppressError: true },
      );
      setSentOnce(true);
      start(data.resend_after > 0 ? data.resend_after : RESEND_SECONDS);
      message.success(t.codeSent);
      onSent?.();
    } catch (e) {
      onError(errorText(e));
    } finally {
      setSending(false);
    }
  };

  return (
    <Button
      onClick={send}
      loading={sending}
      disabled={left > 0}
      block={block}
      size={size}
      className="vw-code-btn"
      data-testid="send-code"
    >
      {left > 0 ? t.countdown(left) : sentOnce ? t.resend : t.sendCode}
    </Button>
  );
}
