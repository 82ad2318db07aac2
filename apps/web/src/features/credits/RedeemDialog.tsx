import { CheckCircleFilled, GiftFilled } from '@ant-design/icons';
import type { RedeemResult } from '@vw/contract';
import { formatDate } from '@vw/contract/helpers/time.ts';
import { App, Button, Input, Modal } from 'antd';
import { useRef, useState } from 'react';
import { api } from '@/lib/api.ts';
import { loadTenantBonus } from '@/lib/auth/session.ts';
import { REDEEM_CODE_LENGTH } from '@/lib/credits.ts';
import { request } from '@/lib/http/client.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { isRedeemCodeComplete, redeemFailure, sanitizeRedeemCode } from './redeem.ts';
import './credits.css';

const t = zhCN.redeem;

interface Props {
  open: boolean;
  onClose: () => void;
}

/**
 * The redeem dialog 兑换会员 (spec §2, §4, §5, §8): input → submitting → success or error.
 * Closable only by its close icon; closing resets everything (a late answer is ignored).
 */
export function RedeemDialog({ open, onClose }: Props) {
  const { message } = App.useApp();
  const [code, setCode] = useState('');
  const [error, setError] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [result, setResult] = useState<RedeemResult | null>(null);
  /** The attempt in flight (a second submit meanwhile is ignored); bumped on close. */
  const inFlight = useRef(false);
  const generation = useRef(0);

  const reset = () => {
    generation.current++;
    inFlight.current = false;
    setCode('');
    setError('');
    setSubmitting(false);
    setResult(null);
  };
  const close = () => {
    reset();
    onClose();
  };

  const submit = async () => {
    if (!code || !isRedeemCodeComplete(code) || inFlight.current) return;
    inFlight.current = true;
    const gen = generation.current;
    setSubmitting(true);
    try {
      const data = await request(api.useRedeemCode, { body: { code } }, { suppressError: true });
      if (gen !== generation.current) return;
      setResult(data);
      void loadTenantBonus();
    } catch (e) {
      if (gen !== generation.current) return;
      const failure = redeemFailure(e);
      if (failure.where === 'inline') setError(failure.text);
      else message.error({ key: 'vw-redeem', content: failure.text });
    } finally {
      if (gen === generation.current) {
        inFlight.current = false;
        setSubmitting(false);
      }
    }
  };

  return (
    <Modal
      open={open}
      onCancel={close}
      footer={null}
      width={440}
      centered
      title={result ? null : t.title}
      keyboard={false}
      maskClosable={false}
      closable={{ 'aria-label': t.close }}
      className="vw-redeem-modal"
      destroyOnHidden
    >
      {result ? (
        <div className="vw-redeem-success" data-testid="redeem-success">
          <div className="vw-redeem-success-icon">
            <CheckCircleFilled />
          </div>
          <h3>{t.successTitle}</h3>
          <div className="vw-redeem-package" data-testid="redeem-package">
            {t.packageName(result.package_name)}
          </div>
          <div className="vw-redeem-expiry" data-testid="redeem-expiry">
            {t.expiry(formatDate(result.expire_time))}
          </div>
          <Button type="primary" size="large" block onClick={close} data-testid="redeem-start">
            {t.start}
          </Button>
        </div>
      ) : (
        <form
          className="vw-redeem-form"
          data-testid="redeem-dialog"
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <div className="vw-redeem-hero">
            <GiftFilled />
          </div>
          <p className="vw-redeem-desc">{t.desc}</p>
          <Input
            size="large"
            value={code}
            placeholder={t.placeholder}
            status={error ? 'error' : undefined}
            autoComplete="off"
            spellCheck={false}
            className="vw-redeem-input"
            data-testid="redeem-input"
            suffix={
              <span className="vw-redeem-count">
                {code.length}/{REDEEM_CODE_LENGTH}
              </span>
            }
            onChange={(e) => {
              setCode(sanitizeRedeemCode(e.target.value));
              setError('');
            }}
          />
          <div className="vw-redeem-error" role="alert" data-testid="redeem-error">
            {error}
          </div>
          <Button
            type="primary"
            size="large"
            block
            htmlType="submit"
            loading={submitting}
            disabled={!isRedeemCodeComplete(code)}
            data-testid="redeem-submit"
          >
            {t.submit}
          </Button>
        </form>
      )}
    </Modal>
  );
}
