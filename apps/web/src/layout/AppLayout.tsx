import { useState } from 'react';
import { Outlet } from 'react-router';
import { useRouteMeta } from '@/routes/useRouteMeta.ts';
import { Sidebar } from './Sidebar.tsx';

const COLLAPSE_KEY = 'vw_sidebar_collapsed';

/** Signed-in frame: sidebar plus content, or only the page on full-screen routes (spec §2). */
export function Component() {
  const { fullScreen } = useRouteMeta();
  const [collapsed, setCollapsed] = useState(() => localStorage.getItem(COLLAPSE_KEY) === '1');
  if (fullScreen) {
    return (
      <main className="vw-fullscreen">
        <Outlet />
      </main>
    );
  }
  return (
    <div className="vw-app">
      <Sidebar
        collapsed={collapsed}
        onToggle={() =>
          setCollapsed((c) => {
            localStorage.setItem(COLLAPSE_KEY, c ? '0' : '1');
            return !c;
          })
        }
      />
      <main className="vw-content" data-testid="content">
        <Outlet />
      </main>
    </div>
  );
}
