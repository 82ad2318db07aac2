import { InputNumber, Modal } from 'antd';
import { useEffect, useState } from 'react';
import { zhCN } from '@/locales/zh-CN.ts';
import { useEditor } from './context.tsx';
import { type SubtitleRules, setRules } from './document.ts';

const s = zhCN.editor;

/** Mirrors the contract's DEFAULT_SUBTITLE_RULES (that module builds zod schemas; a test checks they agree). */
export const DEFAULT_RULES: SubtitleRules = {
  max_chars_per_line: 16,
  max_lines: 2,
  max_cps: 9,
  min_duration_ms: 1000,
  max_duration_ms: 7000,
  min_gap_ms: 80,
};

const FIELDS: Array<{ key: keyof SubtitleRules; label: string; min: number; max: number; step?: number }> = [
  { key: 'max_chars_per_line', label: s.ruleMaxChars, min: 1, max: 200 },
  { key: 'max_lines', label: s.ruleMaxLines, min: 1, max: 5 },
  { key: 'max_cps', label: s.ruleMaxCps, min: 1, max: 100, step: 0.5 },
  { key: 'min_duration_ms', label: s.ruleMinDuration, min: 0, max: 60_000, step: 100 },
  { key: 'max_duration_ms', label: s.ruleMaxDuration, min: 1, max: 600_000, step: 100 },
  { key: 'min_gap_ms', label: s.ruleMinGap, min: 0, max: 10_000, step: 10 },
];

/** Edits the rule checker's rules; saved into the document (one undo step). */
export function RulesDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { state, current, edit } = useEditor();
  const [draft, setDraft] = useState<SubtitleRules>(state.doc?.rules ?? DEFAULT_RULES);
  useEffect(() => {
    if (open && state.doc) setDraft(state.doc.rules);
  }, [open, state.doc]);

  return (
    <Modal
      open={open}
      title={s.rulesTitle}
      onCancel={onClose}
      okText={s.save}
      cancelText={s.cancel}
      onOk={() => {
        const rules = {
          ...draft,
          max_duration_ms: Math.max(draft.max_duration_ms, draft.min_duration_ms + 1),
        };
        edit(setRules(current().doc!, rules));
        onClose();
      }}
      footer={(_, { OkBtn, CancelBtn }) => (
        <>
          <button type="button" className="vw-ed-linkbtn" onClick={() => setDraft(DEFAULT_RULES)}>
            {s.restoreDefaults}
          </button>
          <CancelBtn />
          <OkBtn />
        </>
      )}
      destroyOnHidden
    >
      <p className="vw-ed-hint">{s.rulesHint}</p>
      <div className="vw-ed-rules">
        {FIELDS.map((f) => (
          <div key={f.key} className="vw-ed-rule">
            <span>{f.label}</span>
            <InputNumber
              size="small"
              aria-label={f.label}
              min={f.min}
              max={f.max}
              step={f.step ?? 1}
              value={draft[f.key]}
              onChange={(v) => {
                if (typeof v === 'number')
                  setDraft((d) => ({ ...d, [f.key]: f.key === 'max_cps' ? v : Math.round(v) }));
              }}
            />
          </div>
        ))}
      </div>
    </Modal>
  );
}
