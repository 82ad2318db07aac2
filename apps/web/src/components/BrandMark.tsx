/** The product mark: three sound bars on the brand gradient. */
export function BrandMark({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true">
      <defs>
        <linearGradient id="vw-brand-g" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#4f46e5" />
          <stop offset="1" stopColor="#7c3aed" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="8" fill="url(#vw-brand-g)" />
      <rect x="8" y="12" width="3" height="8" rx="1.5" fill="#fff" />
      <rect x="14.5" y="8" width="3" height="16" rx="1.5" fill="#fff" />
      <rect x="21" y="11" width="3" height="10" rx="1.5" fill="#fff" />
    </svg>
  );
}
