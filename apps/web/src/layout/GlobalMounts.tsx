import { lazy, Suspense, useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { startHeartbeat, trackExposure } from '@/lib/analytics.ts';
import { registerNotificationWorker } from '@/lib/notifications.ts';
import { useDialogStore } from '@/stores/dialogs.ts';
import { useDownloadStore } from '@/stores/download.ts';

// Kept out of the first load: each mount fetches its code as soon as it first renders.
const Dialogs = lazy(() => import('./Dialogs.tsx'));
const OnboardingMount = lazy(() =>
  import('@/features/onboarding/OnboardingMount.tsx').then((m) => ({ default: m.OnboardingMount })),
);
const DownloadPanel = lazy(() =>
  import('@/features/downloads/DownloadPanel.tsx').then((m) => ({ default: m.DownloadPanel })),
);

/**
 * The always-present mounting points of spec §2: survey page, payment dialog (and the redeem and
 * balance-detail dialogs the profile popup opens), the download list panel and the startup services.
 * The subscribe tip is the SubscribeTip popover around each premium feature.
 */
export function GlobalMounts() {
  return (
    <>
      <Suspense fallback={null}>
        <OnboardingMount />
      </Suspense>
      <DialogMounts />
      <DownloadPanelMount />
      <AppServicesMount />
    </>
  );
}

/** The download list panel, loaded once there is a download to show. */
function DownloadPanelMount() {
  const used = useDownloadStore((s) => s.panelOpen || s.tasks.length > 0);
  if (!used) return null;
  return (
    <Suspense fallback={null}>
      <DownloadPanel />
    </Suspense>
  );
}

/** Startup services: notification worker, analytics heartbeat and page exposure (spec §2, §7). */
function AppServicesMount() {
  const { pathname } = useLocation();
  useEffect(() => {
    void registerNotificationWorker();
    return startHeartbeat();
  }, []);
  useEffect(() => trackExposure(pathname), [pathname]);
  return null;
}

/** Payment, redeem and balance-detail dialogs: their code loads the first time one opens. */
function DialogMounts() {
  const anyOpen = useDialogStore((s) => s.payment !== null || s.redeemOpen || s.balanceDetailOpen);
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    if (anyOpen) setLoaded(true);
  }, [anyOpen]);
  if (!loaded && !anyOpen) return null;
  return (
    <Suspense fallback={null}>
      <Dialogs />
    </Suspense>
  );
}
