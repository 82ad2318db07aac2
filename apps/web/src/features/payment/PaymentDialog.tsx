import {
  AlipayCircleFilled,
  CheckCircleFilled,
  CheckOutlined,
  ReloadOutlined,
  WechatFilled,
} from '@ant-design/icons';
import type { Product } from '@vw/contract';
import {
  PAY_QR_WIDTH,
  type PayChannel,
  ProductType,
  payChannelNames,
} from '@vw/contract/constants/payments.ts';
import { clientMessages } from '@vw/contract/errors.ts';
import { deriveProductPricing, monthlyPrice } from '@vw/contract/helpers/products.ts';
import { Alert, App, Button, Checkbox, Modal, Segmented, Spin, Tabs, Tooltip } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { api } from '@/lib/api.ts';
import { loadProducts, loadTenantBonus, loadVoices } from '@/lib/auth/session.ts';
import { request } from '@/lib/http/client.ts';
import { qrDataUrl } from '@/lib/qrcode.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { useCatalogueStore } from '@/stores/data.ts';
import { type PaymentOpenMode, useDialogStore } from '@/stores/dialogs.ts';
import { useUserStore } from '@/stores/user.ts';
import { type OrderOutcome, OrderSession, type OrderView } from './orderSession.ts';
import {
  type Buyer,
  buyerOf,
  createFailedMessage,
  creditProducts,
  defaultSelectionFor,
  disabledReason,
  memberProducts,
  openingFor,
  PaymentDialogType,
  type PaymentTab,
  showTopLevelTip,
} from './paymentRules.ts';
import './payment.css';

const t = zhCN.payment;
/** How long 支付成功 stays on screen before the dialog closes. */
const SUCCESS_LINGER_MS = 1500;

const formatPrice = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));
const mmss = (s: number) =>
  `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;

function ProductCard({
  product,
  selected,
  reason,
  onSelect,
}: {
  product: Product;
  selected: boolean;
  reason: string | null;
  onSelect: () => void;
}) {
  const pricing = deriveProductPricing(product);
  if (!pricing) return null;
  const member = product.product_type === ProductType.Member;
  const annual = product.is_annual === 1;
  const shown = member ? monthlyPrice(pricing.price, annual) : pricing.price;
  const original =
    pricing.originalPrice === null
      ? null
      : member
        ? monthlyPrice(pricing.originalPrice, annual)
        : pricing.originalPrice;
  const card = (
    <button
      type="button"
      className={`vw-pay-product ${selected ? 'is-selected' : ''} ${reason ? 'is-disabled' : ''}`}
      data-testid="pay-product"
      data-product-id={product.product_id}
      aria-pressed={selected}
      aria-disabled={Boolean(reason)}
      onClick={() => !reason && onSelect()}
    >
      {pricing.desc.tags[0] && <span className="vw-pay-product-tag">{pricing.desc.tags[0]}</span>}
      <div className="vw-pay-product-title">
        {member ? product.title : `${product.recharge_credit.toLocaleString('zh-CN')} ${t.creditsUnit}`}
      </div>
      <div className="vw-pay-product-price">
        <span className="vw-pay-symbol">{pricing.paySymbol}</span>
        <span className="vw-pay-amount">{formatPrice(shown)}</span>
        {member && <span className="vw-pay-unit">{t.perMonth}</span>}
        {original !== null && (
          <del className="vw-pay-original">
            {pricing.paySymbol}
            {formatPrice(original)}
          </del>
        )}
      </div>
      <div className="vw-pay-product-sub">
        {member
          ? annual
            ? t.annualTotal(pricing.paySymbol, formatPrice(pricing.price))
            : t.monthlyBilling
          : t.creditValidity}
      </div>
      {selected && <CheckCircleFilled className="vw-pay-product-check" />}
    </button>
  );
  return reason ? (
    <Tooltip title={reason} key={product.product_id}>
      {card}
    </Tooltip>
  ) : (
    card
  );
}

function QrArea({
  view,
  channel,
  agreed,
  hasSelection,
  onRefresh,
}: {
  view: OrderView;
  channel: PayChannel;
  agreed: boolean;
  hasSelection: boolean;
  onRefresh: () => void;
}) {
  const [image, setImage] = useState('');
  const codeUrl = view.phase === 'qr' || view.phase === 'expired' ? view.order.code_url : '';
  useEffect(() => {
    let live = true;
    setImage('');
    if (codeUrl) {
      void qrDataUrl(codeUrl, { width: PAY_QR_WIDTH, margin: 0 }).then((url) => live && setImage(url));
    }
    return () => {
      live = false;
    };
  }, [codeUrl]);

  let body: React.ReactNode;
  if (!hasSelection) body = <div className="vw-pay-qr-note">{t.choose}</div>;
  else if (!agreed)
    body = (
      <div className="vw-pay-qr-note" data-testid="pay-agree-first">
        {clientMessages.agreementRequired}
      </div>
    );
  else if (view.phase === 'loading' || view.phase === 'idle' || !image) body = <Spin />;
  else {
    const sandbox = codeUrl.includes('/pay/sandbox/');
    const img = (
      <img
        src={image}
        width={PAY_QR_WIDTH}
        height={PAY_QR_WIDTH}
        alt={t.qrAlt}
        data-testid="pay-qr"
        data-code-url={codeUrl}
      />
    );
    body = (
      <>
        {sandbox ? (
          <a href={codeUrl} target="_blank" rel="noreferrer" title={t.sandboxHint}>
            {img}
          </a>
        ) : (
          img
        )}
        {view.phase === 'qr' && view.overlay && (
          <div className="vw-pay-qr-overlay">
            <Spin />
          </div>
        )}
        {view.phase === 'expired' && (
          <button
            type="button"
            className="vw-pay-qr-overlay is-expired"
            onClick={onRefresh}
            data-testid="pay-qr-expired"
          >
            <ReloadOutlined />
            <span>{clientMessages.qrExpired}</span>
          </button>
        )}
      </>
    );
  }
  return (
    <div className="vw-pay-qr-wrap">
      <div className="vw-pay-qr">{body}</div>
      <div className="vw-pay-qr-caption">
        {view.phase === 'qr' ? (
          <>
            <div>{t.scanWith(payChannelNames[channel])}</div>
            <div className="vw-pay-countdown" data-testid="pay-countdown">
              {t.validFor(mmss(view.secondsLeft))}
            </div>
          </>
        ) : (
          <div>{t.scanWith(payChannelNames[channel])}</div>
        )}
      </div>
    </div>
  );
}

/** The products: member or credit tab, the buyer's notices, the cards and what the selection includes. */
function ProductsColumn({
  tab,
  multi,
  buyer,
  topLevel,
  list,
  selected,
  features,
  onSwitchTab,
  onSelect,
}: {
  tab: PaymentTab;
  multi: boolean;
  buyer: Buyer;
  topLevel: boolean;
  list: Product[];
  selected: Product | null;
  features: string[];
  onSwitchTab: (tab: PaymentTab) => void;
  onSelect: (product: Product) => void;
}) {
  return (
    <div className="vw-pay-products">
      {multi && (
        <Tabs
          activeKey={String(tab)}
          onChange={(k) => onSwitchTab(Number(k) as PaymentTab)}
          items={[
            { key: String(ProductType.Member), label: t.tabMember },
            { key: String(ProductType.Credit), label: t.tabCredit },
          ]}
        />
      )}
      {tab === ProductType.Member && topLevel && multi && (
        <Alert
          type="info"
          showIcon
          className="vw-pay-alert"
          message={clientMessages.topPlanAlready}
          data-testid="pay-top-level"
        />
      )}
      {tab === ProductType.Credit && !buyer.hasMembership && (
        <Alert
          type="warning"
          showIcon
          className="vw-pay-alert"
          data-testid="pay-needs-membership"
          message={clientMessages.creditNeedsMembership}
          action={
            <Button size="small" type="link" onClick={() => onSwitchTab(ProductType.Member)}>
              {t.toUpgrade}
            </Button>
          }
        />
      )}
      <div className={`vw-pay-grid ${tab === ProductType.Credit ? 'is-credit' : ''}`}>
        {list.map((p) => (
          <ProductCard
            key={p.product_id}
            product={p}
            selected={selected?.product_id === p.product_id}
            reason={disabledReason(p, buyer)}
            onSelect={() => onSelect(p)}
          />
        ))}
      </div>
      {features.length > 0 && (
        <div className="vw-pay-features">
          <div className="vw-pay-features-title">{t.features}</div>
          <ul>
            {features.map((f) => (
              <li key={f}>
                <CheckOutlined /> {f}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

/** The amount, the channel, the QR code and the agreement. */
function PayPanel({
  amount,
  channel,
  onChannel,
  view,
  agreed,
  onAgreed,
  hasSelection,
  onRefresh,
}: {
  amount: string;
  channel: PayChannel;
  onChannel: (channel: PayChannel) => void;
  view: OrderView;
  agreed: boolean;
  onAgreed: (agreed: boolean) => void;
  hasSelection: boolean;
  onRefresh: () => void;
}) {
  return (
    <div className="vw-pay-panel">
      <div className="vw-pay-payable">
        <span>{t.payable}</span>
        <strong data-testid="pay-amount">{amount}</strong>
      </div>
      <Segmented<PayChannel>
        block
        value={channel}
        onChange={onChannel}
        options={[
          {
            value: 'WECHAT',
            label: payChannelNames.WECHAT,
            icon: <WechatFilled style={{ color: '#07c160' }} />,
          },
          {
            value: 'ALIPAY',
            label: payChannelNames.ALIPAY,
            icon: <AlipayCircleFilled style={{ color: '#1677ff' }} />,
          },
        ]}
      />
      <QrArea
        view={view}
        channel={channel}
        agreed={agreed}
        hasSelection={hasSelection}
        onRefresh={onRefresh}
      />
      <Checkbox checked={agreed} onChange={(e) => onAgreed(e.target.checked)} data-testid="pay-agree">
        {t.agreementPrefix}
        <a
          href="/workbench/subscribe-agreement"
          target="_blank"
          rel="noreferrer"
          onClick={(e) => e.stopPropagation()}
        >
          {t.agreement}
        </a>
      </Checkbox>
    </div>
  );
}

/** One order session for the dialog's life: it creates orders, polls them and reports the outcome. */
function useOrderSession(onOutcome: (outcome: OrderOutcome) => void) {
  const [view, setView] = useState<OrderView>({ phase: 'idle' });
  const onOutcomeRef = useRef(onOutcome);
  onOutcomeRef.current = onOutcome;
  const session = useMemo(
    () =>
      new OrderSession(
        {
          create: (productId, payChannel) =>
            request(
              api.createOrder,
              {
                body: { pay_channel: payChannel, product_id: productId, country_code: 'CN', return_url: '' },
              },
              { suppressError: true },
            ),
          status: async (orderId) =>
            (await request(api.getOrder, { query: { buss_orderid: orderId } }, { suppressError: true }))
              .order_info.status,
        },
        { onView: setView, onOutcome: (o) => onOutcomeRef.current(o) },
      ),
    [],
  );
  useEffect(() => () => session.reset(), [session]);
  return { session, view };
}

/** What the user now has: the order is paid only together with its plan or credits. */
function paidText(selected: Product | null) {
  if (!selected) return clientMessages.paymentSuccess;
  return selected.product_type === ProductType.Credit
    ? t.paidCredits(selected.recharge_credit)
    : t.paidMember(selected.title);
}

/** The payment dialog (spec §2, §4, §5, §8): products, channel, agreement, QR and the order's life. */
export function PaymentDialog({ mode, onClose }: { mode: PaymentOpenMode | null; onClose: () => void }) {
  const { message } = App.useApp();
  const products = useCatalogueStore((s) => s.products);
  const bonus = useUserStore((s) => s.tenantBonus);
  const buyer = useMemo(() => buyerOf(bonus, products), [bonus, products]);
  const [tab, setTab] = useState<PaymentTab>(ProductType.Member);
  const [type, setType] = useState<number>(PaymentDialogType.Multi);
  const [fixed, setFixed] = useState<Product | null>(null);
  const [selected, setSelected] = useState<Product | null>(null);
  const [channel, setChannel] = useState<PayChannel>('WECHAT');
  const [agreed, setAgreed] = useState(false);
  /** What the payment did (set when the order is paid: it is fulfilled in the same transaction). */
  const [paid, setPaid] = useState<string | null>(null);
  const openedFor = useRef<PaymentOpenMode | null>(null);
  // A tab the user picked before the products (and so the opening) arrived wins over the opening's.
  const pickedTab = useRef<PaymentTab | null>(null);

  const close = () => {
    session.reset();
    setChannel('WECHAT');
    setAgreed(false);
    setSelected(null);
    setPaid(null);
    openedFor.current = null;
    pickedTab.current = null;
    onClose();
  };
  const closeRef = useRef(close);
  closeRef.current = close;

  const onOutcome = (outcome: OrderOutcome) => {
    switch (outcome.kind) {
      case 'success': {
        const done = paidText(selected);
        message.success(done);
        setPaid(done);
        void loadTenantBonus();
        void loadVoices();
        setTimeout(() => closeRef.current(), SUCCESS_LINGER_MS);
        return;
      }
      case 'failure':
        message.error(clientMessages.paymentFailed);
        closeRef.current();
        return;
      case 'duplicate':
        message.warning(clientMessages.paymentDuplicate);
        closeRef.current();
        return;
      case 'create_failed': {
        message.error(createFailedMessage(outcome.error));
        closeRef.current();
      }
    }
  };
  const { session, view } = useOrderSession(onOutcome);

  // Opening: the mode decides type, tab and selection (products are fetched if startup missed them).
  useEffect(() => {
    if (!mode) return;
    if (products.length === 0) {
      void loadProducts();
      return;
    }
    if (openedFor.current === mode) return;
    openedFor.current = mode;
    const opening = openingFor(mode, products, buyer);
    setType(opening.type);
    setFixed(opening.fixed);
    if (pickedTab.current === null || opening.type === PaymentDialogType.Single) {
      setTab(opening.tab);
      setSelected(opening.selected);
    } else {
      setSelected(defaultSelectionFor(pickedTab.current, products, buyer));
    }
  }, [mode, products, buyer]);

  // An order is requested whenever a product is chosen with the agreement ticked.
  useEffect(() => {
    if (!mode || paid) return;
    if (selected && agreed) session.request(selected.product_id, channel);
    else session.clear();
  }, [mode, selected, agreed, channel, session, paid]);

  const switchTab = (next: PaymentTab) => {
    pickedTab.current = next;
    setTab(next);
    setSelected(defaultSelectionFor(next, products, buyer));
  };

  const members = memberProducts(products);
  const packs = creditProducts(products);
  const topLevel = showTopLevelTip(products, buyer);
  const list =
    type === PaymentDialogType.Single ? (fixed ? [fixed] : []) : tab === ProductType.Member ? members : packs;
  const pricing = selected ? deriveProductPricing(selected) : null;
  const features =
    selected?.product_type === ProductType.Credit || (!selected && tab === ProductType.Credit)
      ? t.creditFeatures
      : (pricing?.desc.desList ?? []);

  const title =
    mode?.mode === 'credit' ? zhCN.dialogs.paymentTitleCredit : zhCN.dialogs.paymentTitleSubscription;

  return (
    <Modal
      open={mode !== null}
      onCancel={close}
      footer={null}
      width={880}
      title={type === PaymentDialogType.Single && fixed ? fixed.title : title}
      destroyOnHidden
      className="vw-pay-dialog"
    >
      {paid ? (
        <div className="vw-pay-success" data-testid="pay-success">
          <CheckCircleFilled className="vw-pay-success-icon" />
          <div>{paid}</div>
        </div>
      ) : (
        <div className="vw-pay-body" data-testid="payment-dialog">
          <ProductsColumn
            tab={tab}
            multi={type === PaymentDialogType.Multi}
            buyer={buyer}
            topLevel={topLevel}
            list={list}
            selected={selected}
            features={features}
            onSwitchTab={switchTab}
            onSelect={setSelected}
          />
          <PayPanel
            amount={pricing ? `${pricing.paySymbol}${formatPrice(pricing.price)}` : '—'}
            channel={channel}
            onChannel={setChannel}
            view={view}
            agreed={agreed}
            onAgreed={setAgreed}
            hasSelection={selected !== null}
            onRefresh={() => selected && session.request(selected.product_id, channel)}
          />
        </div>
      )}
    </Modal>
  );
}

export default function PaymentDialogMount() {
  const mode = useDialogStore((s) => s.payment);
  const close = useDialogStore((s) => s.closePayment);
  return <PaymentDialog mode={mode} onClose={close} />;
}
