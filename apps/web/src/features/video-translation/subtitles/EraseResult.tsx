import { DownloadOutlined } from '@ant-design/icons';
import type { EraseReport } from '@vw/contract';
import { Alert, Button, Descriptions, Empty, Segmented, Slider, Table, Tag } from 'antd';
import useApp from 'antd/es/app/useApp';
import { useEffect, useRef, useState } from 'react';
import { startDownloads } from '@/features/downloads/center.ts';
import { safeFileName } from '@/features/tts/downloads.ts';
import { api } from '@/lib/api.ts';
import { http } from '@/lib/http/client.ts';
import { useCall, useCallMutation } from '@/lib/query/hooks.ts';
import { formatDuration } from '@/lib/tasks/format.ts';
import './subtitles.css';
import { zhCN } from '@/locales/zh-CN.ts';

const subtitleTools = zhCN.subtitleTools;

const t = subtitleTools.result;

/**
 * Before/after over one player: the erased video on top, clipped to the slider's position, the
 * original under it, kept in step (play, pause, seek follow the top one).
 */
export function CompareSlider({ before, after }: { before: string; after: string }) {
  const [pos, setPos] = useState(50);
  const top = useRef<HTMLVideoElement>(null);
  const bottom = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const a = top.current;
    const b = bottom.current;
    if (!a || !b) return;
    const sync = () => {
      if (Math.abs(b.currentTime - a.currentTime) > 0.1) b.currentTime = a.currentTime;
    };
    const play = () => void b.play().catch(() => undefined);
    const pause = () => b.pause();
    a.addEventListener('timeupdate', sync);
    a.addEventListener('seeked', sync);
    b.addEventListener('loadeddata', sync);
    a.addEventListener('play', play);
    a.addEventListener('pause', pause);
    return () => {
      a.removeEventListener('timeupdate', sync);
      a.removeEventListener('seeked', sync);
      b.removeEventListener('loadeddata', sync);
      a.removeEventListener('play', play);
      a.removeEventListener('pause', pause);
    };
  }, []);
  return (
    <div data-testid="erase-compare">
      <div className="vw-st-compare">
        <video
          ref={bottom}
          src={before}
          muted
          playsInline
          preload="auto"
          data-testid="erase-compare-before"
        />
        {/* biome-ignore lint/a11y/useMediaCaption: the burned-in subtitles were just erased; there is no caption track */}
        <video
          ref={top}
          className="vw-st-compare-top"
          src={after}
          controls
          playsInline
          preload="auto"
          style={{ clipPath: `inset(0 0 0 ${pos}%)` }}
          data-testid="erase-compare-after"
        />
        <span className="vw-st-compare-line" style={{ left: `${pos}%` }} />
        <span className="vw-st-compare-tag" style={{ left: 8 }}>
          {t.original}
        </span>
        <span className="vw-st-compare-tag" style={{ right: 8 }}>
          {t.erased}
        </span>
      </div>
      <Slider
        value={pos}
        onChange={(v) => setPos(v as number)}
        tooltip={{ formatter: (v) => `${v}%` }}
        style={{ maxWidth: 720 }}
        aria-label={t.comparePosition}
        data-testid="erase-compare-slider"
      />
    </div>
  );
}

/**
 * The damage view: one frame's difference between the source and the result, drawn by the server
 * (black = unchanged), the boxes erased then outlined, and the share of pixels that changed outside
 * them — a user sees that only the text (or the watermark) changed. It opens at the middle of the
 * first erased range; the slider picks another moment.
 */
export function DifferenceView({ taskId, report }: { taskId: string; report: EraseReport | null }) {
  const end = Math.max(0, ...(report?.damage ?? []).map((d) => d.end_ms));
  const [at, setAt] = useState<number | undefined>(undefined);
  const [pos, setPos] = useState<number | null>(null);
  const diff = useCallMutation(api.eraseDifference);
  const { mutate } = diff;
  useEffect(() => {
    mutate({ body: { task_id: taskId, ...(at !== undefined ? { at_ms: at } : {}) } });
  }, [mutate, taskId, at]);
  const data = diff.data;
  return (
    <div className="vw-st-difference" data-testid="erase-difference">
      {data ? (
        <>
          <div className="vw-st-difference-frame">
            <img src={data.url} alt={t.differenceAlt} data-testid="erase-difference-image" />
            {data.boxes.map((b) => (
              <span
                key={`${b.x}-${b.y}-${b.w}-${b.h}`}
                className="vw-st-difference-box"
                style={{
                  left: `${b.x * 100}%`,
                  top: `${b.y * 100}%`,
                  width: `${b.w * 100}%`,
                  height: `${b.h * 100}%`,
                }}
              />
            ))}
          </div>
          {end > 0 && (
            <Slider
              min={0}
              max={end}
              step={100}
              value={pos ?? data.at_ms}
              onChange={(v) => setPos(v as number)}
              onChangeComplete={(v) => setAt(v as number)}
              tooltip={{ formatter: (v) => formatDuration((v ?? 0) / 1000) }}
              style={{ maxWidth: 720 }}
              aria-label={t.differenceMoment}
            />
          )}
          <p className="vw-vt-muted">
            <span data-testid="erase-difference-outside" data-share={data.outside_changed_share}>
              {t.differenceOutside(
                formatDuration(data.at_ms / 1000),
                (data.outside_changed_share * 100).toFixed(2),
              )}
            </span>
            {t.differenceInside((data.inside_changed_share * 100).toFixed(1))}
          </p>
          <p className="vw-vt-muted">{t.differenceHint}</p>
        </>
      ) : (
        <p className="vw-vt-muted">{diff.isError ? t.differenceFailed : t.differenceLoading}</p>
      )}
    </div>
  );
}

/** Where a box sits in the picture, in words (左上角, 底部…). */
function placeOf(b: { x: number; y: number; w: number; h: number }): string {
  const third = (v: number, names: string) => names[v < 1 / 3 ? 0 : v > 2 / 3 ? 2 : 1];
  return t.positions[third(b.x + b.w / 2, 'lcr') + third(b.y + b.h / 2, 'tmb')] ?? '';
}

function Report({ report }: { report: EraseReport }) {
  const share = report.original_chars > 0 ? (report.residual_chars / report.original_chars) * 100 : null;
  return (
    <div className="vw-st-report" data-testid="erase-report">
      <Descriptions size="small" column={2} bordered>
        <Descriptions.Item label={t.residualChars}>
          <span data-testid="erase-residual-chars">{report.residual_chars}</span> {t.chars}
          {share != null && t.residualShare(report.original_chars, share.toFixed(1))}
        </Descriptions.Item>
        <Descriptions.Item label={t.darkResidue}>
          <span data-testid="erase-dark-count">{report.dark_residue.length}</span> {t.places}
        </Descriptions.Item>
        <Descriptions.Item label={t.secondPass}>
          {report.second_pass ? t.secondPassDone : t.secondPassSkipped}
        </Descriptions.Item>
        <Descriptions.Item label={t.methodEngine}>
          <span data-testid="erase-method-used">
            {report.method === 'fill' && report.unblended_share
              ? t.unblendShare(String(Math.floor(report.unblended_share * 100)))
              : report.method === 'fill' && report.temporal_share !== undefined
                ? t.fillShare(String(Math.floor(report.temporal_share * 100)), report.inpaint)
                : t.methods[report.method]}
          </span>{' '}
          · {report.engine_label}
        </Descriptions.Item>
        {report.watermarks && report.watermarks.length > 0 && (
          <Descriptions.Item label={t.watermarks} span={2}>
            <span data-testid="erase-watermarks">
              {report.watermarks
                .map((w) =>
                  t.watermarkAt(
                    placeOf(w.box),
                    formatDuration(w.start_ms / 1000),
                    formatDuration(w.end_ms / 1000),
                  ),
                )
                .join('；')}
            </span>
          </Descriptions.Item>
        )}
        {report.damage && report.damage.length > 0 && (
          <Descriptions.Item label={report.watermarks ? t.damageWatermark : t.damage}>
            <span data-testid="erase-damage">
              {(report.watermarks ? t.damageRing : t.damageShare)(
                (Math.max(...report.damage.map((d) => d.changed_share)) * 100).toFixed(1),
              )}
            </span>
          </Descriptions.Item>
        )}
      </Descriptions>
      {report.residual.length > 0 ? (
        <Table
          size="small"
          rowKey={(r) => `${r.start_ms}-${r.text}`}
          pagination={false}
          dataSource={report.residual}
          columns={[
            {
              title: t.time,
              render: (_, r) => `${formatDuration(r.start_ms / 1000)} – ${formatDuration(r.end_ms / 1000)}`,
            },
            { title: t.residualText, dataIndex: 'text' },
          ]}
          data-testid="erase-residual"
        />
      ) : (
        <Alert type="success" showIcon message={t.clean} data-testid="erase-clean" />
      )}
      {report.dark_residue.length > 0 && (
        <Alert
          type="warning"
          showIcon
          message={t.darkWarning(report.dark_residue.length)}
          description={report.dark_residue
            .slice(0, 5)
            .map((d) => t.darkAt(formatDuration(d.start_ms / 1000), d.mean_luma_delta.toFixed(0)))
            .join('；')}
          data-testid="erase-dark"
        />
      )}
    </div>
  );
}

/** A finished erase/watermark task: compare slider, the check report, download via the download center. */
export function EraseResult({ taskId, title }: { taskId: string; title: string }) {
  const { message } = useApp();
  const result = useCall(api.getEraseResult, { query: { task_id: taskId } }, { staleTime: 0 });
  const [view, setView] = useState<'compare' | 'difference'>('compare');
  if (!result.data) return result.isFetching ? <p className="vw-vt-muted">{t.loading}</p> : <Empty />;
  const { source_url: before, output_url: after, report } = result.data;
  return (
    <div className="vw-vt-step" data-testid="erase-result">
      {after && before && (
        <>
          <Segmented
            value={view}
            onChange={(v) => setView(v as 'compare' | 'difference')}
            options={(['compare', 'difference'] as const).map((k) => ({ value: k, label: t.views[k] }))}
            data-testid="erase-view"
          />
          {view === 'compare' ? (
            <CompareSlider before={before} after={after} />
          ) : (
            <DifferenceView taskId={taskId} report={report} />
          )}
        </>
      )}
      {report && <Report report={report} />}
      <div className="vw-vt-actions">
        <Button
          type="primary"
          icon={<DownloadOutlined />}
          disabled={!after}
          onClick={() => {
            startDownloads([
              {
                id: `${taskId}-mp4`,
                urlResolver: async () =>
                  (
                    await http.request(
                      api.getEraseResult,
                      { query: { task_id: taskId } },
                      { suppressError: true },
                    )
                  ).output_url,
                fileName: safeFileName(title),
                ext: 'mp4',
                downloadTaskType: 'video',
              },
            ]);
            message.success(t.queued);
          }}
          data-testid="erase-download"
        >
          {t.download}
        </Button>
        {report && (
          <Tag color={report.residual_chars === 0 ? 'success' : 'warning'}>
            {report.residual_chars === 0 ? t.noResidue : t.residue(report.residual_chars)}
          </Tag>
        )}
      </div>
    </div>
  );
}
