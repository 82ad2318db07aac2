import { createBrowserRouter, type LazyRouteFunction, type RouteObject, redirect } from 'react-router';
import { RootShell, Splash } from '@/layout/RootShell.tsx';
import { zhCN } from '@/locales/zh-CN.ts';
import { requireSession, voiceCloneValidator } from './guards.ts';
import { BASENAME, meta } from './meta.ts';

type Lazy = LazyRouteFunction<RouteObject>;
const f = zhCN.features;

/** Every route of spec §2. Pages are lazy; each exports `Component`. */
export const routes: RouteObject[] = [
  {
    path: '/',
    Component: RootShell,
    HydrateFallback: Splash,
    children: [
      {
        path: 'login',
        lazy: (() => import('@/features/auth/LoginPage.tsx')) as Lazy,
        handle: meta({ showNav: false, fullScreen: true, public: true, title: zhCN.login.submit }),
      },
      {
        path: 'terms',
        lazy: (() => import('@/features/legal/TermsPage.tsx')) as Lazy,
        handle: meta({ showNav: false, fullScreen: true, public: true, title: zhCN.login.terms }),
      },
      {
        path: 'privacy',
        lazy: (() => import('@/features/legal/PrivacyPage.tsx')) as Lazy,
        handle: meta({ showNav: false, fullScreen: true, public: true, title: zhCN.login.privacy }),
      },
      {
        path: 'subscribe-agreement',
        lazy: (() => import('@/features/legal/SubscribeAgreementPage.tsx')) as Lazy,
        handle: meta({
          showNav: false,
          fullScreen: true,
          public: true,
          title: zhCN.legal.subscribeAgreement,
        }),
      },
      {
        id: 'app',
        loader: requireSession,
        lazy: (() => import('@/layout/AppLayout.tsx')) as Lazy,
        children: [
          // An element (nothing) as well: a leaf route without one makes the router warn on every load.
          { index: true, loader: () => redirect('/tts'), element: null },
          {
            path: 'tts',
            lazy: (() => import('@/features/tts/TtsPage.tsx')) as Lazy,
            handle: meta({ title: f.tts.name }),
          },
          {
            path: 'voice-changer',
            lazy: (() => import('@/features/voice-changer/VoiceChangerPage.tsx')) as Lazy,
            handle: meta({ title: f.voiceChanger.name }),
          },
          {
            path: 'voice-cloning',
            loader: voiceCloneValidator,
            handle: meta({ title: f.voiceCloning.name }),
            children: [
              {
                index: true,
                lazy: (() => import('@/features/voice-cloning/CloneHomePage.tsx')) as Lazy,
                handle: meta({ title: f.voiceCloning.name }),
              },
              {
                path: 'normal-clone',
                lazy: (() => import('@/features/voice-cloning/NormalClonePage.tsx')) as Lazy,
                handle: meta({ title: f.normalClone.name }),
              },
              {
                path: 'professional-clone',
                lazy: (() => import('@/features/voice-cloning/ProfessionalClonePage.tsx')) as Lazy,
                handle: meta({ title: f.professionalClone.name }),
              },
            ],
          },
          {
            path: 'voices',
            lazy: (() => import('@/features/voices/VoicesPage.tsx')) as Lazy,
            handle: meta({ title: f.voices.name }),
          },
          {
            path: 'video-translation/editor',
            lazy: (() => import('@/features/video-translation/VideoEditorPage.tsx')) as Lazy,
            handle: meta({
              showNav: false,
              fullScreen: true,
              isVideoTranslationEditor: true,
              title: f.videoEditor.name,
            }),
          },
          {
            path: 'video-translation/:tab?',
            lazy: (() => import('@/features/video-translation/VideoTranslationPage.tsx')) as Lazy,
            handle: meta({ title: f.videoTranslation.name }),
          },
          {
            path: 'about',
            lazy: (() => import('@/features/legal/AboutPage.tsx')) as Lazy,
            handle: meta({ title: zhCN.about.title }),
          },
          {
            path: 'subscription',
            lazy: (() => import('@/features/subscription/SubscriptionPage.tsx')) as Lazy,
            handle: meta({ title: f.subscription.name }),
          },
          {
            path: 'usage',
            lazy: (() => import('@/features/usage/UsagePage.tsx')) as Lazy,
            handle: meta({ title: f.usage.name }),
          },
          {
            path: 'api-keys',
            lazy: (() => import('@/features/api-keys/ApiKeysPage.tsx')) as Lazy,
            handle: meta({ title: f.apiKeys.name }),
          },
          {
            path: 'profile',
            lazy: (() => import('@/features/profile/ProfilePage.tsx')) as Lazy,
            handle: meta({ title: zhCN.profile.title }),
          },
          {
            path: 'audio-book',
            lazy: (() => import('@/features/audio-book/AudioBookPage.tsx')) as Lazy,
            handle: meta({ title: f.audioBook.name }),
          },
          {
            path: 'audio-book/work/:id',
            lazy: (() => import('@/features/audio-book/AudioBookWorkPage.tsx')) as Lazy,
            handle: meta({ fullScreen: true, title: f.audioBookWork.name }),
          },
        ],
      },
      // `/` is the index above; every unknown path goes to /tts (spec §2).
      { path: '*', loader: () => redirect('/tts'), element: null },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes, { basename: BASENAME });
}

export type AppRouter = ReturnType<typeof createAppRouter>;
