import type { AudiobookExportFormat, LoudnessPreset } from '@vw/contract';
import { Alert, Button, Checkbox, Form, Input, Modal, Radio, Table, Tag } from 'antd';
import { useState } from 'react';
import { api } from '@/lib/api.ts';
import { useCall, useCallMutation } from '@/lib/query/hooks.ts';
import { TaskProgress } from '@/lib/tasks/TaskProgress.tsx';
import { useTask } from '@/lib/tasks/useTask.ts';
import { zhCN } from '@/locales/zh-CN.ts';

const t = zhCN.audioBook.exportDialog;
const r = zhCN.audioBook.report;

const FORMATS: Array<{ value: AudiobookExportFormat; label: string }> = (['m4b', 'mp3', 'zip'] as const).map(
  (value) => ({ value, label: t.formats[value] }),
);
const PRESETS: Array<{ value: LoudnessPreset; label: string; hint: string }> = (
  ['acx', 'online'] as const
).map((value) => ({ value, ...t.presets[value] }));

/** The export's loudness report: ffmpeg's figures for every file, with the preset's verdict. */
export function ComplianceReport({ workId, taskId }: { workId: string; taskId: string }) {
  const report = useCall(api.audiobookExportReport, { query: { work_id: workId, task_id: taskId } });
  if (!report.data) return null;
  const { preset, push } = report.data;
  return (
    <div data-testid="book-report">
      <h4 style={{ margin: '12px 0 8px' }}>{r.title}</h4>
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
          { title: r.file, dataIndex: 'file' },
          { title: 'RMS', dataIndex: 'rms_db', render: (v: number) => `${v.toFixed(1)} dB` },
          { title: r.peak, dataIndex: 'peak_db', render: (v: number) => `${v.toFixed(1)} dB` },
          { title: r.noiseFloor, dataIndex: 'noise_floor_db', render: (v: number) => `${v.toFixed(1)} dB` },
          {
            title: r.loudness,
            dataIndex: 'lufs',
            render: (v: number | null) => (v === null ? '—' : `${v.toFixed(1)} LUFS`),
          },
          {
            title: r.encoding,
            render: (_: unknown, e) => `${e.bitrate_kbps} kbps · ${(e.sample_rate / 1000).toFixed(1)} kHz`,
          },
          {
            title: preset === 'acx' ? 'ACX' : r.online,
            render: (_: unknown, e) =>
              e.passed ? (
                <Tag color="green">{r.passed}</Tag>
              ) : (
                <Tag color="red" title={e.problems.join(r.problemSeparator)}>
                  {r.failed}
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
      title={t.title}
      open={open}
      onCancel={close}
      width={760}
      footer={
        taskId ? (
          <Button onClick={close}>{t.close}</Button>
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
            {t.start}
          </Button>
        )
      }
      destroyOnHidden
    >
      {taskId ? (
        <Running workId={workId} taskId={taskId} />
      ) : (
        <Form layout="vertical">
          <Form.Item label={t.format}>
            <Radio.Group
              value={format}
              onChange={(e) => setFormat(e.target.value)}
              options={FORMATS}
              data-testid="book-export-format"
            />
          </Form.Item>
          <Form.Item label={t.loudness} extra={PRESETS.find((p) => p.value === preset)?.hint}>
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
              message={t.acxM4b}
              data-testid="book-export-acx-m4b"
            />
          )}
          <Form.Item label={t.subtitles}>
            <Radio.Group
              value={subtitles}
              onChange={(e) => setSubtitles(e.target.value)}
              options={[
                { value: 'none', label: t.noSubtitles },
                { value: 'srt', label: 'SRT' },
                { value: 'lrc', label: 'LRC' },
              ]}
            />
          </Form.Item>
          {format !== 'zip' && (
            <Form.Item>
              <Checkbox checked={push} onChange={(e) => setPush(e.target.checked)}>
                {t.push}
              </Checkbox>
              {push && (
                <div className="vw-book-abs">
                  <Input
                    placeholder={t.serverUrl}
                    value={abs.url}
                    onChange={(e) => setAbs({ ...abs, url: e.target.value })}
                  />
                  <Input.Password
                    placeholder={t.token}
                    value={abs.token}
                    onChange={(e) => setAbs({ ...abs, token: e.target.value })}
                  />
                  <Input
                    placeholder={t.libraryId}
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
