import { CameraOutlined, ExclamationCircleFilled, MailOutlined, MobileOutlined } from '@ant-design/icons';
import type { UserInfo } from '@vw/contract';
import { maskPhone } from '@vw/contract/helpers/mask.ts';
import { Alert, App, Button, Checkbox, Form, Input, Modal, Space } from 'antd';
import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { displayName } from '@/components/avatar.ts';
import { SendCodeButton } from '@/components/SendCodeButton.tsx';
import { UserAvatar } from '@/components/UserAvatar.tsx';
import { api } from '@/lib/api.ts';
import { dropSession } from '@/lib/auth/session.ts';
import { saveUserInfo } from '@/lib/auth/storage.ts';
import { request } from '@/lib/http/client.ts';
import { errorText, isApiError } from '@/lib/http/errors.ts';
import { fieldOfError, isCode, isEmail, isPhone, isStrongPassword } from '@/lib/validation.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { useUserStore } from '@/stores/user.ts';
import { AvatarCropper } from './AvatarCropper.tsx';
import './profile.css';

const t = zhCN.profile;
const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/webp'];

function applyUser(user: UserInfo) {
  saveUserInfo(user);
  useUserStore.getState().setUserInfo(user);
}

function Row({
  label,
  children,
  action,
}: {
  label: string;
  children: React.ReactNode;
  action?: React.ReactNode;
}) {
  return (
    <div className="vw-profile-row">
      <div className="vw-profile-label">{label}</div>
      <div className="vw-profile-value">{children}</div>
      <div className="vw-profile-action">{action}</div>
    </div>
  );
}

function CodeField({
  scene,
  getAccount,
}: {
  scene: 'bind' | 'cancel_account';
  getAccount: () => Promise<string | null>;
}) {
  const form = Form.useFormInstance();
  return (
    <Form.Item label={zhCN.login.code} required>
      <Space.Compact block>
        <Form.Item
          name="code"
          noStyle
          rules={[
            { required: true, message: zhCN.login.codeRequired },
            {
              validator: (_, v: string) =>
                !v || isCode(v) ? Promise.resolve() : Promise.reject(new Error(zhCN.login.codeInvalid)),
            },
          ]}
        >
          <Input placeholder={zhCN.login.codePlaceholder} maxLength={6} inputMode="numeric" />
        </Form.Item>
        <SendCodeButton
          scene={scene}
          getAccount={getAccount}
          onError={(text) => form.setFields([{ name: 'code', errors: [text] }])}
        />
      </Space.Compact>
      <Form.Item noStyle shouldUpdate>
        {() => {
          const errors = form.getFieldError('code');
          return errors.length ? <div className="vw-inline-error">{errors[0]}</div> : null;
        }}
      </Form.Item>
    </Form.Item>
  );
}

function BindDialog({ kind, onClose }: { kind: 'phone' | 'email' | null; onClose: () => void }) {
  const [form] = Form.useForm<{ account: string; code: string }>();
  const [saving, setSaving] = useState(false);
  const { message } = App.useApp();
  const isPhoneKind = kind === 'phone';
  const validate = (v: string) => (isPhoneKind ? isPhone(v) : isEmail(v));
  const getAccount = async () => {
    try {
      return (await form.validateFields(['account'])).account.trim();
    } catch {
      return null;
    }
  };
  const submit = async () => {
    const values = await form.validateFields();
    setSaving(true);
    try {
      const data = await request(
        api.bindAccount,
        { body: { account: values.account.trim(), code: values.code.trim() } },
        { suppressError: true },
      );
      applyUser(data.user_info);
      message.success(t.bindDone);
      onClose();
    } catch (e) {
      const field = isApiError(e) ? fieldOfError(e.type) : null;
      form.setFields([{ name: field === 'account' ? 'account' : 'code', errors: [errorText(e)] }]);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open={kind !== null}
      title={isPhoneKind ? t.bindPhoneTitle : t.bindEmailTitle}
      onCancel={onClose}
      onOk={submit}
      okText={t.bind}
      cancelText={t.cancel}
      confirmLoading={saving}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" requiredMark={false} preserve={false}>
        <Form.Item
          name="account"
          label={isPhoneKind ? t.phone : t.email}
          rules={[
            { required: true, message: isPhoneKind ? t.phonePlaceholder : t.emailPlaceholder },
            {
              validator: (_, v: string) =>
                !v || validate(v)
                  ? Promise.resolve()
                  : Promise.reject(new Error(isPhoneKind ? t.phoneInvalid : t.emailInvalid)),
            },
          ]}
        >
          <Input placeholder={isPhoneKind ? t.phonePlaceholder : t.emailPlaceholder} />
        </Form.Item>
        <CodeField scene="bind" getAccount={getAccount} />
      </Form>
    </Modal>
  );
}

function PasswordDialog({
  open,
  hasPassword,
  onClose,
}: {
  open: boolean;
  hasPassword: boolean;
  onClose: () => void;
}) {
  const [form] = Form.useForm<{ old_password?: string; new_password: string; confirm: string }>();
  const [saving, setSaving] = useState(false);
  const { message } = App.useApp();
  const submit = async () => {
    const values = await form.validateFields();
    setSaving(true);
    try {
      await request(
        api.changePassword,
        {
          body: {
            old_password: hasPassword ? values.old_password : undefined,
            new_password: values.new_password,
          },
        },
        { suppressError: true },
      );
      const user = useUserStore.getState().userInfo;
      if (user) applyUser({ ...user, has_password: true });
      message.success(t.passwordSaved);
      onClose();
    } catch (e) {
      const type = isApiError(e) ? e.type : undefined;
      const name = type === 'err_password_incorrect' && hasPassword ? 'old_password' : 'new_password';
      form.setFields([{ name, errors: [errorText(e)] }]);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open={open}
      title={hasPassword ? t.changePassword : t.setPassword}
      onCancel={onClose}
      onOk={submit}
      okText={t.save}
      cancelText={t.cancel}
      confirmLoading={saving}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" requiredMark={false} preserve={false}>
        {hasPassword && (
          <Form.Item
            name="old_password"
            label={t.oldPassword}
            rules={[{ required: true, message: t.oldPasswordPlaceholder }]}
          >
            <Input.Password placeholder={t.oldPasswordPlaceholder} autoComplete="current-password" />
          </Form.Item>
        )}
        <Form.Item
          name="new_password"
          label={zhCN.login.newPassword}
          rules={[
            { required: true, message: zhCN.login.passwordRequired },
            {
              validator: (_, v: string) =>
                !v || isStrongPassword(v)
                  ? Promise.resolve()
                  : Promise.reject(new Error(zhCN.login.passwordRule)),
            },
          ]}
        >
          <Input.Password placeholder={zhCN.login.newPasswordPlaceholder} autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={zhCN.login.confirmPassword}
          dependencies={['new_password']}
          rules={[
            { required: true, message: zhCN.login.confirmPasswordPlaceholder },
            ({ getFieldValue }) => ({
              validator: (_, v) =>
                !v || v === getFieldValue('new_password')
                  ? Promise.resolve()
                  : Promise.reject(new Error(zhCN.login.passwordMismatch)),
            }),
          ]}
        >
          <Input.Password placeholder={zhCN.login.confirmPasswordPlaceholder} autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function CancelAccountDialog({
  open,
  user,
  onClose,
}: {
  open: boolean;
  user: UserInfo;
  onClose: () => void;
}) {
  const [form] = Form.useForm<{ code: string }>();
  const [confirmed, setConfirmed] = useState(false);
  const [saving, setSaving] = useState(false);
  const navigate = useNavigate();
  const { message } = App.useApp();
  const target = user.phone || user.email;
  const targetLabel = user.phone ? maskPhone(user.phone) : user.email;
  const submit = async () => {
    const values = await form.validateFields();
    setSaving(true);
    try {
      await request(api.cancelAccount, { body: { code: values.code.trim() } }, { suppressError: true });
      dropSession();
      message.success(t.cancelDone);
      navigate('/login', { replace: true });
    } catch (e) {
      form.setFields([{ name: 'code', errors: [errorText(e)] }]);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open={open}
      title={t.cancelTitle}
      onCancel={() => {
        setConfirmed(false);
        onClose();
      }}
      onOk={submit}
      okText={t.cancelSubmit}
      cancelText={t.cancel}
      okButtonProps={{ danger: true, disabled: !confirmed || !target }}
      confirmLoading={saving}
      destroyOnHidden
    >
      <Alert
        type="error"
        showIcon
        icon={<ExclamationCircleFilled />}
        message={t.cancelWarning}
        className="vw-cancel-warning"
      />
      {target ? (
        <Form form={form} layout="vertical" requiredMark={false} preserve={false}>
          <p className="vw-cancel-target">{t.cancelSendTo(targetLabel)}</p>
          <CodeField scene="cancel_account" getAccount={async () => target} />
          <Checkbox
            checked={confirmed}
            onChange={(e) => setConfirmed(e.target.checked)}
            data-testid="cancel-confirm"
          >
            {t.cancelConfirmCheck}
          </Checkbox>
        </Form>
      ) : (
        <p>{t.cancelNoAccount}</p>
      )}
    </Modal>
  );
}

/** The avatar: a picked image is cropped, then uploaded. */
function AvatarRow({ user, name }: { user: UserInfo; name: string }) {
  const { message } = App.useApp();
  const fileInput = useRef<HTMLInputElement>(null);
  const [cropFile, setCropFile] = useState<File | null>(null);
  const uploadAvatar = async (blob: Blob) => {
    const form = new FormData();
    form.append('file', blob, 'avatar.png');
    try {
      const data = await request(api.uploadAvatar, { body: form });
      applyUser(data.user_info);
      setCropFile(null);
      message.success(t.avatarSaved);
    } catch {
      // the general handler has shown the message
    }
  };
  return (
    <>
      <div className="vw-profile-avatar-row">
        <button
          type="button"
          className="vw-profile-avatar"
          onClick={() => fileInput.current?.click()}
          aria-label={t.changeAvatar}
        >
          <UserAvatar src={user.avatar_url} name={name} seed={user.uid} size={72} />
          <span className="vw-profile-avatar-mask">
            <CameraOutlined />
          </span>
        </button>
        <div>
          <Button onClick={() => fileInput.current?.click()} data-testid="change-avatar">
            {t.changeAvatar}
          </Button>
          <div className="vw-profile-hint">{t.avatarHint}</div>
        </div>
        <input
          ref={fileInput}
          type="file"
          accept={AVATAR_TYPES.join(',')}
          hidden
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (!file) return;
            if (!AVATAR_TYPES.includes(file.type)) {
              message.error(t.avatarTypeError);
              return;
            }
            setCropFile(file);
          }}
        />
      </div>
      <AvatarCropper
        file={cropFile}
        onCancel={() => setCropFile(null)}
        onConfirm={uploadAvatar}
        onLoadError={() => {
          setCropFile(null);
          message.error(t.avatarLoadError);
        }}
      />
    </>
  );
}

/** The nickname, edited in place. */
function NicknameRow({ user }: { user: UserInfo }) {
  const { message } = App.useApp();
  const [editingName, setEditingName] = useState(false);
  const [nickname, setNickname] = useState('');
  const [savingName, setSavingName] = useState(false);
  const saveNickname = async () => {
    const value = nickname.trim();
    if (!value) {
      message.warning(t.nicknameRequired);
      return;
    }
    setSavingName(true);
    try {
      const data = await request(api.updateProfile, { body: { nickname: value } });
      applyUser(data.user_info);
      setEditingName(false);
      message.success(t.nicknameSaved);
    } catch {
      // the general handler has shown the message
    } finally {
      setSavingName(false);
    }
  };
  return (
    <Row
      label={t.nickname}
      action={
        editingName ? (
          <Space>
            <Button onClick={() => setEditingName(false)}>{t.cancel}</Button>
            <Button type="primary" loading={savingName} onClick={saveNickname}>
              {t.save}
            </Button>
          </Space>
        ) : (
          <Button
            type="link"
            onClick={() => {
              setNickname(user.nickname);
              setEditingName(true);
            }}
          >
            {t.edit}
          </Button>
        )
      }
    >
      {editingName ? (
        <Input
          value={nickname}
          maxLength={32}
          showCount
          placeholder={t.nicknamePlaceholder}
          onChange={(e) => setNickname(e.target.value)}
          onPressEnter={saveNickname}
          autoFocus
          style={{ maxWidth: 320 }}
        />
      ) : (
        <span data-testid="profile-nickname">
          {user.nickname || <span className="vw-muted">{zhCN.profileMenu.notSet}</span>}
        </span>
      )}
    </Row>
  );
}

export function Component() {
  const user = useUserStore((s) => s.userInfo);
  const [bindKind, setBindKind] = useState<'phone' | 'email' | null>(null);
  const [passwordOpen, setPasswordOpen] = useState(false);
  const [cancelOpen, setCancelOpen] = useState(false);
  if (!user) return null;
  const name = displayName(user);

  return (
    <div className="vw-page vw-profile">
      <header className="vw-page-header">
        <h1>{t.title}</h1>
        <p>{t.subtitle}</p>
      </header>

      <section className="vw-card">
        <h2>{t.basic}</h2>
        <AvatarRow user={user} name={name} />
        <NicknameRow user={user} />
        <Row label={t.uid}>
          <span className="vw-mono">{user.uid}</span>
        </Row>
      </section>

      <section className="vw-card">
        <h2>{t.accounts}</h2>
        <Row
          label={t.phone}
          action={
            <Button type="link" onClick={() => setBindKind('phone')}>
              {user.phone ? t.rebind : t.bind}
            </Button>
          }
        >
          <MobileOutlined className="vw-row-icon" />
          {user.phone ? maskPhone(user.phone) : <span className="vw-muted">{t.notBound}</span>}
        </Row>
        <Row
          label={t.email}
          action={
            <Button type="link" onClick={() => setBindKind('email')}>
              {user.email ? t.rebind : t.bind}
            </Button>
          }
        >
          <MailOutlined className="vw-row-icon" />
          {user.email || <span className="vw-muted">{t.notBound}</span>}
        </Row>
        <Row
          label={t.password}
          action={
            <Button type="link" onClick={() => setPasswordOpen(true)}>
              {user.has_password ? t.changePassword : t.setPassword}
            </Button>
          }
        >
          {user.has_password ? t.passwordSet : <span className="vw-muted">{t.passwordNotSet}</span>}
        </Row>
      </section>

      <section className="vw-card vw-danger-card">
        <h2>{t.danger}</h2>
        <Row
          label={t.cancelAccount}
          action={
            <Button danger onClick={() => setCancelOpen(true)} data-testid="cancel-account">
              {t.cancelAccount}
            </Button>
          }
        >
          <span className="vw-muted">{t.dangerDesc}</span>
        </Row>
      </section>

      <BindDialog kind={bindKind} onClose={() => setBindKind(null)} />
      <PasswordDialog
        open={passwordOpen}
        hasPassword={user.has_password}
        onClose={() => setPasswordOpen(false)}
      />
      <CancelAccountDialog open={cancelOpen} user={user} onClose={() => setCancelOpen(false)} />
    </div>
  );
}
