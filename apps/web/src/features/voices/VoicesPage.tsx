import { AudioOutlined, CustomerServiceOutlined, StarOutlined } from '@ant-design/icons';
import { Button, Empty, Skeleton, Tabs } from 'antd';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { useTtsStore } from '@/features/tts/store.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { useUserStore } from '@/stores/user.ts';
import { isLocked } from './model.ts';
import { usePreviewStore } from './preview.ts';
import type { Voice } from './types.ts';
import { useVoiceLibrary } from './useVoiceLibrary.tsx';
import { useVoiceTabs, type VoiceTab } from './useVoiceTabs.ts';
import { VoiceCard } from './VoiceCard.tsx';
import { VoiceFilters } from './VoiceFilters.tsx';
import './voices.css';

const t = zhCN.voices;

/** Route /voices: the voice library (spec §2). */
export function Component() {
  const navigate = useNavigate();
  const { builtin, mine, loaded, level, toggleFavorite, languageName } = useVoiceLibrary();
  const cloneOn = useUserStore((s) => s.appConfig.voice_clone_config.voice_clone_switch);
  const currentVoice = useTtsStore((s) => s.voiceId);
  const { tab, setTab, filter, setFilter, source, shown } = useVoiceTabs(builtin, mine);
  const stopPreview = usePreviewStore((s) => s.stop);
  useEffect(() => stopPreview, [stopPreview]);

  const use = (v: Voice) => {
    useTtsStore.getState().selectVoice(v.voice_id);
    navigate(`/tts?voice_id=${encodeURIComponent(v.voice_id)}`);
  };

  const grid = (
    <div className="vw-voice-grid" data-testid="voice-grid">
      {shown.map((v) => (
        <VoiceCard
          key={v.voice_id}
          voice={v}
          favorite={v.is_favorite}
          premium={isLocked(v, level)}
          selected={v.voice_id === currentVoice}
          onFavorite={toggleFavorite}
          onUse={use}
          languageName={languageName}
        />
      ))}
    </div>
  );

  let body: React.ReactNode;
  if (!loaded) body = <Skeleton active paragraph={{ rows: 6 }} />;
  else if (tab === 'mine' && mine.length === 0)
    body = (
      <div className="vw-voices-empty" data-testid="mine-empty">
        <div className="vw-empty-icon">
          <AudioOutlined />
        </div>
        <h2>{t.mineEmptyTitle}</h2>
        <p>{t.mineEmptyDesc}</p>
        {cloneOn && (
          <Button type="primary" onClick={() => navigate('/voice-cloning')}>
            {t.mineEmptyAction}
          </Button>
        )}
      </div>
    );
  else if (tab === 'favorites' && source.length === 0)
    body = (
      <div className="vw-voices-empty" data-testid="favorites-empty">
        <div className="vw-empty-icon">
          <StarOutlined />
        </div>
        <p>{t.emptyFavorites}</p>
      </div>
    );
  else if (shown.length === 0) body = <Empty className="vw-voices-none" description={t.empty} />;
  else body = grid;
  // Cloned voices are managed (rename, recheck, delete) on the cloning home.
  if (tab === 'mine' && mine.length > 0 && cloneOn)
    body = (
      <>
        <div className="vw-voices-manage">
          <Button size="small" onClick={() => navigate('/voice-cloning')} data-testid="mine-manage">
            {t.manageClones}
          </Button>
        </div>
        {body}
      </>
    );

  return (
    <div className="vw-page vw-voices-page" data-testid="voices-page">
      <header className="vw-page-header vw-voices-header">
        <div>
          <h1>
            <CustomerServiceOutlined className="vw-title-icon" /> {zhCN.features.voices.name}
          </h1>
          <p>{t.subtitle}</p>
        </div>
      </header>
      <section className="vw-card vw-voices-card">
        <Tabs
          activeKey={tab}
          onChange={(k) => setTab(k as VoiceTab)}
          items={[
            { key: 'all', label: t.tabAll },
            { key: 'favorites', label: t.tabFavorites },
            { key: 'mine', label: t.tabMine },
          ]}
          tabBarExtraContent={<span className="vw-voices-count">{t.count(shown.length)}</span>}
        />
        {!(tab === 'mine' && mine.length === 0) && (
          <VoiceFilters voices={source} filter={filter} onChange={setFilter} languageName={languageName} />
        )}
        {body}
      </section>
    </div>
  );
}
