import { CheckCircleFilled, LockOutlined, SafetyCertificateOutlined, UserOutlined } from '@ant-design/icons';
import { Alert, Button, Checkbox, Form, Input, Space, Tabs } from 'antd';
import useApp from 'antd/es/app/useApp';
import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { BrandMark } from '@/components/BrandMark.tsx';
import { SendCodeButton } from '@/components/SendCodeButton.tsx';
import { trackSignUp } from '@/lib/analytics.ts';
import { api } from '@/lib/api.ts';
import { completeSignIn } from '@/lib/auth/session.ts';
import { request } from '@/lib/http/client.ts';
import { errorText, isApiError } from '@/lib/http/errors.ts';
import { fieldOfError, isAccount, isCode, isStrongPassword } from '@/lib/validation.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { safeRedirect } from '@/routes/meta.ts';
import './login.css';

const t = zhCN.login;
type Mode = 'code' | 'password' | 'reset';

interface LoginFields {
  account: string;
  code?: string;
  password?: string;
  new_password?: string;
  confirm_password?: string;
}

const agreementHref = (p: string) => `${import.meta.env.BASE_URL}${p}`;

/** The left half: what the workbench does, over a static waveform. */
function LoginHero() {
  return (
    <section className="vw-login-hero">
      <div className="vw-login-hero-inner">
        <div className="vw-login-brand">
          <BrandMark size={40} />
          <span>{zhCN.app.name}</span>
        </div>
        <h1>{t.heroTitle}</h1>
        <p>{t.heroDesc}</p>
        <ul>
          {t.heroPoints.map((p) => (
            <li key={p}>
              <CheckCircleFilled /> {p}
            </li>
          ))}
        </ul>
        <div className="vw-login-wave" aria-hidden="true">
          {Array.from({ length: 36 }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: static decoration
            <span key={i} style={{ height: `${18 + Math.round(Math.abs(Math.sin(i * 0.7)) * 46)}px` }} />
          ))}
        </div>
      </div>
    </section>
  );
}

function AccountField() {
  return (
    <Form.Item
      name="account"
      validateTrigger="onBlur"
      rules={[
        { required: true, message: t.accountRequired },
        {
          validator: (_, v: string) =>
            !v || isAccount(v) ? Promise.resolve() : Promise.reject(new Error(t.accountInvalid)),
        },
      ]}
    >
      <Input
        size="large"
        prefix={<UserOutlined />}
        placeholder={t.accountPlaceholder}
        autoComplete="username"
        allowClear
      />
    </Form.Item>
  );
}

/** The code input with its send button; the account is validated before a code is sent. */
function CodeField({ scene }: { scene: 'login' | 'reset_pwd' }) {
  const form = Form.useFormInstance<LoginFields>();
  const getAccount = async (): Promise<string | null> => {
    try {
      const { account } = await form.validateFields(['account']);
      return account.trim();
    } catch {
      return null;
    }
  };
  return (
    <Form.Item required>
      <Space.Compact block>
        <Form.Item
          name="code"
          noStyle
          rules={[
            { required: true, message: t.codeRequired },
            {
              validator: (_, v: string) =>
                !v || isCode(v) ? Promise.resolve() : Promise.reject(new Error(t.codeInvalid)),
            },
          ]}
        >
          <Input
            size="large"
            prefix={<SafetyCertificateOutlined />}
            placeholder={t.codePlaceholder}
            maxLength={6}
            inputMode="numeric"
            autoComplete="one-time-code"
          />
        </Form.Item>
        <SendCodeButton
          scene={scene}
          size="large"
          getAccount={getAccount}
          onError={(text) => form.setFields([{ name: 'account', errors: [text] }])}
          onSent={() => form.setFields([{ name: 'code', errors: [] }])}
        />
      </Space.Compact>
      {/* Field errors of the nested item show under the group. */}
      <Form.Item noStyle shouldUpdate>
        {() => {
          const errors = form.getFieldError('code');
          return errors.length ? (
            <div className="ant-form-item-explain-error vw-inline-error">{errors[0]}</div>
          ) : null;
        }}
      </Form.Item>
    </Form.Item>
  );
}

function PasswordFields({ onForgot }: { onForgot: () => void }) {
  return (
    <>
      <Form.Item name="password" rules={[{ required: true, message: t.passwordRequired }]}>
        <Input.Password
          size="large"
          prefix={<LockOutlined />}
          placeholder={t.passwordPlaceholder}
          autoComplete="current-password"
        />
      </Form.Item>
      <div className="vw-login-forgot">
        <button type="button" className="vw-link-btn" onClick={onForgot}>
          {t.forgot}
        </button>
      </div>
    </>
  );
}

const newPasswordRules = [
  { required: true, message: t.passwordRequired },
  {
    validator: (_: unknown, v: string) =>
      !v || isStrongPassword(v) ? Promise.resolve() : Promise.reject(new Error(t.passwordRule)),
  },
];

function ResetPasswordFields() {
  return (
    <>
      <CodeField scene="reset_pwd" />
      <Form.Item name="new_password" rules={newPasswordRules}>
        <Input.Password
          size="large"
          prefix={<LockOutlined />}
          placeholder={t.newPasswordPlaceholder}
          autoComplete="new-password"
        />
      </Form.Item>
      <Form.Item
        name="confirm_password"
        dependencies={['new_password']}
        rules={[
          { required: true, message: t.confirmPasswordPlaceholder },
          ({ getFieldValue }) => ({
            validator: (_, v) =>
              !v || v === getFieldValue('new_password')
                ? Promise.resolve()
                : Promise.reject(new Error(t.passwordMismatch)),
          }),
        ]}
      >
        <Input.Password
          size="large"
          prefix={<LockOutlined />}
          placeholder={t.confirmPasswordPlaceholder}
          autoComplete="new-password"
        />
      </Form.Item>
    </>
  );
}

function Agreement({
  agreed,
  error,
  onChange,
}: {
  agreed: boolean;
  error: boolean;
  onChange: (agreed: boolean) => void;
}) {
  return (
    <div className={`vw-login-agreement ${error ? 'has-error' : ''}`}>
      <Checkbox checked={agreed} onChange={(e) => onChange(e.target.checked)} data-testid="agreement">
        {t.agreementPrefix}
        <a href={agreementHref('terms')} target="_blank" rel="noopener noreferrer">
          {t.terms}
        </a>
        {t.agreementAnd}
        <a href={agreementHref('privacy')} target="_blank" rel="noopener noreferrer">
          {t.privacy}
        </a>
      </Checkbox>
      {error && <div className="vw-inline-error">{t.agreementRequired}</div>}
    </div>
  );
}

function LoginHead({ mode, onMode }: { mode: Mode; onMode: (mode: Mode) => void }) {
  if (mode === 'reset')
    return (
      <div className="vw-login-head">
        <h2>{t.resetTitle}</h2>
        <p>{t.resetSubtitle}</p>
      </div>
    );
  return (
    <>
      <div className="vw-login-head">
        <h2>{t.title}</h2>
        <p>{t.subtitle}</p>
      </div>
      <Tabs
        activeKey={mode}
        onChange={(k) => onMode(k as Mode)}
        items={[
          { key: 'code', label: t.tabCode },
          { key: 'password', label: t.tabPassword },
        ]}
      />
    </>
  );
}

export function Component() {
  const [form] = Form.useForm<LoginFields>();
  const [mode, setMode] = useState<Mode>('code');
  const [agreed, setAgreed] = useState(false);
  const [agreementError, setAgreementError] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { message } = useApp();

  useEffect(() => {
    if (params.get('refused')) setFormError(t.refused);
  }, [params]);

  const showFieldError = (e: unknown, fallbackField: keyof LoginFields | null) => {
    const text = errorText(e);
    const field = isApiError(e) ? fieldOfError(e.type) : null;
    const name = field === 'password' && mode === 'reset' ? 'new_password' : (field ?? fallbackField);
    if (name && !(isApiError(e) && e.kind === 'network')) form.setFields([{ name, errors: [text] }]);
    else setFormError(text);
  };

  const switchMode = (next: Mode) => {
    setMode(next);
    setFormError(null);
    const account = form.getFieldValue('account');
    form.resetFields();
    form.setFieldValue('account', account);
  };

  const submit = async (values: LoginFields) => {
    setFormError(null);
    if (mode !== 'reset' && !agreed) {
      setAgreementError(true);
      return;
    }
    setSubmitting(true);
    try {
      const account = values.account.trim();
      if (mode === 'reset') {
        await request(
          api.resetPassword,
          { body: { account, code: values.code!.trim(), new_password: values.new_password! } },
          { suppressError: true },
        );
        message.success(t.resetDone);
        switchMode('password');
        return;
      }
      const data =
        mode === 'code'
          ? await request(
              api.authWithVerificationCode,
              { body: { account, code: values.code!.trim() } },
              { suppressError: true },
            )
          : await request(
              api.authWithPassword,
              { body: { account, password: values.password! } },
              { suppressError: true },
            );
      if (!completeSignIn(data)) {
        setFormError(t.refused);
        return;
      }
      trackSignUp(mode);
      message.success(data.is_new_user ? t.welcomeNew : t.welcome);
      navigate(safeRedirect(params.get('redirect')), { replace: true });
    } catch (e) {
      showFieldError(e, mode === 'password' ? 'password' : 'code');
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <div className="vw-login">
      <LoginHero />

      <section className="vw-login-panel">
        <div className="vw-login-card" data-testid="login-card">
          <LoginHead mode={mode} onMode={switchMode} />

          <Form
            form={form}
            layout="vertical"
            onFinish={submit}
            requiredMark={false}
            onValuesChange={() => setFormError(null)}
          >
            <AccountField />
            {mode === 'code' && <CodeField scene="login" />}
            {mode === 'password' && <PasswordFields onForgot={() => switchMode('reset')} />}
            {mode === 'reset' && <ResetPasswordFields />}

            {formError && (
              <Alert
                type="error"
                showIcon
                message={formError}
                className="vw-login-alert"
                data-testid="login-error"
              />
            )}

            <Button
              type="primary"
              htmlType="submit"
              size="large"
              block
              loading={submitting}
              data-testid="login-submit"
            >
              {mode === 'reset' ? t.resetSubmit : t.submit}
            </Button>

            {mode === 'reset' ? (
              <div className="vw-login-back">
                <button type="button" className="vw-link-btn" onClick={() => switchMode('password')}>
                  {t.backToLogin}
                </button>
              </div>
            ) : (
              <Agreement
                agreed={agreed}
                error={agreementError}
                onChange={(checked) => {
                  setAgreed(checked);
                  if (checked) setAgreementError(false);
                }}
              />
            )}
          </Form>
        </div>
        <footer className="vw-login-footer">
          © {new Date().getFullYear()} {zhCN.app.name} · {zhCN.app.nameEn}
        </footer>
      </section>
    </div>
  );
}
