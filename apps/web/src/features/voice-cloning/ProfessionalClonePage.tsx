import type { MediaAsset, SampleCheckView } from '@vw/contract';
import { Alert, Button, Input, Select, Space, Tag } from 'antd';
import useApp from 'antd/es/app/useApp';
import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '@/lib/api.ts';
import { useCall, useCallMutation } from '@/lib/query/hooks.ts';
import { UploadDropzone } from '@/lib/upload/UploadDropzone.tsx';
import { type ConsentState, ConsentStep } from './ConsentStep.tsx';
import { formatMs, LANGUAGES, STATUS_COLORS, STATUS_NAMES } from './labels.ts';
import { SampleReport } from './SampleReport.tsx';
import './clone.css';

const MIN_MS = 30 * 60_000;

/** Route /voice-cloning/professional-clone: a ≥ 30 min dataset, per-file checks, then training. */
export function Component() {
  const { message } = useApp();
  const navigate = useNavigate();
  const overview = useCall(api.voiceCloneOverview, undefined, {
    refetchInterval: (q) =>
      q.state.data?.clones.some((c) => c.status === 'queued' || c.status === 'training') ? 5000 : false,
  });
  const [assets, setAssets] = useState<MediaAsset[]>([]);
  const [check, setCheck] = useState<SampleCheckView | null>(null);
  const [language, setLanguage] = useState('zh-CN');
  const [name, setName] = useState('');
  const [consent, setConsent] = useState<ConsentState>({ accepted: false, sentence: '', recording: null });
  const onConsent = useCallback((v: ConsentState) => setConsent(v), []);
  const runCheck = useCallMutation(api.voiceCloneCheck, { onSuccess: (d) => setCheck(d.check) });
  const create = useCallMutation(api.voiceCloneProfessionalCreate, {
    invalidates: [api.voiceCloneOverview],
    onSuccess: () => {
      message.success('已提交，完成后会通知你');
      navigate('/voice-cloning');
    },
  });
  const total = assets.reduce((n, a) => n + (a.duration_ms ?? 0), 0);
  const quota = overview.data?.quota.professional;
  const noQuota = !!quota && quota.used >= quota.limit;
  const trainer = overview.data?.trainer_label;
  const pro = (overview.data?.clones ?? []).filter((c) => c.kind === 'professional');

  return (
    <div className="vw-clone-page" data-testid="professional-clone">
      <div className="vw-vt-toolbar">
        <h2>专业克隆</h2>
        {quota && (
          <Tag color={noQuota ? 'error' : 'purple'}>
            剩余专业克隆次数 {Math.max(0, quota.limit - quota.used)} / {quota.limit}
          </Tag>
        )}
      </div>
      {noQuota && (
        <Alert type="warning" showIcon message="当前会员没有专业克隆次数：请升级到专业版或企业版" />
      )}
      <Alert
        type="info"
        showIcon
        message={
          trainer
            ? '已配置训练服务：提交后进入排队与训练，完成后通知你。'
            : '本站未开启训练服务：将用可用引擎中最好的多参考零样本方式生成声音，并如实标注。'
        }
      />
      {pro.length > 0 && (
        <ul className="vw-clone-assets" data-testid="pro-clones">
          {pro.map((c) => (
            <li key={c.clone_id}>
              <strong>{c.name}</strong>
              <Tag color={STATUS_COLORS[c.status]}>{STATUS_NAMES[c.status]}</Tag>
              <span className="vw-vt-muted">{c.error ?? c.note}</span>
            </li>
          ))}
        </ul>
      )}
      <section className="vw-vt-step">
        <h3>1. 上传数据集（至少 30 分钟，建议 1 小时以上，多个文件）</h3>
        <UploadDropzone
          accept="audio/*"
          acceptLabel="MP3、WAV、M4A、FLAC"
          onUploaded={(a) => setAssets((l) => [...l, a])}
        />
        <p data-testid="pro-total">
          已上传 {assets.length} 个文件，共 {formatMs(total)}
          {total < MIN_MS && <span className="vw-vt-muted">（还差 {formatMs(MIN_MS - total)}）</span>}
        </p>
        <Space>
          <Select value={language} onChange={setLanguage} options={LANGUAGES} style={{ width: 140 }} />
          <Button
            disabled={!assets.length}
            loading={runCheck.isPending}
            onClick={() =>
              runCheck.mutate({
                body: { asset_ids: assets.map((a) => a.asset_id), kind: 'professional', language },
              })
            }
          >
            逐个文件检测
          </Button>
        </Space>
        {check && <SampleReport check={check} fixedPairs={{}} onFixed={() => undefined} />}
      </section>
      <section className="vw-vt-step">
        <h3>2. 授权确认</h3>
        <ConsentStep
          language={language}
          value={consent}
          onChange={onConsent}
          asrLabel={overview.data?.asr_label ?? ''}
        />
      </section>
      <section className="vw-vt-step">
        <h3>3. 提交</h3>
        <Space>
          <Input
            placeholder="声音名称"
            value={name}
            maxLength={40}
            onChange={(e) => setName(e.target.value)}
          />
          <Button
            type="primary"
            disabled={noQuota || total < MIN_MS || !consent.accepted || !consent.recording || !name.trim()}
            loading={create.isPending}
            onClick={() =>
              consent.recording &&
              create.mutate({
                body: {
                  name: name.trim(),
                  language,
                  asset_ids: assets.map((a) => a.asset_id),
                  consent: {
                    accepted: true,
                    sentence: consent.sentence,
                    recording_asset_id: consent.recording.asset_id,
                  },
                },
              })
            }
          >
            提交专业克隆
          </Button>
        </Space>
      </section>
    </div>
  );
}
