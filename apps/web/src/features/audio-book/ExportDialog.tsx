import type { AudiobookExportFormat, LoudnessPreset } from '@vw/contract';
import { Alert, Button, Checkbox, Form, Input, Modal, Radio, Table, Tag } from 'antd';
import { useState } from 'react';
import { api } from '@/lib/api.ts';
import { useCall, useCallMutation } from '@/lib/query/hooks.ts';
import { TaskProgress } from '@/lib/tasks/TaskProgress.tsx';
import { useTask } from '@/lib/tasks/useTask.ts';

const FORMATS: Array<{ value: AudiobookExportFormat; label: string }> = [
  { value: 'm4b', label: 'M4B 有声书（带章节、封面与书籍信息）' },
  { value: 'mp3', label: '单个 MP3' },
  { value: 'zip', label: '每章一个 MP3（ZIP 打包）' },
];
const PRESETS: Array<{ value: LoudnessPreset; label: string; hint: string }> = [
  {
    value: 'acx',
    label: 'ACX 标准',
    hint: 'RMS −23…−18 dB、峰值 ≤ −3 dB、底噪 ≤ −60 dB，首尾留房间底噪，192 kbps CBR 44.1 kHz MP3',
  },
  { value: 'online', label: '网络平台（−16 LUFS）', hint: '适合手机与在线收听' },
];

/** The export's loudness report: ffmpeg's figures for every file, with the preset's verdict. */
export function ComplianceReport({ workId, taskId }: { workId: string; taskId: string }) {
  const report = useCall(api.audiobookExportReport, { query: { work_id: workId, task_id: taskId } });
  if (!report.data) return null;
  const { preset, push } = report.data;
  return (
    <div data-testid="book-report">
      <h4 style={{ margin: '12px 0 8px' }}>响度报告（ffmpeg 实测）</h4>
      {push && (
        <Alert
          type={push.ok ? 'success' : 'warning'}
          showIcon
          message={push.message}
          style={{ marginBottom: 8 }}
          data-testid="book-push-result"
        />
      )}
      <Table
        size="small"
        rowKey="file"
        pagination={false}
        dataSource={report.data.report}
        columns={[
          { title: '文件', dataIndex: 'file' },
          { title: 'RMS', dataIndex: 'rms_db', render: (v: number) => `${v.toFixed(1)} dB` },
          { title: '峰值', dataIndex: 'peak_db', render: (v: number) => `${v.toFixed(1)} dB` },
          { title: '底噪', dataIndex: 'noise_floor_db', render: (v: number) => `${v.toFixed(1)} dB` },
          {
            title: '响度',
            dataIndex: 'lufs',
            render: (v: number | null) => (v === null ? '—' : `${v.toFixed(1)} LUFS`),
          },
          {
            title: '编码',
            render: (_: unknown, e) => `${e.bitrate_kbps} kbps · ${(e.sample_rate / 1000).toFixed(1)} kHz`,
          },
          {
            title: preset === 'acx' ? 'ACX' : '网络',
            render: (_: unknown, e) =>
              e.passed ? (
                <Tag color="green">合格</Tag>
              ) : (
                <Tag color="red" title={e.problems.join('；')}>
                  不合格
                </Tag>
              ),
          },
        ]}
      />
    </div>
  );
}

function Running({ workId, taskId }: { workId: string; taskId: string }) {
  const { task } = useTask(taskId);
  if (!task) return null;
  return (
    <div data-testid="book-export-task">
      <TaskProgress task={task} />
      {task.status === 'succeeded' && (
        <>
          <div className="vw-book-downloads" data-testid="book-downloads">
            {task.outputs.map((o) => (
              <a key={o.name} href={o.url} download={o.name}>
                <Button size="small">{o.name}</Button>
              </a>
            ))}
          </div>
          <ComplianceReport workId={workId} taskId={taskId} />
        </>
      )}
    </div>
  );
}

/** Export: format, loudness preset, read-along subtitles and an optional Audiobookshelf push. */
export function ExportDialog({
  workId,
  open,
  onClose,
}: {
  workId: string;
  open: boolean;
  onClose: () => void;
}) {
  const [format, setFormat] = useState<AudiobookExportFormat>('m4b');
  const [preset, setPreset] = useState<LoudnessPreset>('acx');
  const [subtitles, setSubtitles] = useState<'none' | 'srt' | 'lrc'>('none');
  const [push, setPush] = useState(false);
  const [abs, setAbs] = useState({ url: '', token: '', library_id: '' });
  const [taskId, setTaskId] = useState<string | null>(null);
  const start = useCallMutation(api.audiobookExport, {
    invalidates: [api.audiobookList, api.audiobookGet],
    onSuccess: (d) => setTaskId(d.task_id),
  });
  const close = () => {
    setTaskId(null);
    onClose();
  };
  return (
    <Modal
      title="导出有声书"
      open={open}
      onCancel={close}
      width={760}
      footer={
        taskId ? (
          <Button onClick={close}>关闭</Button>
        ) : (
          <Button
            type="primary"
            loading={start.isPending}
            disabled={push && (!abs.url || !abs.token || !abs.library_id)}
            onClick={() =>
              start.mutate({
                body: {
                  work_id: workId,
                  format,
                  preset,
                  subtitles,
                  ...(push && format !== 'zip' ? { audiobookshelf: abs } : {}),
                },
              })
            }
            data-testid="book-export-start"
          >
            开始导出
          </Button>
        )
      }
      destroyOnHidden
    >
      {taskId ? (
        <Running workId={workId} taskId={taskId} />
      ) : (
        <Form layout="vertical">
          <Form.Item label="格式">
            <Radio.Group
              value={format}
              onChange={(e) => setFormat(e.target.value)}
              options={FORMATS}
              data-testid="book-export-format"
            />
          </Form.Item>
          <Form.Item label="响度" extra={PRESETS.find((p) => p.value === preset)?.hint}>
            <Radio.Group
              value={preset}
              onChange={(e) => setPreset(e.target.value)}
              options={PRESETS.map(({ value, label }) => ({ value, label }))}
            />
          </Form.Item>
          {preset === 'acx' && format === 'm4b' && (
            <Alert
              type="info"
              showIcon
              style={{ marginBottom: 16 }}
              message="ACX 只接受 192 kbps 44.1 kHz MP3：M4B 按 ACX 的音量处理，但报告不会判为 ACX 合格。"
              data-testid="book-export-acx-m4b"
            />
          )}
          <Form.Item label="跟读字幕（每章）">
            <Radio.Group
              value={subtitles}
              onChange={(e) => setSubtitles(e.target.value)}
              options={[
                { value: 'none', label: '不需要' },
                { value: 'srt', label: 'SRT' },
                { value: 'lrc', label: 'LRC' },
              ]}
            />
          </Form.Item>
          {format !== 'zip' && (
            <Form.Item>
              <Checkbox checked={push} onChange={(e) => setPush(e.target.checked)}>
                导出后推送到 Audiobookshelf 服务器
              </Checkbox>
              {push && (
                <div className="vw-book-abs">
                  <Input
                    placeholder="服务器地址，如 https://abs.example.com"
                    value={abs.url}
                    onChange={(e) => setAbs({ ...abs, url: e.target.value })}
                  />
                  <Input.Password
                    placeholder="API 令牌"
                    value={abs.token}
                    onChange={(e) => setAbs({ ...abs, token: e.target.value })}
                  />
                  <Input
                    placeholder="书库 ID（lib_…）"
                    value={abs.library_id}
                    onChange={(e) => setAbs({ ...abs, library_id: e.target.value })}
                  />
                </div>
              )}
            </Form.Item>
          )}
        </Form>
      )}
    </Modal>
  );
}
