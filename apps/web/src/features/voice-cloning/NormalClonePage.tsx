import { AudioOutlined, DeleteOutlined } from '@ant-design/icons';
import type { MediaAsset, SampleCheckView, VoiceCloneView } from '@vw/contract';
import { Alert, Button, Input, Radio, Select, Space, Tag } from 'antd';
import useApp from 'antd/es/app/useApp';
import { useCallback, useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '@/lib/api.ts';
import { loadVoices } from '@/lib/auth/session.ts';
import { useCall, useCallMutation } from '@/lib/query/hooks.ts';
import { MediaSourcePicker } from '@/lib/upload/MediaSourcePicker.tsx';
import { UploadLeaveGuard } from '@/lib/upload/UploadDropzone.tsx';
import { type UseUpload, useUpload } from '@/lib/upload/useUpload.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { type ConsentState, ConsentStep } from './ConsentStep.tsx';
import { LANGUAGES } from './labels.ts';
import { type FixedPair, SampleReport } from './SampleReport.tsx';
import './clone.css';

const ACCEPT = 'audio/*,video/webm';
const t = zhCN.voiceCloning.normal;
const tc = zhCN.voiceCloning.candidates;

/** After creation: the candidates, a preview of each, and the choice. */
function Candidates({ clone, onDone }: { clone: VoiceCloneView; onDone: (c: VoiceCloneView) => void }) {
  const [chosen, setChosen] = useState(clone.chosen);
  const [text, setText] = useState('');
  const [previews, setPreviews] = useState<Record<number, string>>({});
  const preview = useCallMutation(api.voiceClonePreview);
  const choose = useCallMutation(api.voiceCloneChoose, {
    invalidates: [api.voiceCloneOverview],
    onSuccess: (d) => {
      void loadVoices();
      onDone(d.clone);
    },
  });
  return (
    <div className="vw-clone-candidates" data-testid="clone-candidates">
      <Alert
        type="info"
        showIcon
        message={tc.engine(clone.engine_label)}
        description={clone.note}
        data-testid="clone-engine-note"
      />
      <Input
        placeholder={tc.textPlaceholder}
        value={text}
        maxLength={200}
        onChange={(e) => setText(e.target.value)}
      />
      <Radio.Group
        value={chosen}
        onChange={(e) => setChosen(e.target.value)}
        className="vw-clone-candidate-list"
      >
        {clone.candidates.map((c) => (
          <div key={c.index} className="vw-clone-candidate" data-testid="clone-candidate">
            <Radio value={c.index}>{tc.candidate(c.index + 1)}</Radio>
            <span className="vw-vt-muted">
              {tc.reference}
              {c.reference.source} {(c.reference.start_ms / 1000).toFixed(1)}–
              {(c.reference.end_ms / 1000).toFixed(1)} {tc.seconds}
            </span>
            <Button
              size="small"
              icon={<AudioOutlined />}
              loading={
                preview.isPending &&
                (preview.variables?.body as { candidate?: number } | undefined)?.candidate === c.index
              }
              onClick={() =>
                preview.mutate(
                  { body: { clone_id: clone.clone_id, candidate: c.index, text: text.trim() || undefined } },
                  { onSuccess: (d) => setPreviews((p) => ({ ...p, [c.index]: d.url })) },
                )
              }
              data-testid="clone-preview"
            >
              {tc.preview}
            </Button>
            {previews[c.index] && (
              // biome-ignore lint/a11y/useMediaCaption: synthesised preview
              <audio controls autoPlay src={previews[c.index]} data-testid="clone-preview-audio" />
            )}
          </div>
        ))}
      </Radio.Group>
      <Button
        type="primary"
        loading={choose.isPending}
        onClick={() => choose.mutate({ body: { clone_id: clone.clone_id, candidate: chosen } })}
        data-testid="clone-save"
      >
        {tc.save}
      </Button>
    </div>
  );
}

/** Step 1: the sample files, uploaded or recorded, removable one by one. */
function SamplesStep({
  assets,
  onAssets,
  upload,
}: {
  assets: MediaAsset[];
  onAssets: (update: (list: MediaAsset[]) => MediaAsset[]) => void;
  upload: UseUpload;
}) {
  return (
    <section className="vw-vt-step">
      <h3>{t.step1}</h3>
      <p className="vw-vt-muted">{t.tips}</p>
      {assets.length > 0 && (
        <ul className="vw-clone-assets" data-testid="clone-assets">
          {assets.map((a) => (
            <li key={a.asset_id}>
              <span>{a.name}</span>
              <Button
                size="small"
                type="text"
                icon={<DeleteOutlined />}
                aria-label={t.remove}
                onClick={() => onAssets((list) => list.filter((x) => x.asset_id !== a.asset_id))}
              />
            </li>
          ))}
        </ul>
      )}
      <MediaSourcePicker
        accept={ACCEPT}
        acceptLabel={t.accept}
        upload={upload}
        onPicked={(a) => {
          onAssets((list) => [...list, a]);
          upload.reset();
        }}
        testId="clone-source"
        recorderTestId="clone-sample-recorder"
      />
    </section>
  );
}

/** Step 4: the name, the engine (best by default) and the create button with what still stops it. */
function CreateStep({
  name,
  onName,
  engine,
  onEngine,
  engines,
  canCreate,
  hint,
  creating,
  onCreate,
}: {
  name: string;
  onName: (name: string) => void;
  engine: string | undefined;
  onEngine: (engine: string | undefined) => void;
  engines: Array<{ id: string; label: string; kind: string }>;
  canCreate: boolean;
  hint: string;
  creating: boolean;
  onCreate: () => void;
}) {
  return (
    <section className="vw-vt-step">
      <h3>{t.step4}</h3>
      <Space wrap>
        <Input
          placeholder={t.namePlaceholder}
          value={name}
          maxLength={40}
          onChange={(e) => onName(e.target.value)}
          data-testid="clone-name"
          style={{ width: 220 }}
        />
        <Select
          placeholder={t.enginePlaceholder}
          allowClear
          value={engine}
          onChange={onEngine}
          style={{ width: 240 }}
          options={engines.map((e) => ({ value: e.id, label: e.label }))}
          data-testid="clone-engine"
        />
      </Space>
      {engines.length > 0 && engines[0]?.kind === 'fitted' && (
        <Alert type="info" showIcon className="vw-clone-note" message={t.fittedOnly} />
      )}
      <Button
        type="primary"
        disabled={!canCreate}
        loading={creating}
        onClick={onCreate}
        data-testid="clone-create"
      >
        {t.create}
      </Button>
      {!canCreate && (
        <p className="vw-vt-muted" data-testid="clone-create-hint">
          {hint}
        </p>
      )}
    </section>
  );
}

/** Saved: the new voice, with the way to use it in text to speech. */
function SavedView({ saved }: { saved: VoiceCloneView }) {
  const navigate = useNavigate();
  return (
    <div className="vw-clone-page" data-testid="clone-saved">
      <Alert type="success" showIcon message={t.saved(saved.name)} description={saved.engine_label} />
      <Space>
        <Button
          type="primary"
          onClick={() => navigate(`/tts?voice_id=${encodeURIComponent(saved.voice_id)}`)}
          data-testid="clone-use-tts"
        >
          {t.useInTts}
        </Button>
        <Link to="/voice-cloning">{t.back}</Link>
      </Space>
    </div>
  );
}

/** Route /voice-cloning/normal-clone: fast clone from 10 s – 5 min of one speaker. */
export function Component() {
  const { message } = useApp();
  const overview = useCall(api.voiceCloneOverview);
  const upload = useUpload();
  const [assets, setAssets] = useState<MediaAsset[]>([]);
  const [check, setCheck] = useState<SampleCheckView | null>(null);
  const [fixedPairs, setFixedPairs] = useState<Record<string, FixedPair>>({});
  const [language, setLanguage] = useState('zh-CN');
  const [name, setName] = useState('');
  const [engine, setEngine] = useState<string | undefined>(undefined);
  const [consent, setConsent] = useState<ConsentState>({ accepted: false, sentence: '', recording: null });
  const [created, setCreated] = useState<VoiceCloneView | null>(null);
  const [saved, setSaved] = useState<VoiceCloneView | null>(null);

  const runCheck = useCallMutation(api.voiceCloneCheck, { onSuccess: (d) => setCheck(d.check) });
  const ids = assets.map((a) => a.asset_id);
  const idsKey = ids.join(',');
  // The report follows the files: checked again whenever the list changes.
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed by the id list
  useEffect(() => {
    setCheck(null);
    if (ids.length) runCheck.mutate({ body: { asset_ids: ids, kind: 'fast', language } });
  }, [idsKey, language]);

  const create = useCallMutation(api.voiceCloneCreate, {
    invalidates: [api.voiceCloneOverview],
    onSuccess: (d) => {
      setCreated(d.clone);
      void loadVoices();
      message.success(t.created);
    },
  });
  const onConsent = useCallback((v: ConsentState) => setConsent(v), []);

  const quota = overview.data?.quota.fast;
  const engines = (overview.data?.engines ?? []).filter((e) => e.available);
  const noQuota = !!quota && quota.used >= quota.limit;

  if (saved) return <SavedView saved={saved} />;
  if (created) {
    return (
      <div className="vw-clone-page">
        <h2>{t.chooseTitle}</h2>
        <Candidates clone={created} onDone={setSaved} />
      </div>
    );
  }

  const canCreate =
    !!check?.ok &&
    consent.accepted &&
    !!consent.recording &&
    name.trim().length > 0 &&
    !noQuota &&
    engines.length > 0;
  return (
    <div className="vw-clone-page" data-testid="normal-clone">
      <UploadLeaveGuard active={upload.active} />
      <div className="vw-vt-toolbar">
        <h2>{zhCN.voiceCloning.fast}</h2>
        {quota && (
          <Tag color={noQuota ? 'error' : 'blue'} data-testid="clone-quota">
            {t.quota} {Math.max(0, quota.limit - quota.used)} / {quota.limit}
          </Tag>
        )}
      </div>
      {noQuota && <Alert type="warning" showIcon message={t.noQuota} />}

      <SamplesStep assets={assets} onAssets={setAssets} upload={upload} />

      <section className="vw-vt-step">
        <h3>{t.step2}</h3>
        <Select value={language} onChange={setLanguage} options={LANGUAGES} style={{ width: 140 }} />
        {runCheck.isPending && (
          <p className="vw-vt-muted" data-testid="clone-checking">
            {t.checking}
          </p>
        )}
        {!assets.length && <p className="vw-vt-muted">{t.addSamples}</p>}
        {check && (
          <SampleReport
            check={check}
            fixedPairs={fixedPairs}
            onFixed={(oldId, pair) => {
              setFixedPairs((p) => ({ ...p, [oldId]: pair }));
              // the fixed file replaces the original in the sample; the original stays playable above
              setAssets((list) =>
                list.map((a) =>
                  a.asset_id === oldId
                    ? { ...a, asset_id: pair.after.asset_id, name: pair.after.name, url: pair.after.url }
                    : a,
                ),
              );
            }}
          />
        )}
      </section>

      <section className="vw-vt-step">
        <h3>{t.step3}</h3>
        <ConsentStep
          language={language}
          value={consent}
          onChange={onConsent}
          asrLabel={overview.data?.asr_label ?? ''}
        />
      </section>

      <CreateStep
        name={name}
        onName={setName}
        engine={engine}
        onEngine={setEngine}
        engines={engines}
        canCreate={canCreate}
        hint={
          !check?.ok
            ? t.needCheck
            : !consent.accepted || !consent.recording
              ? t.needConsent
              : !name.trim()
                ? t.needName
                : ''
        }
        creating={create.isPending}
        onCreate={() =>
          consent.recording &&
          create.mutate({
            body: {
              name: name.trim(),
              language,
              asset_ids: ids,
              engine,
              candidates: 3,
              consent: {
                accepted: true,
                sentence: consent.sentence,
                recording_asset_id: consent.recording.asset_id,
              },
            },
          })
        }
      />
    </div>
  );
}
