import type { CheckItem, FileCheck, SampleCheckView } from '@vw/contract';
import { Button, Space, Table, Tag } from 'antd';
import { api } from '@/lib/api.ts';
import { useCallMutation } from '@/lib/query/hooks.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { CHECK_TAGS, FIX_NAMES, type FixName, formatMs } from './labels.ts';

const t = zhCN.voiceCloning.report;

function Items({ items, testId }: { items: CheckItem[]; testId: string }) {
  return (
    <Table<CheckItem>
      size="small"
      pagination={false}
      rowKey="rule"
      dataSource={items}
      data-testid={testId}
      columns={[
        { title: t.colItem, dataIndex: 'label', width: 120 },
        { title: t.colMeasured, dataIndex: 'measured' },
        { title: t.colExpected, dataIndex: 'expected' },
        {
          title: t.colResult,
          dataIndex: 'status',
          width: 100,
          render: (s: CheckItem['status'], item) => (
            <Tag color={CHECK_TAGS[s].color} data-testid={`check-${item.rule}`} data-status={s}>
              {CHECK_TAGS[s].text}
            </Tag>
          ),
        },
        { title: t.colAdvice, dataIndex: 'advice' },
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
        <Tag color={file.ok ? 'success' : 'error'}>{file.ok ? t.fileOk : t.fileNeedsWork}</Tag>
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
            {t.fixAll(file.fixes.map((f) => FIX_NAMES[f]).join(' + '))}
          </Button>
          {file.fixes.map((f) => (
            <Button key={f} onClick={() => run([f])} disabled={fix.isPending} data-testid={`clone-fix-${f}`}>
              {t.fixOnly(FIX_NAMES[f])}
            </Button>
          ))}
        </Space>
      )}
      {fixed && (
        <div className="vw-clone-ab" data-testid="clone-before-after">
          <div>
            <span>{t.before}</span>
            {/* biome-ignore lint/a11y/useMediaCaption: a voice sample has no captions */}
            <audio controls src={fixed.before.url} preload="none" data-testid="clone-before" />
          </div>
          <div>
            <span>{t.after}</span>
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
          {check.ok ? t.passed : t.failed}
        </Tag>
        <span className="vw-vt-muted">
          {t.summary(check.files.length, formatMs(check.total_duration_ms))}
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
