import { Button, Modal, Result } from 'antd';
import { zhCN } from '@/locales/zh-CN.ts';
import { useDialogStore } from '@/stores/dialogs.ts';

/** Honest placeholders for dialogs later issues build; loaded only when one is opened. */
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
  const d = zhCN.dialogs;
  return (
    <Modal
      open={open}
      onCancel={close}
      footer={null}
      width={480}
      title={d.redeemTitle}
      keyboard={false}
      maskClosable={false}
    >
      <Unavailable title={d.redeemUnavailable} text={d.redeemUnavailableDesc} onClose={close} />
    </Modal>
  );
}

export function BalanceDetailMount() {
  const open = useDialogStore((s) => s.balanceDetailOpen);
  const close = useDialogStore((s) => s.closeBalanceDetail);
  const d = zhCN.dialogs;
  return (
    <Modal open={open} onCancel={close} footer={null} width={520} title={d.balanceTitle}>
      <Unavailable title={d.balanceUnavailable} text={d.balanceUnavailableDesc} onClose={close} />
    </Modal>
  );
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
