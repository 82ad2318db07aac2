import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { navGroups, Sidebar } from './Sidebar.tsx';

function renderAt(path: string, collapsed = false) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <Sidebar collapsed={collapsed} onToggle={() => {}} />
    </MemoryRouter>,
  );
  return screen.getByRole('navigation', { name: '主导航' });
}

describe('sidebar navigation', () => {
  it('has the three groups of spec §2; voice cloning only with the switch on', () => {
    expect(navGroups(false).map((g) => g.label)).toEqual(['声音工具', '声音实验室', '应用场景']);
    expect(navGroups(false)[0].items.map((i) => i.label)).toEqual(['文字转语音', '变声器']);
    expect(navGroups(true)[0].items.map((i) => i.label)).toEqual(['文字转语音', '变声器', '声音克隆']);
  });

  it('is a nav of links; the current page is marked, nested pages included', () => {
    const nav = renderAt('/video-translation/mine');
    const links = within(nav).getAllByRole('link');
    expect(links.map((a) => a.getAttribute('href'))).toEqual([
      '/tts',
      '/voice-changer',
      '/voices',
      '/video-translation',
      '/audio-book',
    ]);
    expect(within(nav).getByRole('link', { name: '视频翻译' }).getAttribute('aria-current')).toBe('page');
    expect(within(nav).getByRole('link', { name: '文字转语音' }).getAttribute('aria-current')).toBeNull();
    expect(within(nav).getByRole('region', { name: '声音工具' })).toBeTruthy();
  });

  it('collapsed, the links keep their names for screen readers', () => {
    const nav = renderAt('/tts', true);
    expect(within(nav).getByRole('link', { name: '文字转语音' }).getAttribute('aria-current')).toBe('page');
  });
});
