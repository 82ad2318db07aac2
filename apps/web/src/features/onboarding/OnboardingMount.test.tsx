import { act, render, screen } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { http } from '@/lib/http/client.ts';
import { useUserStore } from '@/stores/user.ts';
import { claimPreview, OnboardingMount } from './OnboardingMount.tsx';

const user = (status: number) => ({
  uid: 'u_x',
  type: 2,
  phone: '13800000000',
  email: '',
  nickname: 'x',
  avatar_url: '',
  user_persona_questionnaire_status: status,
  has_password: false,
});

function mount() {
  render(
    <MemoryRouter>
      <App>
        <OnboardingMount />
      </App>
    </MemoryRouter>,
  );
}

afterEach(() => {
  vi.restoreAllMocks();
  useUserStore.getState().reset();
});

describe('onboarding flow', () => {
  it('the preview flag is per user and set when shown', () => {
    expect(claimPreview(localStorage, 'a')).toBe(true);
    expect(claimPreview(localStorage, 'a')).toBe(false);
    expect(claimPreview(localStorage, 'b')).toBe(true);
  });

  it.each([1, 3])('status %i shows the video-translation preview once', async (status) => {
    const request = vi.spyOn(http, 'request');
    useUserStore.getState().setUserInfo(user(status));
    mount();
    expect(await screen.findByTestId('preview-dialog')).toBeTruthy();
    expect(localStorage.getItem('videoTranslationPreviewu_x')).toBe('1');
    expect(request).not.toHaveBeenCalled(); // no questionnaire for them
  });

  it('status 2 loads the questionnaire and shows the survey; a load failure is only logged', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(http, 'request').mockRejectedValueOnce(new Error('down'));
    useUserStore.getState().setUserInfo(user(2));
    mount();
    await act(async () => {});
    expect(warn).toHaveBeenCalledWith('survey load failed', expect.any(Error));
    expect(screen.queryByTestId('survey')).toBeNull();
    expect(screen.queryByTestId('preview-dialog')).toBeNull();
  });

  it('status 2 with a questionnaire shows the survey and no preview', async () => {
    vi.spyOn(http, 'request').mockResolvedValue({
      questionnaire: [
        { id: 1, question_content: '身份', select_type: 1, question_options: [{ id: 11, content: '甲' }] },
      ],
    });
    useUserStore.getState().setUserInfo(user(2));
    mount();
    expect(await screen.findByTestId('survey')).toBeTruthy();
    expect(screen.queryByTestId('preview-dialog')).toBeNull();
  });
});
