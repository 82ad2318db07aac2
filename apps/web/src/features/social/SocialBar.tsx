import { WechatOutlined } from '@ant-design/icons';
import { useEffect, useState } from 'react';
import { HoverTip } from '@/components/HoverTip.tsx';
import { Popover } from '@/components/ui/Popover.tsx';
import { trackLinkClick } from '@/lib/analytics.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { NotificationBell } from './NotificationBell.tsx';
import './social.css';

const t = zhCN.social;

/** Where the links lead; operators set their own accounts at build time (README). */
export const SOCIAL_LINKS = {
  wechatQrText: import.meta.env.VITE_WECHAT_QR_TEXT || 'https://weixin.qq.com/',
  xiaohongshu: import.meta.env.VITE_XIAOHONGSHU_URL || 'https://www.xiaohongshu.com/',
  bilibili: import.meta.env.VITE_BILIBILI_URL || 'https://www.bilibili.com/',
};

function WechatQr() {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    // The QR encoder loads with the first hover.
    import('@/lib/qrcode.ts')
      .then((m) => m.qrDataUrl(SOCIAL_LINKS.wechatQrText, { width: 160 }))
      .then(setSrc, () => setSrc(null));
  }, []);
  return (
    <div className="vw-social-qr" data-testid="wechat-qr">
      {src ? (
        <img src={src} width={160} height={160} alt={t.wechat} />
      ) : (
        <div className="vw-social-qr-empty" />
      )}
      <div>{t.wechatCaption}</div>
    </div>
  );
}

function XiaohongshuIcon() {
  return (
    <svg viewBox="0 0 24 24" width="1em" height="1em" aria-hidden="true">
      <rect width="24" height="24" rx="6" fill="currentColor" />
      <text x="12" y="16" fontSize="9" fontWeight="700" fill="#fff" textAnchor="middle">
        RED
      </text>
    </svg>
  );
}

function BilibiliIcon() {
  return (
    <svg viewBox="0 0 24 24" width="1em" height="1em" aria-hidden="true">
      <path d="M7 3l3 3h4l3-3" stroke="currentColor" strokeWidth="1.8" fill="none" strokeLinecap="round" />
      <rect
        x="2.5"
        y="6"
        width="19"
        height="14"
        rx="3.5"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
      />
      <circle cx="9" cy="13" r="1.3" fill="currentColor" />
      <circle cx="15" cy="13" r="1.3" fill="currentColor" />
    </svg>
  );
}

/** The social-link bar of spec §2 (WeChat QR on hover, Xiaohongshu, Bilibili) and the notification bell. */
export function SocialBar() {
  return (
    <div className="vw-social" data-testid="social-bar">
      {/* The WeChat icon only shows the QR; a click does nothing else. */}
      <Popover content={<WechatQr />} trigger="hover" placement="top">
        <button
          type="button"
          className="vw-social-link is-wechat"
          aria-label={t.wechat}
          data-testid="social-wechat"
          onClick={() => trackLinkClick('wechat_click')}
        >
          <WechatOutlined />
        </button>
      </Popover>
      <HoverTip title={t.xiaohongshu}>
        <a
          href={SOCIAL_LINKS.xiaohongshu}
          target="_blank"
          rel="noopener noreferrer"
          className="vw-social-link is-xhs"
          aria-label={t.xiaohongshu}
          data-testid="social-xiaohongshu"
          onClick={() => trackLinkClick('xiaohongshu_click')}
        >
          <XiaohongshuIcon />
        </a>
      </HoverTip>
      <HoverTip title={t.bilibili}>
        <a
          href={SOCIAL_LINKS.bilibili}
          target="_blank"
          rel="noopener noreferrer"
          className="vw-social-link is-bili"
          aria-label={t.bilibili}
          data-testid="social-bilibili"
          onClick={() => trackLinkClick('bilibiil_click')}
        >
          <BilibiliIcon />
        </a>
      </HoverTip>
      <NotificationBell />
    </div>
  );
}
