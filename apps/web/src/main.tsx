import { QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider, type ThemeConfig } from 'antd';
import zhCNLocale from 'antd/es/locale/zh_CN';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { dropSession } from '@/lib/auth/session.ts';
import { http } from '@/lib/http/client.ts';
import { queryClient } from '@/lib/query/client.ts';
import { FeedbackBridge } from './layout/FeedbackBridge.tsx';
import { FeedbackProvider } from './layout/FeedbackProvider.tsx';
import { loginPath } from './routes/meta.ts';
import { createAppRouter } from './routes/router.tsx';
import { useUserStore } from './stores/user.ts';
import './styles/app.css';

export const BRAND_COLOR = '#4f46e5';

const theme: ThemeConfig = {
  token: {
    colorPrimary: BRAND_COLOR,
    colorLink: BRAND_COLOR,
    borderRadius: 8,
    fontFamily:
      "-apple-system, BlinkMacSystemFont, 'PingFang SC', 'Noto Sans CJK SC', 'Noto Sans SC', 'Microsoft YaHei', 'Helvetica Neue', Arial, sans-serif",
    colorBgLayout: '#f5f6fa',
  },
  components: {
    Menu: {
      itemBorderRadius: 8,
      itemHeight: 40,
      itemMarginInline: 8,
      groupTitleFontSize: 12,
      itemSelectedBg: '#eef2ff',
      itemSelectedColor: BRAND_COLOR,
      activeBarBorderWidth: 0,
    },
  },
};

const router = createAppRouter();

http.hooks.onSessionRefreshed = (user) => useUserStore.getState().setUserInfo(user);
// A failed refresh (spec §4): user info is already cleared; go to /login, remembering the page.
http.hooks.onAuthFailure = () => {
  dropSession();
  // During a navigation the route loaders redirect to /login themselves.
  if (!router.state.initialized || router.state.navigation.state !== 'idle') return;
  const here = `${window.location.pathname}${window.location.search}`;
  if (!window.location.pathname.endsWith('/login')) void router.navigate(loginPath(here), { replace: true });
};

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      {/* Buttons show their words as written: antd would space out two-character labels (提 交). */}
      <ConfigProvider locale={zhCNLocale} theme={theme} button={{ autoInsertSpace: false }}>
        <FeedbackProvider>
          <FeedbackBridge />
          <RouterProvider router={router} />
        </FeedbackProvider>
      </ConfigProvider>
    </QueryClientProvider>
  </StrictMode>,
);
