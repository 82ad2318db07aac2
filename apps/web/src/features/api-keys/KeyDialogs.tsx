import { CopyOutlined } from '@ant-design/icons';
import type { ApiKeyView } from '@vw/contract';
import { Alert, App, Button, DatePicker, Form, Input, InputNumber, Modal } from 'antd';
import { useEffect, useState } from 'react';
import { api } from '@/lib/api.ts';
import dayjs, { type Dayjs } from '@/lib/dayjs.ts';
import { request } from '@/lib/http/client.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { copyText } from './copy.ts';

const t = zhCN.apiKeys;

/** A secret shown once, with a copy button and the warning that it will not be shown again. */
export function SecretOnce(props: {
  title: string;
  warning: string;
  secret: string | null;
  onClose: () => void;
}) {
  const { message } = App.useApp();
  return (
    <Modal
      open={props.secret != null}
      title={props.title}
      onCancel={props.onClose}
      maskClosable={false}
      keyboard={false}
      footer={
        <Button type="primary" onClick={props.onClose} data-testid="secret-done">
          {t.done}
        </Button>
      }
    >
      <Alert type="warning" showIcon message={props.warning} style={{ marginBottom: 16 }} />
      <div className="vw-apikeys-secret">
        <Input
          readOnly
          value={props.secret ?? ''}
          data-testid="secret-value"
          onFocus={(e) => e.target.select()}
        />
        <Button
          icon={<CopyOutlined />}
          data-testid="secret-copy"
          onClick={async () => {
            if (await copyText(props.secret ?? '')) message.success(t.copied);
            else message.error(t.copyFailed);
          }}
        >
          {t.copy}
        </Button>
      </div>
    </Modal>
  );
}

interface CreateValues {
  name: string;
  credit_limit?: number | null;
  expires?: Dayjs | null;
}

export function CreateKeyDialog(props: {
  open: boolean;
  onClose: () => void;
  onCreated: (key: ApiKeyView, secret: string) => void;
}) {
  const [form] = Form.useForm<CreateValues>();
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const v = await form.validateFields();
    setBusy(true);
    try {
      const d = await request(api.apiKeyCreate, {
        body: {
          name: v.name,
          credit_limit: v.credit_limit ?? null,
          expires_time: v.expires ? v.expires.endOf('day').unix() : null,
        },
      });
      form.resetFields();
      props.onCreated(d.key, d.secret_key);
    } catch {
      // The general error message was shown by the client.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={props.open}
      title={t.createTitle}
      okText={t.createOk}
      cancelText={t.cancel}
      confirmLoading={busy}
      onOk={() => void submit()}
      onCancel={props.onClose}
      okButtonProps={{ 'data-testid': 'create-key-submit' } as never}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" requiredMark={false}>
        <Form.Item
          name="name"
          label={t.name}
          rules={[{ required: true, whitespace: true, message: t.nameRequired }]}
        >
          <Input maxLength={50} placeholder={t.namePlaceholder} data-testid="create-key-name" />
        </Form.Item>
        <Form.Item name="credit_limit" label={t.creditLimit} extra={t.creditLimitHint}>
          <InputNumber min={1} precision={0} style={{ width: '100%' }} data-testid="create-key-limit" />
        </Form.Item>
        <Form.Item name="expires" label={t.expires}>
          <DatePicker style={{ width: '100%' }} disabledDate={(d) => d.isBefore(dayjs(), 'day')} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export function RenameDialog(props: { keyView: ApiKeyView | null; onClose: () => void; onDone: () => void }) {
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const { message } = App.useApp();
  // Filled when the dialog opens for a key (not after its animation, which would undo typing).
  useEffect(() => setName(props.keyView?.name ?? ''), [props.keyView]);
  return (
    <Modal
      open={props.keyView != null}
      title={t.rename}
      okText={t.rename}
      cancelText={t.cancel}
      confirmLoading={busy}
      okButtonProps={{ disabled: !name.trim(), 'data-testid': 'rename-submit' } as never}
      onCancel={props.onClose}
      onOk={async () => {
        if (!props.keyView) return;
        setBusy(true);
        try {
          await request(api.apiKeyRename, { body: { key_id: props.keyView.key_id, name } });
          message.success(t.renamed);
          props.onDone();
        } catch {
          // shown by the client
        } finally {
          setBusy(false);
        }
      }}
    >
      <Input
        value={name}
        maxLength={50}
        onChange={(e) => setName(e.target.value)}
        data-testid="rename-input"
      />
    </Modal>
  );
}
