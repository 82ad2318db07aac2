/**
 * The dialogs the profile popup and the pages open, loaded only when one is first opened: redeem
 * and balance detail (issue 4) and the payment dialog, still an honest placeholder until the
 * payments issue builds it.
 */
import { Button, Modal, Result } from 'antd';
import { BalanceDetailDialog } from '@/features/credits/BalanceDetailDialog.tsx';
import { RedeemDialog } from '@/features/credits/RedeemDialog.tsx';
import { zhCN } from '@/locales/zh-CN.ts';
import { useDialogStore } from '@/stores/dialogs.ts';

/** An honest placeholder for a dialog a later issue builds. */
function Unavailable({ title, text, onClose }: { title: string; text: string; onClose: () => void }) {
  return (
    <Result
      status="info"
      title={title}
      subTitle={text}
      extra={
        <Button type="primary" onClick={onClose}>
          {zhCN.dialogs.gotIt}
        </Button>
      }
    />
  );
}

export function PaymentDialogMount() {
  const payment = useDialogStore((s) => s.payment);
  const close = useDialogStore((s) => s.closePayment);
  const d = zhCN.dialogs;
  return (
    <Modal
      open={payment !== null}
      onCancel={close}
      footer={null}
      width={520}
      title={payment?.mode === 'credit' ? d.paymentTitleCredit : d.paymentTitleSubscription}
      destroyOnHidden
    >
      <Unavailable title={d.paymentUnavailable} text={d.paymentUnavailableDesc} onClose={close} />
    </Modal>
  );
}

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

export default function PlaceholderDialogs() {
  return (
    <>
      <PaymentDialogMount />
      <RedeemDialogMount />
      <BalanceDetailMount />
    </>
  );
}
