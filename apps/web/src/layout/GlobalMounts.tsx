import { Button, Modal, Result } from 'antd';
import { zhCN } from '@/locales/zh-CN.ts';
import { useDialogStore } from '@/stores/dialogs.ts';

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
      <PaymentDialogMount />
      <RedeemDialogMount />
      <BalanceDetailMount />
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

function PaymentDialogMount() {
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

function RedeemDialogMount() {
  const open = useDialogStore((s) => s.redeemOpen);
  const close = useDialogStore((s) => s.closeRedeem);
  const d = zhCN.dialogs;
  return (
    <Modal open={open} onCancel={close} footer={null} width={480} title={d.redeemTitle} keyboard={false} maskClosable={false}>
      <Unavailable title={d.redeemUnavailable} text={d.redeemUnavailableDesc} onClose={close} />
    </Modal>
  );
}

function BalanceDetailMount() {
  const open = useDialogStore((s) => s.balanceDetailOpen);
  const close = useDialogStore((s) => s.closeBalanceDetail);
  const d = zhCN.dialogs;
  return (
    <Modal open={open} onCancel={close} footer={null} width={520} title={d.balanceTitle}>
      <Unavailable title={d.balanceUnavailable} text={d.balanceUnavailableDesc} onClose={close} />
    </Modal>
  );
}
