import { useState } from 'react';
import { avatarColor, avatarInitial } from './avatar.ts';

interface Props {
  src?: string | null;
  name: string;
  /** Seed for the placeholder colour (the uid); defaults to the name. */
  seed?: string;
  size?: number;
  className?: string;
}

/** The user's avatar, falling back to a coloured initial when missing or failing to load. */
export function UserAvatar({ src, name, seed, size = 36, className }: Props) {
  // Remember which url failed, so a new url is tried again.
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const showImage = Boolean(src) && failedSrc !== src;
  return (
    <span
      className={`vw-avatar ${className ?? ''}`}
      style={{
        width: size,
        height: size,
        fontSize: Math.round(size * 0.42),
        background: showImage ? '#eef0f4' : avatarColor(seed || name || '?'),
      }}
      data-testid="user-avatar"
      data-fallback={showImage ? undefined : 'initial'}
    >
      {showImage ? (
        <img src={src!} alt={name} onError={() => setFailedSrc(src ?? null)} draggable={false} />
      ) : (
        <span role="img" aria-label={name}>
          {avatarInitial(name)}
        </span>
      )}
    </span>
  );
}
