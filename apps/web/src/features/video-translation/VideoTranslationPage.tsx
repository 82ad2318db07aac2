import { PlusOutlined } from '@ant-design/icons';
import type { MediaAsset, ProjectView } from '@vw/contract';
import { Button, Tabs } from 'antd';
import { useState } from 'react';
import { Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { zhCN } from '@/locales/zh-CN.ts';
import { ProjectList } from './ProjectList.tsx';
import { builtTools } from './tools.tsx';
import './video-tools.css';

const t = zhCN.videoTools;

/** One tool's tab: its project list, or its "new" flow (opened at once for a video another tool hands over). */
function ToolTab({ tab }: { tab: (typeof builtTools)[number] }) {
  const handed = (useLocation().state as { asset?: MediaAsset } | null)?.asset;
  const [creating, setCreating] = useState(!!handed);
  const [opened, setOpened] = useState<ProjectView | null>(null);
  const desc = tab.tab === 'stt' ? t.stt.desc : tab.desc;
  if (opened && tab.Result)
    return (
      <section className="vw-card vw-vt-panel">
        <tab.Result project={opened} onBack={() => setOpened(null)} />
      </section>
    );
  if (creating)
    return (
      <section className="vw-card vw-vt-panel">
        <tab.New onBack={() => setCreating(false)} asset={handed} />
      </section>
    );
  return (
    <section className="vw-card vw-vt-panel">
      <div className="vw-vt-toolbar">
        <p className="vw-vt-muted">{desc}</p>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setCreating(true)}
          data-testid="project-new"
        >
          {t.newProject}
        </Button>
      </div>
      <ProjectList
        tool={tab.tool}
        onOpen={tab.Result ? setOpened : undefined}
        column={tab.column}
        download={tab.download}
      />
    </section>
  );
}

/**
 * Route /video-translation/:tab? (design §10): every video tool as a tab; only the built ones
 * appear. Without a tab (or with one not built) the first built tab opens.
 */
export function Component() {
  const { tab } = useParams();
  const navigate = useNavigate();
  const current = builtTools.find((b) => b.tab === tab);
  if (!current) return <Navigate to={`/video-translation/${builtTools[0].tab}`} replace />;
  return (
    <div className="vw-page vw-vt" data-testid="video-tools-page">
      <header className="vw-page-header">
        <h1>{zhCN.features.videoTranslation.name}</h1>
      </header>
      <Tabs
        activeKey={current.tab}
        onChange={(key) => navigate(`/video-translation/${key}`)}
        items={builtTools.map((b) => ({ key: b.tab, label: t.tabs[b.tab] }))}
        data-testid="video-tools-tabs"
      />
      <ToolTab key={current.tab} tab={current} />
    </div>
  );
}
