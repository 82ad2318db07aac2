import type { TranslationPreferences } from '@vw/contract/calls/video-translation.ts';
import { AutoComplete, Button, Drawer, Form, Input, Tabs } from 'antd';
import useApp from 'antd/es/app/useApp';
import { useEffect, useMemo, useState } from 'react';
import { api } from '@/lib/api.ts';
import { useCall, useCallMutation } from '@/lib/query/hooks.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { formatGlossary, parseGlossary } from './model.ts';

const vt = zhCN.videoTranslate;

const EMPTY: TranslationPreferences = { style: '', audience: '', tone: '', instructions: '' };

/** The user's saved preferences and glossary (shared by the wizard and the editor). */
export function useTranslationPrefs() {
  const prefs = useCall(api.translationPreferencesGet, undefined, { staleTime: 60_000, suppressError: true });
  const glossary = useCall(api.glossaryGet, undefined, { staleTime: 60_000, suppressError: true });
  return {
    preferences: prefs.data?.preferences ?? EMPTY,
    entries: glossary.data?.entries ?? [],
    loading: prefs.isPending || glossary.isPending,
  };
}

/**
 * 自定义翻译偏好 and 术语表 (saved per user; every later translation uses them): style, audience,
 * tone, free instructions; the glossary as one `术语 = 译法` a line (a bare term is not translated).
 */
export function PreferencesDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { message } = useApp();
  const saved = useTranslationPrefs();
  const [prefs, setPrefs] = useState<TranslationPreferences>(EMPTY);
  const [text, setText] = useState('');
  // The form starts from what is saved each time the drawer opens.
  useEffect(() => {
    if (open) {
      setPrefs(saved.preferences);
      setText(formatGlossary(saved.entries));
    }
  }, [open, saved.preferences, saved.entries]);
  const parsed = useMemo(() => parseGlossary(text), [text]);
  const savePrefs = useCallMutation(api.translationPreferencesSave, {
    invalidates: [api.translationPreferencesGet],
  });
  const saveGlossary = useCallMutation(api.glossarySave, { invalidates: [api.glossaryGet] });

  const save = async () => {
    if (parsed.errors.length > 0) {
      message.error(vt.glossaryErrors(parsed.errors));
      return;
    }
    try {
      await Promise.all([
        savePrefs.mutateAsync({ body: { preferences: prefs } }),
        saveGlossary.mutateAsync({ body: { entries: parsed.entries } }),
      ]);
      message.success(vt.saved);
      onClose();
    } catch {
      // The http client has shown the error.
    }
  };
  const set = (k: keyof TranslationPreferences) => (v: string) => setPrefs((p) => ({ ...p, [k]: v }));
  const keep = parsed.entries.filter((e) => e.translation == null).length;

  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={vt.drawerTitle}
      width={460}
      destroyOnHidden
      data-testid="vt-prefs-drawer"
      extra={
        <Button
          type="primary"
          loading={savePrefs.isPending || saveGlossary.isPending}
          onClick={() => void save()}
          data-testid="vt-prefs-save"
        >
          {vt.save}
        </Button>
      }
    >
      <Tabs
        items={[
          {
            key: 'prefs',
            label: vt.prefsTab,
            children: (
              <Form layout="vertical">
                <Form.Item label={vt.style}>
                  <AutoComplete
                    value={prefs.style}
                    onChange={set('style')}
                    options={vt.styles.map((v) => ({ value: v }))}
                    maxLength={32}
                    data-testid="vt-pref-style"
                  />
                </Form.Item>
                <Form.Item label={vt.audience}>
                  <Input
                    value={prefs.audience}
                    onChange={(e) => set('audience')(e.target.value)}
                    placeholder={vt.audiencePlaceholder}
                    maxLength={100}
                  />
                </Form.Item>
                <Form.Item label={vt.tone}>
                  <AutoComplete
                    value={prefs.tone}
                    onChange={set('tone')}
                    options={vt.tones.map((v) => ({ value: v }))}
                    maxLength={32}
                  />
                </Form.Item>
                <Form.Item label={vt.instructions}>
                  <Input.TextArea
                    value={prefs.instructions}
                    onChange={(e) => set('instructions')(e.target.value)}
                    placeholder={vt.instructionsPlaceholder}
                    autoSize={{ minRows: 3, maxRows: 8 }}
                    maxLength={2000}
                    data-testid="vt-pref-instructions"
                  />
                </Form.Item>
              </Form>
            ),
          },
          {
            key: 'glossary',
            label: vt.glossaryTab,
            children: (
              <div className="vw-vt-glossary">
                <p className="vw-vt-muted">{vt.glossaryHint}</p>
                <Input.TextArea
                  value={text}
                  onChange={(e) => setText(e.target.value)}
                  placeholder={vt.glossaryPlaceholder}
                  autoSize={{ minRows: 10, maxRows: 24 }}
                  spellCheck={false}
                  data-testid="vt-glossary-text"
                />
                <p
                  className={parsed.errors.length ? 'vw-vt-error' : 'vw-vt-muted'}
                  data-testid="vt-glossary-count"
                >
                  {parsed.errors.length
                    ? vt.glossaryErrors(parsed.errors)
                    : vt.glossaryCount(parsed.entries.length, keep)}
                </p>
              </div>
            ),
          },
        ]}
      />
    </Drawer>
  );
}
