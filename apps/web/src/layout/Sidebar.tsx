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
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { Link, NavLink, useNavigate } from 'react-router';
import { displayName } from '@/components/avatar.ts';
import { BrandMark } from '@/components/BrandMark.tsx';
import { HoverTip } from '@/components/HoverTip.tsx';
import { PlanBadge } from '@/components/PlanBadge.tsx';
import { UserAvatar } from '@/components/UserAvatar.tsx';
import { Popover } from '@/components/ui/Popover.tsx';
import { SocialBar } from '@/features/social/SocialBar.tsx';
import { signOut } from '@/lib/auth/session.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { downloadProgress, useDownloadStore } from '@/stores/download.ts';
import { planOf, useUserStore } from '@/stores/user.ts';

// The profile popup's body loads when it first opens (off the first paint).
const ProfilePopup = lazy(() => import('./ProfilePopup.tsx').then((m) => ({ default: m.ProfilePopup })));

const t = zhCN.nav;

interface NavGroup {
  key: string;
  label: string;
  items: { path: string; icon: ReactNode; label: string }[];
}

/** Sidebar groups of spec §2; voice cloning only when the switch is on. */
export function navGroups(voiceCloneOn: boolean): NavGroup[] {
  return [
    {
      key: 'tools',
      label: t.groupSoundTools,
      items: [
        { path: '/tts', icon: <SoundOutlined />, label: t.tts },
        { path: '/voice-changer', icon: <UserSwitchOutlined />, label: t.voiceChanger },
        ...(voiceCloneOn ? [{ path: '/voice-cloning', icon: <AudioOutlined />, label: t.voiceCloning }] : []),
      ],
    },
    {
      key: 'lab',
      label: t.groupVoiceLab,
      items: [{ path: '/voices', icon: <CustomerServiceOutlined />, label: t.voices }],
    },
    {
      key: 'scenes',
      label: t.groupScenarios,
      items: [
        { path: '/video-translation', icon: <TranslationOutlined />, label: t.videoTranslation },
        { path: '/audio-book', icon: <BookOutlined />, label: t.audioBook },
      ],
    },
  ];
}

/** The grouped page links; collapsed, only the icons show, each with its name as a hover tip. */
function NavLinks({ collapsed, voiceCloneOn }: { collapsed: boolean; voiceCloneOn: boolean }) {
  return (
    <nav className="vw-sidebar-nav" aria-label={t.main}>
      {navGroups(voiceCloneOn).map((group) => (
        <section key={group.key} className="vw-nav-group" aria-labelledby={`vw-nav-${group.key}`}>
          <div className="vw-nav-group-title" id={`vw-nav-${group.key}`}>
            {group.label}
          </div>
          <ul className="vw-nav-list">
            {group.items.map((item) => (
              <li key={item.path}>
                <HoverTip title={item.label} placement="right" disabled={!collapsed}>
                  <NavLink to={item.path} className="vw-nav-item">
                    <span className="vw-nav-icon" aria-hidden>
                      {item.icon}
                    </span>
                    <span className="vw-nav-label">{item.label}</span>
                  </NavLink>
                </HoverTip>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </nav>
  );
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
  const user = useUserStore((s) => s.userInfo);
  const bonus = useUserStore((s) => s.tenantBonus);
  const voiceCloneOn = useUserStore((s) => s.appConfig.voice_clone_config.voice_clone_switch);
  const [popupOpen, setPopupOpen] = useState(false);
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

      <NavLinks collapsed={collapsed} voiceCloneOn={voiceCloneOn} />

      <div className="vw-sidebar-bottom">
        <SocialBar />
        <DownloadEntry collapsed={collapsed} />
        {user && (
          <Popover
            open={popupOpen}
            onOpenChange={setPopupOpen}
            placement="rightBottom"
            arrow={false}
            className="vw-popup-overlay"
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
