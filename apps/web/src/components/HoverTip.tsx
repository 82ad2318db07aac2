import { type ReactNode, useCallback, useEffect, useRef } from 'react';
import { create } from 'zustand';

/** Hover tip timing and placement (spec §9): shown after 500 ms, 5 px from its target. */
export const HOVER_TIP_DELAY_MS = 500;
export const HOVER_TIP_OFFSET_PX = 5;

type Placement = 'top' | 'bottom' | 'right';

interface TipState {
  tip: { content: ReactNode; rect: DOMRect; placement: Placement } | null;
  show: (content: ReactNode, rect: DOMRect, placement: Placement) => void;
  hide: () => void;
}

export const useHoverTipStore = create<TipState>((set) => ({
  tip: null,
  show: (content, rect, placement) => set({ tip: { content, rect, placement } }),
  hide: () => set({ tip: null }),
}));

/** Wraps an element; hovering it for 500 ms shows the single global hover tip. */
export function HoverTip({
  title,
  placement = 'top',
  children,
  disabled,
}: {
  title: ReactNode;
  placement?: Placement;
  children: ReactNode;
  disabled?: boolean;
}) {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const ref = useRef<HTMLSpanElement>(null);
  const clear = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
  }, []);
  useEffect(
    () => () => {
      clear();
      useHoverTipStore.getState().hide();
    },
    [clear],
  );
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: hover only shows a tip; the wrapped element keeps its own semantics
    <span
      ref={ref}
      className="vw-hover-tip-anchor"
      onMouseEnter={() => {
        if (disabled) return;
        clear();
        timer.current = setTimeout(() => {
          if (ref.current)
            useHoverTipStore.getState().show(title, ref.current.getBoundingClientRect(), placement);
        }, HOVER_TIP_DELAY_MS);
      }}
      onMouseLeave={() => {
        clear();
        useHoverTipStore.getState().hide();
      }}
    >
      {children}
    </span>
  );
}

/** Where a tip sits relative to its target's rectangle. */
export function tipPosition(
  rect: Pick<DOMRect, 'top' | 'bottom' | 'left' | 'right' | 'width' | 'height'>,
  placement: Placement,
) {
  switch (placement) {
    case 'bottom':
      return {
        top: rect.bottom + HOVER_TIP_OFFSET_PX,
        left: rect.left + rect.width / 2,
        transform: 'translateX(-50%)',
      };
    case 'right':
      return {
        top: rect.top + rect.height / 2,
        left: rect.right + HOVER_TIP_OFFSET_PX,
        transform: 'translateY(-50%)',
      };
    default:
      return {
        top: rect.top - HOVER_TIP_OFFSET_PX,
        left: rect.left + rect.width / 2,
        transform: 'translate(-50%, -100%)',
      };
  }
}

/** The mounting point of the hover tip (always present, spec §2). */
export function HoverTipMount() {
  const tip = useHoverTipStore((s) => s.tip);
  if (!tip) return null;
  return (
    <div className="vw-hover-tip" role="tooltip" style={tipPosition(tip.rect, tip.placement)}>
      {tip.content}
    </div>
  );
}
