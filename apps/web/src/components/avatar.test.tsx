import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AVATAR_COLORS, avatarColor, avatarInitial, displayName } from './avatar.ts';
import { UserAvatar } from './UserAvatar.tsx';

describe('display name and masking', () => {
  it('uses the nickname when set', () => {
    expect(displayName({ nickname: '小明', phone: '13812345678', email: '' })).toBe('小明');
  });
  it('masks the phone keeping the first 3 and last 4 digits', () => {
    expect(displayName({ nickname: '', phone: '13812345678', email: '' })).toBe('138****5678');
    expect(displayName({ nickname: '  ', phone: '+8613912345678', email: '' })).toBe('139****5678');
  });
  it('falls back to the e-mail', () => {
    expect(displayName({ nickname: '', phone: '', email: 'a@b.cn' })).toBe('a@b.cn');
  });
});

describe('avatar fallback', () => {
  it('initial is the first visible character, upper-cased', () => {
    expect(avatarInitial('alice')).toBe('A');
    expect(avatarInitial('  声音')).toBe('声');
    expect(avatarInitial('')).toBe('?');
    expect(avatarInitial('😀x')).toBe('😀');
  });
  it('colour is stable per seed and from the palette', () => {
    expect(avatarColor('u1')).toBe(avatarColor('u1'));
    expect(AVATAR_COLORS).toContain(avatarColor('whatever'));
  });
  it('shows the coloured initial when there is no avatar url', () => {
    render(<UserAvatar src="" name="Bob" seed="u1" />);
    const el = screen.getByTestId('user-avatar');
    expect(el.dataset.fallback).toBe('initial');
    expect(el.textContent).toBe('B');
    expect(el.querySelector('img')).toBeNull();
  });
  it('falls back to the initial when the image fails to load', () => {
    render(<UserAvatar src="/files/broken.png" name="carol" seed="u2" />);
    const el = screen.getByTestId('user-avatar');
    const img = el.querySelector('img')!;
    expect(img).not.toBeNull();
    fireEvent.error(img);
    expect(el.dataset.fallback).toBe('initial');
    expect(el.textContent).toBe('C');
  });
});
