import { AudioOutlined, ExperimentOutlined } from '@ant-design/icons';
import type { VoiceCloneView } from '@vw/contract';
import { Alert, Button, Input, Modal, Popconfirm, Space, Table, Tag } from 'antd';
import useApp from 'antd/es/app/useApp';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '@/lib/api.ts';
import { loadVoices } from '@/lib/auth/session.ts';
import { useCall, useCallMutation } from '@/lib/query/hooks.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { formatMs, STATUS_COLORS, STATUS_NAMES } from './labels.ts';
import { SampleReport } from './SampleReport.tsx';
import './clone.css';

const t = zhCN.voiceCloning.home;

/** My cloned voices with their actions: use, rename, check the samples again, delete. */
function CloneTable({
  clones,
  loading,
  onRename,
}: {
  clones: VoiceCloneView[];
  loading: boolean;
  onRename: (clone: VoiceCloneView) => void;
}) {
  const { message } = useApp();
  const navigate = useNavigate();
  const del = useCallMutation(api.voiceCloneDelete, {
    invalidates: [api.voiceCloneOverview],
    onSuccess: () => {
      void loadVoices();
      message.success(t.deleted);
    },
  });
  const recheck = useCallMutation(api.voiceCloneRecheck);
  return (
    <>
      <Table<VoiceCloneView>
        rowKey="clone_id"
        loading={loading}
        dataSource={clones}
        pagination={false}
        locale={{ emptyText: t.empty }}
        data-testid="clone-list"
        columns={[
          { title: t.colName, dataIndex: 'name', render: (n: string) => <strong>{n}</strong> },
          {
            title: t.colStatus,
            dataIndex: 'status',
            render: (s: VoiceCloneView['status'], c) => (
              <Tag color={STATUS_COLORS[s]} title={c.error ?? ''} data-testid="clone-status">
                {STATUS_NAMES[s]}
              </Tag>
            ),
          },
          { title: t.colKind, dataIndex: 'kind', render: (k: VoiceCloneView['kind']) => t.kinds[k] },
          {
            title: t.colEngine,
            dataIndex: 'engine_label',
            render: (l: string, c) => <span title={c.note}>{l}</span>,
          },
          {
            title: t.colSamples,
            render: (_: unknown, c) => t.samples(c.sample_count, formatMs(c.sample_duration_ms)),
          },
          {
            title: t.colCreated,
            dataIndex: 'created_time',
            render: (time: number) => new Date(time * 1000).toLocaleString('zh-CN'),
          },
          {
            title: t.colActions,
            render: (_: unknown, c) => (
              <Space size={4} wrap>
                <Button
                  size="small"
                  type="link"
                  disabled={c.status !== 'ready'}
                  onClick={() => navigate(`/tts?voice_id=${encodeURIComponent(c.voice_id)}`)}
                  data-testid="clone-use"
                >
                  {t.use}
                </Button>
                <Button size="small" type="link" onClick={() => onRename(c)} data-testid="clone-rename">
                  {t.rename}
                </Button>
                <Button
                  size="small"
                  type="link"
                  loading={
                    recheck.isPending &&
                    (recheck.variables?.body as { clone_id?: string } | undefined)?.clone_id === c.clone_id
                  }
                  onClick={() => recheck.mutate({ body: { clone_id: c.clone_id } })}
                  data-testid="clone-recheck"
                >
                  {t.recheck}
                </Button>
                <Popconfirm
                  title={t.deleteConfirm}
                  onConfirm={() => del.mutate({ body: { clone_id: c.clone_id } })}
                >
                  <Button size="small" type="link" danger data-testid="clone-delete">
                    {t.delete}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      {recheck.data && (
        <Modal open title={t.recheckTitle} footer={null} width={900} onCancel={() => recheck.reset()}>
          <SampleReport check={recheck.data.check} fixedPairs={{}} onFixed={() => undefined} />
        </Modal>
      )}
    </>
  );
}

function RenameDialog({
  clone,
  name,
  onName,
  onClose,
}: {
  clone: VoiceCloneView | null;
  name: string;
  onName: (name: string) => void;
  onClose: () => void;
}) {
  const rename = useCallMutation(api.voiceCloneRename, {
    invalidates: [api.voiceCloneOverview],
    onSuccess: () => void loadVoices(),
  });
  return (
    <Modal
      open={!!clone}
      title={t.renameTitle}
      onCancel={onClose}
      okButtonProps={{ disabled: !name.trim(), loading: rename.isPending }}
      onOk={() =>
        clone &&
        rename.mutate({ body: { clone_id: clone.clone_id, name: name.trim() } }, { onSuccess: onClose })
      }
    >
      <Input
        value={name}
        maxLength={40}
        onChange={(e) => onName(e.target.value)}
        data-testid="clone-rename-input"
      />
    </Modal>
  );
}

/** Route /voice-cloning: my cloned voices, remaining quota, the engines, and the two ways in. */
export function Component() {
  const navigate = useNavigate();
  const overview = useCall(api.voiceCloneOverview, undefined, {
    // professional clones move on by themselves
    refetchInterval: (q) =>
      q.state.data?.clones.some((c) => c.status === 'queued' || c.status === 'training') ? 5000 : false,
  });
  const [renaming, setRenaming] = useState<VoiceCloneView | null>(null);
  const [newName, setNewName] = useState('');
  const data = overview.data;

  return (
    <div className="vw-clone-page" data-testid="clone-home">
      <div className="vw-vt-toolbar">
        <h2>{t.title}</h2>
        {data && (
          <Space>
            <Tag color="blue" data-testid="clone-quota-fast">
              {zhCN.voiceCloning.fast} {data.quota.fast.used} / {data.quota.fast.limit}
            </Tag>
            <Tag color="purple" data-testid="clone-quota-pro">
              {zhCN.voiceCloning.professional} {data.quota.professional.used} /{' '}
              {data.quota.professional.limit}
            </Tag>
          </Space>
        )}
      </div>
      <div className="vw-clone-ways">
        <button
          type="button"
          className="vw-clone-way"
          onClick={() => navigate('/voice-cloning/normal-clone')}
          data-testid="clone-way-fast"
        >
          <AudioOutlined />
          <strong>{zhCN.voiceCloning.fast}</strong>
          <span>{t.fastDesc}</span>
        </button>
        <button
          type="button"
          className="vw-clone-way"
          onClick={() => navigate('/voice-cloning/professional-clone')}
          data-testid="clone-way-pro"
        >
          <ExperimentOutlined />
          <strong>{zhCN.voiceCloning.professional}</strong>
          <span>{t.proDesc}</span>
        </button>
      </div>
      {data && (
        <div className="vw-clone-engines" data-testid="clone-engines">
          {data.engines
            .filter((e) => e.available)
            .map((e) => (
              <Tag key={e.id} color="green">
                {e.label}
              </Tag>
            ))}
        </div>
      )}
      <h3>{t.mine}</h3>
      <CloneTable
        clones={data?.clones ?? []}
        loading={overview.isLoading}
        onRename={(c) => {
          setRenaming(c);
          setNewName(c.name);
        }}
      />
      <RenameDialog clone={renaming} name={newName} onName={setNewName} onClose={() => setRenaming(null)} />
      {data?.engines.every((e) => !e.available) && <Alert type="error" showIcon message={t.unavailable} />}
      <p className="vw-vt-muted">
        {t.whereBefore}
        <Link to="/voices">{t.whereLink}</Link> {t.whereAfter}
      </p>
    </div>
  );
}
