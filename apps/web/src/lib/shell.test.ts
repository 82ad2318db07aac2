import { describe, expect, it } from 'vitest';
import { HOVER_TIP_DELAY_MS, HOVER_TIP_OFFSET_PX, tipPosition } from '@/components/HoverTip.tsx';
import { loginPath, safeRedirect } from '@/routes/meta.ts';
import { routes } from '@/routes/router.tsx';
import { FREE_TENANT_BONUS, planOf } from '@/stores/user.ts';
import { isChromeFamily } from './browser.ts';
import { notificationTarget } from './notifications.ts';

describe('routes (spec §2)', () => {
  const paths: string[] = [];
  const walk = (list: typeof routes, prefix: string) => {
    for (const r of list) {
      const p = r.path ? `${prefix.replace(/\/$/, '')}/${r.path}`.replace('//', '/') : prefix;
      if (r.path) paths.push(p);
      if (r.children) walk(r.children, p);
    }
  };
  walk(routes, '');
  it.each([
    '/login',
    '/tts',
    '/voice-changer',
    '/voice-cloning',
    '/voice-cloning/normal-clone',
    '/voice-cloning/professional-clone',
    '/voices',
    '/video-translation/:tab?',
    '/video-translation/editor',
    '/about',
    '/subscription',
    '/usage',
    '/api-keys',
    '/profile',
    '/audio-book',
    '/audio-book/work/:id',
    '/terms',
    '/privacy',
    '/subscribe-agreement',
    '/*',
  ])('has %s', (p) => expect(paths).toContain(p));
});

describe('redirects', () => {
  it('keeps the page to return to after sign-in', () => {
    expect(loginPath('http://h/workbench/profile?x=1')).toBe('/login?redirect=%2Fprofile%3Fx%3D1');
    expect(loginPath('http://h/workbench/')).toBe('/login');
  });
  it('only redirects inside the app', () => {
    expect(safeRedirect('/profile')).toBe('/profile');
    expect(safeRedirect('//evil.com')).toBe('/tts');
    expect(safeRedirect('https://evil.com')).toBe('/tts');
    expect(safeRedirect(null)).toBe('/tts');
    expect(safeRedirect('/login')).toBe('/tts');
  });
});

describe('notification click', () => {
  it('video-edit with a task id opens the editor', () => {
    expect(notificationTarget({ action: 'video-edit', task_id: 't 1' })).toBe(
      '/video-translation/editor?id=t%201',
    );
    // the editor opens by project id: a message that carries one leads there
    expect(notificationTarget({ action: 'video-edit', task_id: 'task_1', project_id: 'prj_1' })).toBe(
      '/video-translation/editor?id=prj_1',
    );
    expect(notificationTarget({ action: 'video-edit' })).toBeNull();
    expect(notificationTarget({ action: 'other', task_id: 'x' })).toBeNull();
  });
});

describe('Chrome recommendation', () => {
  it('detects the Chrome family', () => {
    const chrome =
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';
    const edge = `${chrome} Edg/140.0`;
    const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';
    const safari =
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15';
    expect(isChromeFamily(chrome)).toBe(true);
    expect(isChromeFamily(edge)).toBe(true);
    expect(isChromeFamily(firefox)).toBe(false);
    expect(isChromeFamily(safari)).toBe(false);
    expect(isChromeFamily(safari, [{ brand: 'Chromium' }])).toBe(true);
  });
});

describe('hover tip', () => {
  it('waits 500 ms and sits 5 px from its target', () => {
    expect(HOVER_TIP_DELAY_MS).toBe(500);
    expect(HOVER_TIP_OFFSET_PX).toBe(5);
    const rect = { top: 100, bottom: 120, left: 10, right: 50, width: 40, height: 20 };
    expect(tipPosition(rect, 'bottom').top).toBe(125);
    expect(tipPosition(rect, 'right').left).toBe(55);
    expect(tipPosition(rect, 'top').top).toBe(95);
  });
});

describe('plan', () => {
  it('defaults to the free plan 免费版', () => {
    const p = planOf(FREE_TENANT_BONUS);
    expect(p).toMatchObject({ name: '免费版', isFree: true, hasMembership: false, expiresAt: null });
  });
  it('level above 100 is a paid membership', () => {
    const p = planOf({
      ...FREE_TENANT_BONUS,
      level: 200,
      is_free_package: 0,
      title: '基础版',
      expired_time: 1_900_000_000,
    });
    expect(p).toMatchObject({ name: '基础版', isFree: false, hasMembership: true, expiresAt: 1_900_000_000 });
  });
});
