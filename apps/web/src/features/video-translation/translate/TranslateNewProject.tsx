import { SettingOutlined } from '@ant-design/icons';
import type { MediaAsset } from '@vw/contract';
import { Alert, Button, Checkbox, Segmented, Select } from 'antd';
import useApp from 'antd/es/app/useApp';
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { formatCredits } from '@/features/credits/format.ts';
import { api } from '@/lib/api.ts';
import { invalidateCall, useCall, useCallMutation } from '@/lib/query/hooks.ts';
import { TaskProgress } from '@/lib/tasks/TaskProgress.tsx';
import { useTask } from '@/lib/tasks/useTask.ts';
import { type SubtitleFile, SubtitlePicker } from '../dubbing/DubNewProject.tsx';
import { VoiceSelect } from '../dubbing/VoiceSelect.tsx';
import { editorPath } from '../stt/SttNewProject.tsx';
import { type EditorBox, RegionEditor } from '../subtitles/RegionEditor.tsx';
import { useFrames, VideoStep } from '../subtitles/shared.tsx';
import { useToolAvailability } from '../useToolAvailability.ts';
import { type WizardState, wizardBody, wizardMissing } from './model.ts';
import { PreferencesDrawer, useTranslationPrefs } from './PreferencesDrawer.tsx';
import { vt } from './strings.ts';
import '../subtitles/subtitles.css';
import './translate.css';

type Item = { target_language: string; task_id: string; project_id: string };

/** One target language's task: live progress, then the editor. */
function StartedItem({ item, label }: { item: Item; label: string }) {
  const navigate = useNavigate();
  const { task } = useTask(item.task_id);
  const done = task?.status === 'succeeded' || task?.status === 'failed' || task?.status === 'paused';
  return (
    <div className="vw-vt-started-item" data-testid="vt-started-item">
      <strong>{label}</strong>
      {task && <TaskProgress task={task} />}
      {done && (
        <Button
          type="primary"
          onClick={() => navigate(editorPath(item.project_id))}
          data-testid="vt-open-editor"
        >
          {vt.openEditor}
        </Button>
      )}
    </div>
  );
}

/**
 * 视频翻译's new project: video → languages → subtitle source (speech, on-screen with the region
 * drawn on a frame, or a file) → splitting, erasing, dubbing, subtitles of the output, preferences
 * and glossary, review pauses → the estimate → `videoTranslationCreate` (one task per target
 * language) → progress → 打开编辑器.
 */
export function TranslateNewProject({ onBack }: { onBack: () => void }) {
  const { message } = useApp();
  const availability = useToolAvailability('translate');
  const languages = useCall(api.videoTranslationLanguages, undefined, { staleTime: 60_000 });
  const caps = useCall(api.getToolCapabilities, undefined, { staleTime: 60_000, suppressError: true });
  const eraseAllowed = caps.data?.features.subtitle_erase !== false;
  const saved = useTranslationPrefs();
  // The voice each speaker name had in this user's earlier projects (kept unless changed here).
  const remembered = useCall(api.speakerVoicesGet, undefined, { staleTime: 60_000, suppressError: true });
  const [asset, setAsset] = useState<MediaAsset | null>(null);
  const [atMs, setAtMs] = useState<number | null>(null);
  const [boxes, setBoxes] = useState<EditorBox[] | null>(null);
  const [subtitle, setSubtitle] = useState<SubtitleFile | null>(null);
  const [prefsOpen, setPrefsOpen] = useState(false);
  const [started, setStarted] = useState<Item[] | null>(null);
  const [form, setForm] = useState<Omit<WizardState, 'assetId' | 'regions' | 'subtitle'>>({
    sourceLanguage: 'auto',
    targets: [],
    subtitleSource: 'asr',
    split: true,
    useGlossary: true,
    reviewAfterRecognition: false,
    reviewAfterTranslation: false,
    erase: false,
    eraseMethod: 'fast',
    dub: true,
    voiceId: '',
    speakerVoices: {},
    cloneSpeakers: false,
    cloneConsent: false,
    subtitleLines: 'bilingual',
    subtitleMode: 'burn',
    lipSync: false,
  });
  const set = <K extends keyof typeof form>(k: K, v: (typeof form)[K]) => setForm((f) => ({ ...f, [k]: v }));
  const langs = languages.data;
  // The first listed target language is preselected.
  useEffect(() => {
    if (langs?.target[0] && form.targets.length === 0)
      setForm((f) => (f.targets.length ? f : { ...f, targets: [langs.target[0]!.code] }));
  }, [langs, form.targets.length]);
  // Without speech recognition the on-screen subtitles are the source.
  useEffect(() => {
    if (langs && !langs.asr.available)
      setForm((f) => (f.subtitleSource === 'asr' ? { ...f, subtitleSource: 'ocr' } : f));
  }, [langs]);

  const needsRegions = !!asset?.has_video && (form.subtitleSource === 'ocr' || form.erase);
  const frames = useFrames(needsRegions ? asset : null, atMs);
  useEffect(() => {
    if (frames.detect.data && boxes === null) setBoxes(frames.initialBoxes);
  }, [frames.detect.data, frames.initialBoxes, boxes]);
  const pick = useCallback((a: MediaAsset | null) => {
    setAsset(a);
    setBoxes(null);
    setAtMs(null);
  }, []);

  const state: WizardState = {
    ...form,
    assetId: asset?.status === 'ready' ? asset.asset_id : '',
    regions: boxes ?? [],
    subtitle: subtitle ? { name: subtitle.name, text: subtitle.text } : null,
  };
  const missing = wizardMissing(state);
  // The query key is the body's value, so a body made each render is one request.
  const body = wizardBody(state);
  const estimate = useCall(
    api.videoTranslationEstimate,
    { body },
    { enabled: !missing && availability.available, suppressError: true, staleTime: 0 },
  );
  const create = useCallMutation(api.videoTranslationCreate, {
    onSuccess: (r) => {
      setStarted(r.items.length ? r.items : [{ target_language: form.targets[0]!, ...r }]);
      message.success(vt.started);
      void invalidateCall(api.listProjects);
    },
  });

  const nameOf = (code: string) => langs?.target.find((l) => l.code === code)?.name ?? code;
  if (started)
    return (
      <div className="vw-vt-started" data-testid="vt-started">
        {started.map((item) => (
          <StartedItem key={item.task_id} item={item} label={nameOf(item.target_language)} />
        ))}
        <div className="vw-vt-actions">
          <Button
            onClick={() => {
              pick(null);
              setSubtitle(null);
              setStarted(null);
            }}
            data-testid="vt-another"
          >
            {vt.another}
          </Button>
          <Button onClick={onBack}>{vt.back}</Button>
        </div>
      </div>
    );

  const off = !availability.available;
  return (
    <div className="vw-vt-new" data-testid="vt-new">
      {off && <Alert type="warning" showIcon message={availability.reason} data-testid="vt-unavailable" />}
      {langs && !langs.llm.configured && (
        <Alert type="info" showIcon message={vt.noLlm} data-testid="vt-no-llm" />
      )}
      <section className="vw-vt-step">
        <h3>{vt.video}</h3>
        <VideoStep asset={asset} onAsset={pick} disabled={off} testId="vt" />
      </section>

      <section className="vw-vt-step vw-vt-options">
        <div className="vw-vt-field">
          <span id="vt-source-lang">{vt.sourceLanguage}</span>
          <Select
            aria-labelledby="vt-source-lang"
            value={form.sourceLanguage}
            onChange={(v) => set('sourceLanguage', v)}
            options={(langs?.source ?? [{ code: 'auto', name: '自动识别' }]).map((l) => ({
              value: l.code,
              label: l.name,
            }))}
            style={{ width: 140 }}
            data-testid="vt-source-language"
          />
        </div>
        <div className="vw-vt-field">
          <span id="vt-target-lang">{vt.targetLanguages}</span>
          <Select
            mode="multiple"
            aria-labelledby="vt-target-lang"
            value={form.targets}
            onChange={(v) => set('targets', v)}
            placeholder={vt.targetPlaceholder}
            options={(langs?.target ?? []).map((l) => ({ value: l.code, label: l.name }))}
            style={{ minWidth: 260 }}
            maxCount={5}
            data-testid="vt-targets"
          />
        </div>
        {langs?.llm.configured && (
          <span className="vw-vt-muted" data-testid="vt-llm">
            {vt.llmReady(langs.llm.model)}
          </span>
        )}
      </section>

      <section className="vw-vt-step">
        <h3>{vt.subtitleSource}</h3>
        <Segmented
          value={form.subtitleSource}
          onChange={(v) => set('subtitleSource', v as WizardState['subtitleSource'])}
          options={(['asr', 'ocr', 'subtitle'] as const).map((k) => ({
            value: k,
            label: k === 'ocr' && langs?.ocr_label ? `${vt.sources[k]}（${langs.ocr_label}）` : vt.sources[k],
            disabled: k === 'asr' && langs?.asr.available === false,
          }))}
          data-testid="vt-subtitle-source"
        />
        {langs?.asr.available === false && <p className="vw-vt-muted">{langs.asr.reason || vt.noAsr}</p>}
        {form.subtitleSource === 'subtitle' && (
          <SubtitlePicker value={subtitle} onChange={setSubtitle} testId="vt-subtitle" />
        )}
        <div className="vw-vt-checks">
          <Checkbox
            checked={form.split}
            onChange={(e) => set('split', e.target.checked)}
            data-testid="vt-split"
          >
            {vt.split}
          </Checkbox>
        </div>
      </section>

      <section className="vw-vt-step">
        <h3>{vt.erase}</h3>
        <Checkbox
          checked={form.erase}
          disabled={!eraseAllowed}
          onChange={(e) => set('erase', e.target.checked)}
          data-testid="vt-erase"
        >
          {eraseAllowed ? vt.eraseOn : `${vt.eraseOn}（${vt.eraseNotAllowed}）`}
        </Checkbox>
        {form.erase && (
          <Select
            value={form.eraseMethod}
            onChange={(v) => set('eraseMethod', v)}
            options={(['fast', 'blur'] as const).map((k) => ({ value: k, label: vt.eraseMethods[k] }))}
            style={{ width: 150, marginLeft: 12 }}
            size="small"
          />
        )}
      </section>

      {needsRegions && asset && (
        <section className="vw-vt-step">
          <h3>{vt.ocrRegions}</h3>
          {frames.detect.isFetching && <p className="vw-vt-muted">{vt.detecting}</p>}
          {frames.detect.data && (
            <p className="vw-vt-muted" data-testid="vt-detected">
              {vt.detected(frames.detect.data.regions.length, frames.detect.data.engine_label)}
            </p>
          )}
          <RegionEditor
            frameUrl={frames.frameUrl}
            aspect={(asset.width ?? 16) / (asset.height ?? 9)}
            boxes={boxes ?? []}
            onChange={setBoxes}
            durationMs={asset.duration_ms ?? 0}
            atMs={frames.frameAt}
            onSeek={setAtMs}
            loading={frames.loading}
            testId="vt-regions"
          />
        </section>
      )}

      <h3 className="vw-vt-subhead">{vt.dub}</h3>
      <section className="vw-vt-step vw-vt-options">
        <Checkbox checked={form.dub} onChange={(e) => set('dub', e.target.checked)} data-testid="vt-dub">
          {vt.dubOn}
        </Checkbox>
        {form.dub && (
          <div className="vw-vt-field">
            <span>{vt.voice}</span>
            <VoiceSelect
              value={form.voiceId}
              onChange={(v) => set('voiceId', v ?? '')}
              allowEmpty
              emptyLabel="按目标语言自动选择"
              testId="vt-voice"
            />
          </div>
        )}
        {form.dub &&
          form.subtitleSource === 'subtitle' &&
          (subtitle?.speakers ?? []).map((name) => (
            <div className="vw-vt-field" key={name} data-testid="vt-speaker-voice">
              <span>{name}</span>
              <VoiceSelect
                value={form.speakerVoices[name] ?? remembered.data?.voices[name] ?? ''}
                allowEmpty
                emptyLabel={vt.voice}
                onChange={(v) => {
                  const next = { ...form.speakerVoices };
                  if (v) next[name] = v;
                  else delete next[name];
                  set('speakerVoices', next);
                }}
              />
            </div>
          ))}
        {form.dub && langs?.clone.available && (
          <Checkbox checked={form.cloneSpeakers} onChange={(e) => set('cloneSpeakers', e.target.checked)}>
            {vt.cloneSpeakers}
            {langs.clone.engine_label && <span className="vw-vt-muted">（{langs.clone.engine_label}）</span>}
          </Checkbox>
        )}
        {form.dub && langs?.clone.available && form.cloneSpeakers && (
          <Checkbox
            checked={form.cloneConsent}
            onChange={(e) => set('cloneConsent', e.target.checked)}
            data-testid="vt-clone-consent"
          >
            {vt.cloneConsent}
          </Checkbox>
        )}
        {langs?.lip_sync.available && (
          <Checkbox checked={form.lipSync} onChange={(e) => set('lipSync', e.target.checked)}>
            {vt.lipSync}
          </Checkbox>
        )}
      </section>

      <section className="vw-vt-step vw-vt-options">
        <div className="vw-vt-field">
          <span>{vt.subtitles}</span>
          <Segmented
            value={form.subtitleLines}
            onChange={(v) => set('subtitleLines', v as WizardState['subtitleLines'])}
            options={(['bilingual', 'target', 'none'] as const).map((k) => ({
              value: k,
              label: vt.subtitleLines[k],
            }))}
            data-testid="vt-subtitle-lines"
          />
        </div>
        {form.subtitleLines !== 'none' && (
          <Segmented
            value={form.subtitleMode}
            onChange={(v) => set('subtitleMode', v as WizardState['subtitleMode'])}
            options={(['burn', 'soft'] as const).map((k) => ({ value: k, label: vt.subtitleModes[k] }))}
            data-testid="vt-subtitle-mode"
          />
        )}
      </section>

      <section className="vw-vt-step vw-vt-options">
        <Button icon={<SettingOutlined />} onClick={() => setPrefsOpen(true)} data-testid="vt-prefs-open">
          {vt.preferences}
        </Button>
        <span className="vw-vt-muted" data-testid="vt-prefs-summary">
          {vt.preferencesSummary(saved.preferences.style, saved.entries.length)}
        </span>
        <Checkbox checked={form.useGlossary} onChange={(e) => set('useGlossary', e.target.checked)}>
          {vt.useGlossary}
        </Checkbox>
      </section>

      <section className="vw-vt-step vw-vt-options">
        <span>{vt.review}</span>
        <Checkbox
          checked={form.reviewAfterRecognition}
          onChange={(e) => set('reviewAfterRecognition', e.target.checked)}
          data-testid="vt-review-recognition"
        >
          {vt.reviewAfterRecognition}
        </Checkbox>
        <Checkbox
          checked={form.reviewAfterTranslation}
          onChange={(e) => set('reviewAfterTranslation', e.target.checked)}
          data-testid="vt-review-translation"
        >
          {vt.reviewAfterTranslation}
        </Checkbox>
      </section>

      <section className="vw-vt-step vw-vt-footer">
        <div className="vw-vt-estimate" data-testid="vt-estimate">
          {estimate.data && (
            <>
              <span>{vt.estimate}</span>
              <strong data-testid="vt-estimate-credits">{formatCredits(estimate.data.credits)} 积分</strong>
              {form.targets.length > 1 && (
                <span className="vw-vt-muted">
                  {vt.perTarget(form.targets.length, formatCredits(estimate.data.per_target))}
                </span>
              )}
              <span className="vw-vt-muted">{vt.balance(formatCredits(estimate.data.balance))}</span>
              {!estimate.data.sufficient && <span className="vw-vt-error">{vt.insufficient}</span>}
            </>
          )}
          {missing && asset && <span className="vw-vt-muted">{missing}</span>}
        </div>
        <div className="vw-vt-actions">
          <Button onClick={onBack}>{vt.back}</Button>
          {off ? (
            <span className="vw-vt-error" data-testid="vt-reason">
              {availability.reason}
            </span>
          ) : (
            <Button
              type="primary"
              disabled={!!missing}
              loading={create.isPending}
              onClick={() => create.mutate({ body })}
              data-testid="vt-start"
            >
              {vt.start}
            </Button>
          )}
        </div>
      </section>
      <PreferencesDrawer open={prefsOpen} onClose={() => setPrefsOpen(false)} />
    </div>
  );
}
