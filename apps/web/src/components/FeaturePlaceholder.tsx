import {
  ApiOutlined,
  AudioOutlined,
  BarChartOutlined,
  BookOutlined,
  CrownOutlined,
  CustomerServiceOutlined,
  SoundOutlined,
  TranslationOutlined,
  UserSwitchOutlined,
  VideoCameraOutlined,
} from '@ant-design/icons';
import { Button } from 'antd';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { zhCN } from '@/locales/zh-CN.ts';

export type FeatureKey = keyof typeof zhCN.features;

const icons: Record<FeatureKey, ReactNode> = {
  tts: <SoundOutlined />,
  voiceChanger: <UserSwitchOutlined />,
  voiceCloning: <AudioOutlined />,
  normalClone: <AudioOutlined />,
  professionalClone: <AudioOutlined />,
  voices: <CustomerServiceOutlined />,
  videoTranslation: <TranslationOutlined />,
  videoEditor: <VideoCameraOutlined />,
  subscription: <CrownOutlined />,
  usage: <BarChartOutlined />,
  apiKeys: <ApiOutlined />,
  audioBook: <BookOutlined />,
  audioBookWork: <BookOutlined />,
};

/**
 * The honest empty state of a page whose tool is not built yet: it names the feature,
 * says what it does and that it is not enabled on this server yet.
 */
export function FeaturePlaceholder({ feature, fullScreen }: { feature: FeatureKey; fullScreen?: boolean }) {
  const navigate = useNavigate();
  const f = zhCN.features[feature];
  return (
    <div className={`vw-page ${fullScreen ? 'vw-page-full' : ''}`}>
      <header className="vw-page-header">
        <h1>{f.name}</h1>
      </header>
      <section className="vw-empty" data-testid="feature-placeholder" data-feature={feature}>
        <div className="vw-empty-icon">{icons[feature]}</div>
        <h2>{zhCN.placeholder.notEnabled(f.name)}</h2>
        <p className="vw-empty-desc">{f.desc}</p>
        <p className="vw-empty-hint">{zhCN.placeholder.hint}</p>
        {fullScreen && (
          <Button type="primary" onClick={() => navigate('/')}>
            {zhCN.placeholder.backHome}
          </Button>
        )}
      </section>
    </div>
  );
}
