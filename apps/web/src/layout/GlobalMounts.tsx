import { lazy, Suspense, useEffect, useState } from 'react';
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
    </>
  );
}

/** Onboarding survey (first login) — the onboarding issue fills this. */
function SurveyMount() {
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
