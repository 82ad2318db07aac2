import { CloseOutlined } from '@ant-design/icons';
import useApp from 'antd/es/app/useApp';
import { useEffect } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { BrandMark } from '@/components/BrandMark.tsx';
import { HoverTipMount } from '@/components/HoverTip.tsx';
import { CHROME_TIP_DURATION_S, scheduleChromeTip } from '@/lib/browser.ts';
import { wireNotificationClicks } from '@/lib/notifications.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { useRouteMeta } from '@/routes/useRouteMeta.ts';
import { useUserStore } from '@/stores/user.ts';
import { GlobalMounts } from './GlobalMounts.tsx';

export function Splash() {
  return (
    <div className="vw-splash" role="status" aria-label={zhCN.app.loading}>
      <BrandMark size={44} />
      <div className="vw-splash-name">{zhCN.app.name}</div>
    </div>
  );
}

/** Wraps every route: stores route meta, titles, Chrome tip, notification clicks, global mounts. */
export function RootShell() {
  const routeMeta = useRouteMeta();
  const location = useLocation();
  const navigate = useNavigate();
  const { message } = useApp();

  // After each navigation the route meta is stored in the user state (spec §2).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs per navigation
  useEffect(() => {
    useUserStore.getState().setRouteMeta(routeMeta);
    document.title = routeMeta.title ? `${routeMeta.title} - ${zhCN.app.name}` : zhCN.app.name;
  }, [location.key, routeMeta]);

  useEffect(() => wireNotificationClicks((to) => navigate(to)), [navigate]);

  useEffect(
    () =>
      scheduleChromeTip(() => {
        const key = 'vw-chrome-tip';
        message.info({
          key,
          duration: CHROME_TIP_DURATION_S,
          content: (
            <span className="vw-closable-msg">
              {zhCN.app.chromeTip}
              <button type="button" aria-label={zhCN.app.close} onClick={() => message.destroy(key)}>
                <CloseOutlined />
              </button>
            </span>
          ),
        });
      }),
    [message],
  );

  return (
    <>
      <Outlet />
      <GlobalMounts />
      <HoverTipMount />
    </>
  );
}
