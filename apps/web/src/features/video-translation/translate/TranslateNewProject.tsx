import { SettingOutlined } from '@ant-design/icons';
import { Alert, Button, Segmented, Select } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { formatCredits } from '@/features/credits/format.ts';
import { api } from '@/lib/api.ts';
import type { DataOf } from '@/lib/http/client.ts';
import { useCall, useCallMutation } from '@/lib/query/hooks.ts';
import { TaskProgress } from '@/lib/tasks/TaskProgress.tsx';
import { useTask } from '@/lib/tasks/useTask.ts';
import { VoiceSelect } from '../dubbing/VoiceSelect.tsx';
import { FormCheck, SelectField } from '../project/fields.tsx';
import { MediaStep } from '../project/MediaStep.tsx';
import { CreditEstimate, NewProjectShell } from '../project/NewProjectShell.tsx';
import { RegionEditor } from '../project/RegionEditor.tsx';
import { SubtitlePicker } from '../project/SubtitlePicker.tsx';
import type { SubtitleFile } from '../project/subtitleFile.ts';
import { editorPath, type SetField, useToolProject } from '../project/useToolProject.ts';
import { useVideoRegions } from '../project/useVideoRegions.ts';
import { type WizardState, wizardBody, wizardMissing } from './model.ts';
import { PreferencesDrawer, useTranslationPrefs } from './PreferencesDrawer.tsx';
import '../subtitles/subtitles.css';
import './translate.css';
import { zhCN } from '@/locales/zh-CN.ts';

const vt = zhCN.videoTranslate;

type Item = { target_language: string; task_id: string; project_id: string };
/** The wizard's choices; the video, its regions and a subtitle file are picked beside them. */
type Form = Omit<WizardState, 'assetId' | 'regions' | 'subtitle'>;
type Languages = DataOf<typeof api.videoTranslationLanguages>;
type StepProps = { form: Form; set: SetField<Form>; langs: Languages | undefined };

const INITIAL: Form = {
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
};

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
  const project = useToolProject<Form, Item[]>('translate', INITIAL, vt.started);
  const { form, set, setForm } = project;
  const languages = useCall(api.videoTranslationLanguages, undefined, { staleTime: 60_000 });
  const langs = languages.data;
  const [subtitle, setSubtitle] = useState<SubtitleFile | null>(null);
  const regions = useVideoRegions({ wanted: form.subtitleSource === 'ocr' || form.erase });
  const { asset } = regions;
  // The first listed target language is preselected.
  useEffect(() => {
    if (langs?.target[0] && form.targets.length === 0)
      setForm((f) => (f.targets.length ? f : { ...f, targets: [langs.target[0]!.code] }));
  }, [langs, form.targets.length, setForm]);
  // Without speech recognition the on-screen subtitles are the source.
  useEffect(() => {
    if (langs && !langs.asr.available)
      setForm((f) => (f.subtitleSource === 'asr' ? { ...f, subtitleSource: 'ocr' } : f));
  }, [langs, setForm]);

  const state: WizardState = {
    ...form,
    assetId: asset?.status === 'ready' ? asset.asset_id : '',
    regions: regions.boxes,
    subtitle: subtitle ? { name: subtitle.name, text: subtitle.text } : null,
  };
  const missing = wizardMissing(state);
  // The query key is the body's value, so a body made each render is one request.
  const body = wizardBody(state);
  const estimate = useCall(
    api.videoTranslationEstimate,
    { body },
    { enabled: !missing && !project.off, suppressError: true, staleTime: 0 },
  );
  const create = useCallMutation(api.videoTranslationCreate, {
    onSuccess: (r) =>
      project.onStarted(r.items.length ? r.items : [{ target_language: form.targets[0]!, ...r }]),
  });

  if (project.started)
    return (
      <div className="vw-vt-started" data-testid="vt-started">
        {project.started.map((item) => (
          <StartedItem
            key={item.task_id}
            item={item}
            label={langs?.target.find((l) => l.code === item.target_language)?.name ?? item.target_language}
          />
        ))}
        <div className="vw-vt-actions">
          <Button
            onClick={() => {
              regions.pick(null);
              setSubtitle(null);
              project.clearStarted();
            }}
            data-testid="vt-another"
          >
            {vt.another}
          </Button>
          <Button onClick={onBack}>{vt.back}</Button>
        </div>
      </div>
    );

  const needsRegions = !!asset?.has_video && (form.subtitleSource === 'ocr' || form.erase);
  const steps = { form, set, langs };
  return (
    <NewProjectShell
      prefix="vt"
      availability={project.availability}
      reasonInFooter
      estimate={
        <CreditEstimate
          testId="vt-estimate"
          shown={!!estimate.data}
          data={estimate.data}
          text={{
            label: vt.estimate,
            credits: vt.credits,
            balance: vt.balance,
            insufficient: vt.insufficient,
          }}
          detail={
            estimate.data &&
            form.targets.length > 1 && (
              <span className="vw-vt-muted">
                {vt.perTarget(form.targets.length, formatCredits(estimate.data.per_target))}
              </span>
            )
          }
        >
          {missing && asset && <span className="vw-vt-muted">{missing}</span>}
        </CreditEstimate>
      }
      onBack={onBack}
      start={{
        label: vt.start,
        disabled: !!missing,
        loading: create.isPending,
        onClick: () => create.mutate({ body }),
      }}
    >
      {langs && !langs.llm.configured && (
        <Alert type="info" showIcon message={vt.noLlm} data-testid="vt-no-llm" />
      )}
      <MediaStep title={vt.video} asset={asset} onAsset={regions.pick} disabled={project.off} testId="vt" />
      <LanguagesStep {...steps} />
      <SourceStep {...steps} subtitle={subtitle} onSubtitle={setSubtitle} />
      <EraseStep {...steps} />
      {needsRegions && asset && (
        <section className="vw-vt-step">
          <h3>{vt.ocrRegions}</h3>
          {regions.frames.detect.isFetching && <p className="vw-vt-muted">{vt.detecting}</p>}
          {regions.frames.detect.data && (
            <p className="vw-vt-muted" data-testid="vt-detected">
              {vt.detected(
                regions.frames.detect.data.regions.length,
                regions.frames.detect.data.engine_label,
              )}
            </p>
          )}
          <RegionEditor
            frameUrl={regions.frames.frameUrl}
            aspect={(asset.width ?? 16) / (asset.height ?? 9)}
            boxes={regions.boxes}
            onChange={regions.setBoxes}
            durationMs={asset.duration_ms ?? 0}
            atMs={regions.frames.frameAt}
            onSeek={regions.setAtMs}
            loading={regions.frames.loading}
            testId="vt-regions"
          />
        </section>
      )}
      <DubStep {...steps} speakers={form.subtitleSource === 'subtitle' ? (subtitle?.speakers ?? []) : []} />
      <OutputStep {...steps} />
      <PreferencesStep {...steps} />
      <ReviewStep {...steps} />
    </NewProjectShell>
  );
}

function LanguagesStep({ form, set, langs }: StepProps) {
  return (
    <section className="vw-vt-step vw-vt-options">
      <SelectField
        label={vt.sourceLanguage}
        labelId="vt-source-lang"
        value={form.sourceLanguage}
        onChange={(v) => set('sourceLanguage', v)}
        options={(langs?.source ?? [{ code: 'auto', name: vt.autoDetect }]).map((l) => ({
          value: l.code,
          label: l.name,
        }))}
        style={{ width: 140 }}
        data-testid="vt-source-language"
      />
      <SelectField
        label={vt.targetLanguages}
        labelId="vt-target-lang"
        mode="multiple"
        value={form.targets}
        onChange={(v) => set('targets', v)}
        placeholder={vt.targetPlaceholder}
        options={(langs?.target ?? []).map((l) => ({ value: l.code, label: l.name }))}
        style={{ minWidth: 260 }}
        maxCount={5}
        data-testid="vt-targets"
      />
      {langs?.llm.configured && (
        <span className="vw-vt-muted" data-testid="vt-llm">
          {vt.llmReady(langs.llm.model)}
        </span>
      )}
    </section>
  );
}

function SourceStep({
  form,
  set,
  langs,
  subtitle,
  onSubtitle,
}: StepProps & { subtitle: SubtitleFile | null; onSubtitle: (f: SubtitleFile | null) => void }) {
  return (
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
        <SubtitlePicker value={subtitle} onChange={onSubtitle} testId="vt-subtitle" />
      )}
      <div className="vw-vt-checks">
        <FormCheck form={form} set={set} name="split" testId="vt-split">
          {vt.split}
        </FormCheck>
      </div>
    </section>
  );
}

function EraseStep({ form, set }: StepProps) {
  const caps = useCall(api.getToolCapabilities, undefined, { staleTime: 60_000, suppressError: true });
  const eraseAllowed = caps.data?.features.subtitle_erase !== false;
  return (
    <section className="vw-vt-step">
      <h3>{vt.erase}</h3>
      <FormCheck form={form} set={set} name="erase" disabled={!eraseAllowed} testId="vt-erase">
        {eraseAllowed ? vt.eraseOn : `${vt.eraseOn}（${vt.eraseNotAllowed}）`}
      </FormCheck>
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
  );
}

/** Dubbing the translation: a voice, one per speaker the subtitle file names, cloning, lip sync. */
function DubStep({ form, set, langs, speakers }: StepProps & { speakers: string[] }) {
  // The voice each speaker name had in this user's earlier projects (kept unless changed here).
  const remembered = useCall(api.speakerVoicesGet, undefined, { staleTime: 60_000, suppressError: true });
  return (
    <>
      <h3 className="vw-vt-subhead">{vt.dub}</h3>
      <section className="vw-vt-step vw-vt-options">
        <FormCheck form={form} set={set} name="dub" testId="vt-dub">
          {vt.dubOn}
        </FormCheck>
        {form.dub && (
          <div className="vw-vt-field">
            <span>{vt.voice}</span>
            <VoiceSelect
              value={form.voiceId}
              onChange={(v) => set('voiceId', v ?? '')}
              allowEmpty
              emptyLabel={vt.voiceByTarget}
              testId="vt-voice"
            />
          </div>
        )}
        {form.dub &&
          speakers.map((name) => (
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
          <FormCheck form={form} set={set} name="cloneSpeakers">
            {vt.cloneSpeakers}
            {langs.clone.engine_label && <span className="vw-vt-muted">（{langs.clone.engine_label}）</span>}
          </FormCheck>
        )}
        {form.dub && langs?.clone.available && form.cloneSpeakers && (
          <FormCheck form={form} set={set} name="cloneConsent" testId="vt-clone-consent">
            {vt.cloneConsent}
          </FormCheck>
        )}
        {langs?.lip_sync.available && (
          <FormCheck form={form} set={set} name="lipSync">
            {vt.lipSync}
          </FormCheck>
        )}
      </section>
    </>
  );
}

/** The subtitles of the finished video: which lines, burned or soft. */
function OutputStep({ form, set }: StepProps) {
  return (
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
  );
}

/** The saved translation preferences and glossary (edited in the drawer), and whether to use the glossary. */
function PreferencesStep({ form, set }: StepProps) {
  const saved = useTranslationPrefs();
  const [open, setOpen] = useState(false);
  return (
    <section className="vw-vt-step vw-vt-options">
      <Button icon={<SettingOutlined />} onClick={() => setOpen(true)} data-testid="vt-prefs-open">
        {vt.preferences}
      </Button>
      <span className="vw-vt-muted" data-testid="vt-prefs-summary">
        {vt.preferencesSummary(saved.preferences.style, saved.entries.length)}
      </span>
      <FormCheck form={form} set={set} name="useGlossary">
        {vt.useGlossary}
      </FormCheck>
      <PreferencesDrawer open={open} onClose={() => setOpen(false)} />
    </section>
  );
}

function ReviewStep({ form, set }: StepProps) {
  return (
    <section className="vw-vt-step vw-vt-options">
      <span>{vt.review}</span>
      <FormCheck form={form} set={set} name="reviewAfterRecognition" testId="vt-review-recognition">
        {vt.reviewAfterRecognition}
      </FormCheck>
      <FormCheck form={form} set={set} name="reviewAfterTranslation" testId="vt-review-translation">
        {vt.reviewAfterTranslation}
      </FormCheck>
    </section>
  );
}
