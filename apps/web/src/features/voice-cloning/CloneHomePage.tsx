import { AudioOutlined, ExperimentOutlined } from '@ant-design/icons';
import type { VoiceCloneView } from '@vw/contract';
import { Alert, Button, Input, Modal, Popconfirm, Space, Table, Tag } from 'antd';
import useApp from 'antd/es/app/useApp';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '@/lib/api.ts';
import { loadVoices } from '@/lib/auth/session.ts';
import { useCall, useCallMutation } from '@/lib/query/hooks.ts';
import { formatMs, STATUS_COLORS, STATUS_NAMES } from './labels.ts';
import { SampleReport } from './SampleReport.tsx';
import './clone.css';

/** Route /voice-cloning: my cloned voices, remaining quota, the engines, and the two ways in. */
export function Component() {
  const { message } = useApp();
  const navigate = useNavigate();
  const overview = useCall(api.voiceCloneOverview, undefined, {
    // professional clones move on by themselves
    refetchInterval: (q) =>
      q.state.data?.clones.some((c) => c.status === 'queued' || c.status === 'training') ? 5000 : false,
  });
  const [renaming, setRenaming] = useState<VoiceCloneView | null>(null);
  const [newName, setNewName] = useState('');
  const after = { invalidates: [api.voiceCloneOverview], onSuccess: () => void loadVoices() };
  const rename = useCallMutation(api.voiceCloneRename, after);
  const del = useCallMutation(api.voiceCloneDelete, {
    ...after,
    onSuccess: () => {
      void loadVoices();
      message.success('已删除，样本与参考音频已一并删除');
    },
  });
  const recheck = useCallMutation(api.voiceCloneRecheck);
  const data = overview.data;

  return (
    <div className="vw-clone-page" data-testid="clone-home">
      <div className="vw-vt-toolbar">
        <h2>声音克隆</h2>
        {data && (
          <Space>
            <Tag color="blue" data-testid="clone-quota-fast">
              快速克隆 {data.quota.fast.used} / {data.quota.fast.limit}
            </Tag>
            <Tag color="purple" data-testid="clone-quota-pro">
              专业克隆 {data.quota.professional.used} / {data.quota.professional.limit}
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
          <strong>快速克隆</strong>
          <span>上传或录制 10 秒 – 5 分钟的清晰录音，检测、授权后立即生成，可从三个候选中选择。</span>
        </button>
        <button
          type="button"
          className="vw-clone-way"
          onClick={() => navigate('/voice-cloning/professional-clone')}
          data-testid="clone-way-pro"
        >
          <ExperimentOutlined />
          <strong>专业克隆</strong>
          <span>提交至少 30 分钟的多段录音，自动挑选最佳参考音频；配置训练服务时进行训练。</span>
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
      <h3>我的克隆声音</h3>
      <Table<VoiceCloneView>
        rowKey="clone_id"
        loading={overview.isLoading}
        dataSource={data?.clones ?? []}
        pagination={false}
        locale={{ emptyText: '还没有克隆声音，从上面的两种方式开始吧' }}
        data-testid="clone-list"
        columns={[
          { title: '名称', dataIndex: 'name', render: (n: string) => <strong>{n}</strong> },
          {
            title: '状态',
            dataIndex: 'status',
            render: (s: VoiceCloneView['status'], c) => (
              <Tag color={STATUS_COLORS[s]} title={c.error ?? ''} data-testid="clone-status">
                {STATUS_NAMES[s]}
              </Tag>
            ),
          },
          { title: '类型', dataIndex: 'kind', render: (k: string) => (k === 'fast' ? '快速' : '专业') },
          {
            title: '引擎',
            dataIndex: 'engine_label',
            render: (l: string, c) => <span title={c.note}>{l}</span>,
          },
          {
            title: '样本',
            render: (_: unknown, c) => `${c.sample_count} 个 · ${formatMs(c.sample_duration_ms)}`,
          },
          {
            title: '创建时间',
            dataIndex: 'created_time',
            render: (t: number) => new Date(t * 1000).toLocaleString('zh-CN'),
          },
          {
            title: '操作',
            render: (_: unknown, c) => (
              <Space size={4} wrap>
                <Button
                  size="small"
                  type="link"
                  disabled={c.status !== 'ready'}
                  onClick={() => navigate(`/tts?voice_id=${encodeURIComponent(c.voice_id)}`)}
                  data-testid="clone-use"
                >
                  使用
                </Button>
                <Button
                  size="small"
                  type="link"
                  onClick={() => {
                    setRenaming(c);
                    setNewName(c.name);
                  }}
                  data-testid="clone-rename"
                >
                  重命名
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
                  重新检测
                </Button>
                <Popconfirm
                  title="删除后样本与参考音频一并删除，无法恢复"
                  onConfirm={() => del.mutate({ body: { clone_id: c.clone_id } })}
                >
                  <Button size="small" type="link" danger data-testid="clone-delete">
                    删除
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      {recheck.data && (
        <Modal open title="样本重新检测" footer={null} width={900} onCancel={() => recheck.reset()}>
          <SampleReport check={recheck.data.check} fixedPairs={{}} onFixed={() => undefined} />
        </Modal>
      )}
      <Modal
        open={!!renaming}
        title="重命名克隆声音"
        onCancel={() => setRenaming(null)}
        okButtonProps={{ disabled: !newName.trim(), loading: rename.isPending }}
        onOk={() =>
          renaming &&
          rename.mutate(
            { body: { clone_id: renaming.clone_id, name: newName.trim() } },
            { onSuccess: () => setRenaming(null) },
          )
        }
      >
        <Input
          value={newName}
          maxLength={40}
          onChange={(e) => setNewName(e.target.value)}
          data-testid="clone-rename-input"
        />
      </Modal>
      {data?.engines.every((e) => !e.available) && (
        <Alert type="error" showIcon message="声音克隆暂未开放，请联系管理员" />
      )}
      <p className="vw-vt-muted">
        克隆声音会出现在 <Link to="/voices">声音库 · 我的声音</Link>{' '}
        和文字转语音的声音选择中，只有你自己可见。
      </p>
    </div>
  );
}
