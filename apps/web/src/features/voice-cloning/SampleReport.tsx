import type { CheckItem, FileCheck, SampleCheckView } from '@vw/contract';
import { Button, Space, Table, Tag } from 'antd';
import { api } from '@/lib/api.ts';
import { useCallMutation } from '@/lib/query/hooks.ts';
import { CHECK_TAGS, FIX_NAMES, type FixName, formatMs } from './labels.ts';

function Items({ items, testId }: { items: CheckItem[]; testId: string }) {
  return (
    <Table<CheckItem>
      size="small"
      pagination={false}
      rowKey="rule"
      dataSource={items}
      data-testid={testId}
      columns={[
        { title: '检测项', dataIndex: 'label', width: 120 },
        { title: '测量值', dataIndex: 'measured' },
        { title: '要求', dataIndex: 'expected' },
        {
          title: '结果',
          dataIndex: 'status',
          width: 100,
          render: (s: CheckItem['status'], item) => (
            <Tag color={CHECK_TAGS[s].color} data-testid={`check-${item.rule}`} data-status={s}>
              {CHECK_TAGS[s].text}
            </Tag>
          ),
        },
        { title: '建议', dataIndex: 'advice' },
      ]}
    />
  );
}

export interface FixedPair {
  before: FileCheck;
  after: FileCheck;
}

/** One file's report: the player, each rule, and one-click fixes with before/after playback. */
function FileReport({
  file,
  fixed,
  onFixed,
}: {
  file: FileCheck;
  fixed?: FixedPair;
  onFixed: (pair: FixedPair) => void;
}) {
  const fix = useCallMutation(api.voiceCloneFix, { onSuccess: (d) => onFixed(d) });
  const run = (fixes: FixName[]) => fix.mutate({ body: { asset_id: file.asset_id, fixes } });
  return (
    <div className="vw-clone-file" data-testid="clone-file-report" data-ok={file.ok}>
      <div className="vw-clone-file-head">
        <strong>{file.name}</strong>
        <span className="vw-vt-muted">{formatMs(file.levels.duration_ms)}</span>
        <Tag color={file.ok ? 'success' : 'error'}>{file.ok ? '可用' : '需处理'}</Tag>
        {/* biome-ignore lint/a11y/useMediaCaption: a voice sample has no captions */}
        <audio controls src={file.url} preload="none" />
      </div>
      <Items items={file.items} testId="clone-file-items" />
      {file.fixes.length > 0 && (
        <Space wrap className="vw-clone-fixes">
          <Button
            type="primary"
            loading={fix.isPending}
            onClick={() => run(file.fixes)}
            data-testid="clone-fix-all"
          >
            一键修复（{file.fixes.map((f) => FIX_NAMES[f]).join(' + ')}）
          </Button>
          {file.fixes.map((f) => (
            <Button key={f} onClick={() => run([f])} disabled={fix.isPending} data-testid={`clone-fix-${f}`}>
              仅{FIX_NAMES[f]}
            </Button>
          ))}
        </Space>
      )}
      {fixed && (
        <div className="vw-clone-ab" data-testid="clone-before-after">
          <div>
            <span>修复前</span>
            {/* biome-ignore lint/a11y/useMediaCaption: a voice sample has no captions */}
            <audio controls src={fixed.before.url} preload="none" data-testid="clone-before" />
          </div>
          <div>
            <span>修复后（已替换为样本）</span>
            {/* biome-ignore lint/a11y/useMediaCaption: a voice sample has no captions */}
            <audio controls src={fixed.after.url} preload="none" data-testid="clone-after" />
          </div>
        </div>
      )}
    </div>
  );
}

/** The sample check report shown before anything is created: overall, then per file. */
export function SampleReport({
  check,
  fixedPairs,
  onFixed,
}: {
  check: SampleCheckView;
  fixedPairs: Record<string, FixedPair>;
  onFixed: (oldAssetId: string, pair: FixedPair) => void;
}) {
  return (
    <div className="vw-clone-report" data-testid="clone-report" data-ok={check.ok}>
      <div className="vw-clone-summary">
        <Tag color={check.ok ? 'success' : 'error'} data-testid="clone-report-verdict">
          {check.ok ? '样本检测通过' : '样本未通过检测'}
        </Tag>
        <span className="vw-vt-muted">
          共 {check.files.length} 个文件，总时长 {formatMs(check.total_duration_ms)}，有效语音约{' '}
          {formatMs(check.total_speech_ms)}
        </span>
      </div>
      <Items items={check.overall} testId="clone-overall-items" />
      {check.files.map((f) => (
        <FileReport
          key={f.asset_id || f.name}
          file={f}
          fixed={Object.values(fixedPairs).find((p) => p.after.asset_id === f.asset_id)}
          onFixed={(pair) => onFixed(f.asset_id, pair)}
        />
      ))}
    </div>
  );
}
