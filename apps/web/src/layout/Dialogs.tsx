/**
 * The dialogs the profile popup and the pages open, loaded only when one is first opened:
 * payment, redeem and balance detail.
 */
import { BalanceDetailDialog } from '@/features/credits/BalanceDetailDialog.tsx';
import { RedeemDialog } from '@/features/credits/RedeemDialog.tsx';
import PaymentDialogMount from '@/features/payment/PaymentDialog.tsx';
import { useDialogStore } from '@/stores/dialogs.ts';

export function RedeemDialogMount() {
  const open = useDialogStore((s) => s.redeemOpen);
  const close = useDialogStore((s) => s.closeRedeem);
  return <RedeemDialog open={open} onClose={close} />;
}

export function BalanceDetailMount() {
  const open = useDialogStore((s) => s.balanceDetailOpen);
  const close = useDialogStore((s) => s.closeBalanceDetail);
  return <BalanceDetailDialog open={open} onClose={close} />;
}

export default function Dialogs() {
  return (
    <>
      <PaymentDialogMount />
      <RedeemDialogMount />
      <BalanceDetailMount />
    </>
  );
}
