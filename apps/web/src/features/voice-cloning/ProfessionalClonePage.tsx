import type { MediaAsset, SampleCheckView } from '@vw/contract';
import { Alert, Button, Input, Select, Space, Tag } from 'antd';
import useApp from 'antd/es/app/useApp';
import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '@/lib/api.ts';
import { useCall, useCallMutation } from '@/lib/query/hooks.ts';
import { UploadDropzone } from '@/lib/upload/UploadDropzone.tsx';
import { zhCN } from '@/locales/zh-CN.ts';
import { type ConsentState, ConsentStep } from './ConsentStep.tsx';
import { formatMs, LANGUAGES, STATUS_COLORS, STATUS_NAMES } from './labels.ts';
import { SampleReport } from './SampleReport.tsx';
import './clone.css';

const MIN_MS = 30 * 60_000;
const t = zhCN.voiceCloning.pro;

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
      message.success(t.submitted);
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
        <h2>{zhCN.voiceCloning.professional}</h2>
        {quota && (
          <Tag color={noQuota ? 'error' : 'purple'}>
            {t.quota} {Math.max(0, quota.limit - quota.used)} / {quota.limit}
          </Tag>
        )}
      </div>
      {noQuota && <Alert type="warning" showIcon message={t.noQuota} />}
      <Alert type="info" showIcon message={trainer ? t.trainer : t.noTrainer} />
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
        <h3>{t.step1}</h3>
        <UploadDropzone
          accept="audio/*"
          acceptLabel={t.accept}
          onUploaded={(a) => setAssets((l) => [...l, a])}
        />
        <p data-testid="pro-total">
          {t.uploaded(assets.length, formatMs(total))}
          {total < MIN_MS && <span className="vw-vt-muted">{t.missing(formatMs(MIN_MS - total))}</span>}
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
            {t.checkEach}
          </Button>
        </Space>
        {check && <SampleReport check={check} fixedPairs={{}} onFixed={() => undefined} />}
      </section>
      <section className="vw-vt-step">
        <h3>{t.step2}</h3>
        <ConsentStep
          language={language}
          value={consent}
          onChange={onConsent}
          asrLabel={overview.data?.asr_label ?? ''}
        />
      </section>
      <section className="vw-vt-step">
        <h3>{t.step3}</h3>
        <Space>
          <Input
            placeholder={t.namePlaceholder}
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
            {t.submit}
          </Button>
        </Space>
      </section>
    </div>
  );
}
