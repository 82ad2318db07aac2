import { lazy, Suspense, useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { DownloadPanel } from '@/features/downloads/DownloadPanel.tsx';
import { OnboardingMount } from '@/features/onboarding/OnboardingMount.tsx';
import { startHeartbeat, trackExposure } from '@/lib/analytics.ts';
import { registerNotificationWorker } from '@/lib/notifications.ts';
import { useDialogStore } from '@/stores/dialogs.ts';

const Dialogs = lazy(() => import('./Dialogs.tsx'));

/**
 * The always-present mounting points of spec §2: survey page, subscribe tip, payment dialog
 * (and the redeem and balance-detail dialogs the profile popup opens). Their real behaviour
 * comes with later issues; until then the dialogs say honestly that the feature is not enabled.
 */
export function GlobalMounts() {
  return (
    <>
      <SurveyMount />
      <SubscribeTipMount />
      <DialogMounts />
      <DownloadPanel />
      <AppServicesMount />
    </>
  );
}

/** Onboarding: survey (first login), reward dialog, video-translation preview. */
function SurveyMount() {
  return <OnboardingMount />;
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

/** Subscribe tip popover host — the payment issue fills this. */
function SubscribeTipMount() {
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
