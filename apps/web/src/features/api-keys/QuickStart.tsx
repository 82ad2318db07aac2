import { CopyOutlined } from '@ant-design/icons';
import { App, Button, Select, Tabs } from 'antd';
import { useMemo, useState } from 'react';
import { api } from '@/lib/api.ts';
import { useCall } from '@/lib/query/hooks.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { copyText } from './copy.ts';
import { buildSnippets } from './snippets.ts';

const t = zhCN.apiKeys;

/** curl / JavaScript / OpenAI SDK code for the chosen voice, with the key just created (or a placeholder). */
export function QuickStart({ apiKey }: { apiKey: string | null }) {
  const { message } = App.useApp();
  const voiceList = useCall(api.getAllVoices, { query: { legacy_voice_skip_disabled: true } });
  const voices = voiceList.data?.voices ?? [];
  const [voiceId, setVoiceId] = useState('espeak-zh-xiaowen');
  const [tab, setTab] = useState<'curl' | 'javascript' | 'openai'>('curl');
  const snippets = useMemo(
    () =>
      buildSnippets({
        origin: window.location.origin,
        apiKey: apiKey ?? t.keyPlaceholder,
        voiceId,
        text: t.sampleText,
      }),
    [apiKey, voiceId],
  );
  return (
    <section className="vw-card" data-testid="quick-start">
      <div className="vw-card-head">
        <h2>{t.quickStart}</h2>
        <Select
          className="vw-apikeys-voice"
          value={voiceId}
          onChange={setVoiceId}
          showSearch
          optionFilterProp="label"
          data-testid="quick-start-voice"
          options={voices.map((v) => ({ value: v.voice_id, label: `${v.name}（${v.labels.accent}）` }))}
          aria-label={t.voice}
        />
      </div>
      <p className="vw-apikeys-hint">{t.quickStartHint}</p>
      <Tabs
        activeKey={tab}
        onChange={(k) => setTab(k as typeof tab)}
        items={[
          { key: 'curl', label: 'cURL' },
          { key: 'javascript', label: 'JavaScript' },
          { key: 'openai', label: 'OpenAI SDK' },
        ]}
        tabBarExtraContent={
          <Button
            size="small"
            icon={<CopyOutlined />}
            onClick={async () => {
              if (await copyText(snippets[tab])) message.success(t.copied);
              else message.error(t.copyFailed);
            }}
          >
            {t.copy}
          </Button>
        }
      />
      <pre className="vw-apikeys-code" data-testid="quick-start-code">
        {snippets[tab]}
      </pre>
      <p className="vw-apikeys-hint">{t.limitsNote}</p>
    </section>
  );
}
