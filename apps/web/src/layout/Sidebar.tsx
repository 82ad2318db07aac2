import {
  AudioOutlined,
  BookOutlined,
  CloudDownloadOutlined,
  CustomerServiceOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  SoundOutlined,
  TranslationOutlined,
  UserSwitchOutlined,
} from '@ant-design/icons';
import { Menu, type MenuProps, Popover } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { displayName } from '@/components/avatar.ts';
import { BrandMark } from '@/components/BrandMark.tsx';
import { HoverTip } from '@/components/HoverTip.tsx';
import { PlanBadge } from '@/components/PlanBadge.tsx';
import { UserAvatar } from '@/components/UserAvatar.tsx';
import { SocialBar } from '@/features/social/SocialBar.tsx';
import { signOut } from '@/lib/auth/session.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { downloadProgress, useDownloadStore } from '@/stores/download.ts';
import { planOf, useUserStore } from '@/stores/user.ts';

// The profile popup's body loads when it first opens (off the first paint).
const ProfilePopup = lazy(() => import('./ProfilePopup.tsx').then((m) => ({ default: m.ProfilePopup })));

const t = zhCN.nav;

/** Sidebar groups of spec §2; voice cloning only when the switch is on. */
export function navItems(voiceCloneOn: boolean): MenuProps['items'] {
  return [
    {
      type: 'group',
      key: 'g-tools',
      label: t.groupSoundTools,
      children: [
        { key: 'tts', icon: <SoundOutlined />, label: t.tts },
        { key: 'voice-changer', icon: <UserSwitchOutlined />, label: t.voiceChanger },
        ...(voiceCloneOn ? [{ key: 'voice-cloning', icon: <AudioOutlined />, label: t.voiceCloning }] : []),
      ],
    },
    {
      type: 'group',
      key: 'g-lab',
      label: t.groupVoiceLab,
      children: [{ key: 'voices', icon: <CustomerServiceOutlined />, label: t.voices }],
    },
    {
      type: 'group',
      key: 'g-scenes',
      label: t.groupScenarios,
      children: [
        { key: 'video-translation', icon: <TranslationOutlined />, label: t.videoTranslation },
        { key: 'audio-book', icon: <BookOutlined />, label: t.audioBook },
      ],
    },
  ];
}

function DownloadEntry({ collapsed }: { collapsed: boolean }) {
  const tasks = useDownloadStore((s) => s.tasks);
  const togglePanel = useDownloadStore((s) => s.setPanelOpen);
  const panelOpen = useDownloadStore((s) => s.panelOpen);
  if (tasks.length === 0) return null;
  const { completed, total } = downloadProgress(tasks);
  return (
    <HoverTip title={`${t.downloads} ${completed}/${total}`} placement="right" disabled={!collapsed}>
      <button
        type="button"
        className={`vw-download-entry ${panelOpen ? 'is-open' : ''}`}
        onClick={() => togglePanel(!panelOpen)}
        data-testid="download-entry"
      >
        <CloudDownloadOutlined />
        {!collapsed && <span className="vw-download-label">{t.downloads}</span>}
        {!collapsed && (
          <span className="vw-download-count">
            {completed}/{total}
          </span>
        )}
      </button>
    </HoverTip>
  );
}

export function Sidebar({ collapsed, onToggle }: { collapsed: boolean; onToggle: () => void }) {
  const navigate = useNavigate();
  const location = useLocation();
  const user = useUserStore((s) => s.userInfo);
  const bonus = useUserStore((s) => s.tenantBonus);
  const voiceCloneOn = useUserStore((s) => s.appConfig.voice_clone_config.voice_clone_switch);
  const [popupOpen, setPopupOpen] = useState(false);
  const selected = location.pathname.split('/')[1] ?? '';
  const plan = planOf(bonus);
  const name = displayName(user);

  const logout = async () => {
    setPopupOpen(false);
    await signOut();
    navigate('/login', { replace: true });
  };

  return (
    <aside className={`vw-sidebar ${collapsed ? 'is-collapsed' : ''}`} data-testid="sidebar">
      <div className="vw-sidebar-top">
        <Link to="/" className="vw-logo" aria-label={t.home}>
          <BrandMark size={32} />
          {!collapsed && <span className="vw-logo-text">{zhCN.app.name}</span>}
        </Link>
      </div>

      <nav className="vw-sidebar-nav">
        <Menu
          mode="inline"
          inlineCollapsed={collapsed}
          style={{ borderInlineEnd: 'none' }}
          selectedKeys={[selected]}
          items={navItems(voiceCloneOn)}
          onClick={({ key }) => navigate(`/${key}`)}
        />
      </nav>

      <div className="vw-sidebar-bottom">
        <SocialBar />
        <DownloadEntry collapsed={collapsed} />
        {user && (
          <Popover
            open={popupOpen}
            onOpenChange={setPopupOpen}
            trigger="click"
            placement="rightBottom"
            arrow={false}
            classNames={{ root: 'vw-popup-overlay' }}
            content={
              <Suspense fallback={null}>
                <ProfilePopup
                  user={user}
                  bonus={bonus}
                  close={() => setPopupOpen(false)}
                  go={(to) => {
                    setPopupOpen(false);
                    navigate(to);
                  }}
                  onLogout={logout}
                />
              </Suspense>
            }
          >
            <button type="button" className="vw-user-card" data-testid="user-card">
              <UserAvatar src={user.avatar_url} name={name} seed={user.uid} size={36} />
              {!collapsed && (
                <span className="vw-user-meta">
                  <span className="vw-user-name" data-testid="user-name">
                    {name}
                  </span>
                  <PlanBadge name={plan.name} isFree={plan.isFree} />
                </span>
              )}
            </button>
          </Popover>
        )}
        <HoverTip title={collapsed ? t.expand : t.collapse} placement="right">
          <button
            type="button"
            className="vw-collapse-btn"
            onClick={onToggle}
            aria-label={collapsed ? t.expand : t.collapse}
          >
            {collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
            {!collapsed && <span>{t.collapse}</span>}
          </button>
        </HoverTip>
      </div>
    </aside>
  );
}
