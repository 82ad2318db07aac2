import {
  type HTMLAttributes,
  type RefObject,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { createPortal } from 'react-dom';
import './ui.css';

/** Where a panel opens next to its anchor (antd's placement names). */
export type Placement = 'top' | 'bottomLeft' | 'rightBottom';

type Rect = Pick<DOMRect, 'top' | 'bottom' | 'left' | 'right' | 'width' | 'height'>;
const MARGIN = 8;

/**
 * The panel's top-left corner (viewport coordinates) for a placement: it flips to the other side
 * when it does not fit, and never leaves the viewport sideways.
 */
export function placePanel(
  anchor: Rect,
  panel: { width: number; height: number },
  placement: Placement,
  gap: number,
  viewport: { width: number; height: number },
) {
  const above = anchor.top - gap - panel.height;
  const below = anchor.bottom + gap;
  let top: number;
  let left: number;
  let side: 'top' | 'bottom' | 'right';
  if (placement === 'rightBottom') {
    side = 'right';
    left = anchor.right + gap;
    top = Math.max(MARGIN, anchor.bottom - panel.height);
  } else if (placement === 'top') {
    side = above >= MARGIN ? 'top' : 'bottom';
    left = anchor.left + anchor.width / 2 - panel.width / 2;
    top = side === 'top' ? above : below;
  } else {
    side = below + panel.height <= viewport.height - MARGIN || above < MARGIN ? 'bottom' : 'top';
    left = anchor.left;
    top = side === 'top' ? above : below;
  }
  left = Math.max(MARGIN, Math.min(left, viewport.width - panel.width - MARGIN));
  // Where the anchor's centre is along the panel, for an arrow.
  return { top, left, side, arrowX: anchor.left + anchor.width / 2 - left };
}

/**
 * Closing a panel on a press outside it or on Escape. "Inside" follows the React tree, so a popup
 * opened from within the panel (rendered elsewhere in the page) still counts as inside.
 * Spread the returned handler onto the panel.
 */
export function useDismiss(
  open: boolean,
  close: (reason: 'outside' | 'escape') => void,
  anchor: RefObject<Element | null>,
) {
  const pressedInside = useRef(false);
  const closeRef = useRef(close);
  useLayoutEffect(() => {
    closeRef.current = close;
  });
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      const inside = pressedInside.current || anchor.current?.contains(e.target as Node);
      pressedInside.current = false;
      if (!inside) closeRef.current('outside');
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') closeRef.current('escape');
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open, anchor]);
  // React runs this (through portals too) before the event reaches the document listener.
  return {
    onMouseDown: () => {
      pressedInside.current = true;
    },
  };
}

export interface FloatingProps extends HTMLAttributes<HTMLDivElement> {
  anchor: RefObject<Element | null>;
  placement: Placement;
  /** Space between anchor and panel, px. */
  gap?: number;
  /** At least as wide as the anchor (menus, selects). */
  minAnchorWidth?: boolean;
  /** Takes the focus once placed (a panel opened from the keyboard), so Tab continues inside it. */
  autoFocus?: boolean;
}

/** A panel in a portal, fixed next to its anchor; it follows the anchor on scroll and resize. */
export function Floating({
  anchor,
  placement,
  gap = 4,
  minAnchorWidth,
  autoFocus,
  className,
  style,
  children,
  ...rest
}: FloatingProps) {
  const ref = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState<(ReturnType<typeof placePanel> & { minWidth?: number }) | null>(null);
  const update = useCallback(() => {
    const a = anchor.current;
    const p = ref.current;
    if (!a || !p) return;
    const rect = a.getBoundingClientRect();
    const size = { width: Math.max(p.offsetWidth, minAnchorWidth ? rect.width : 0), height: p.offsetHeight };
    const viewport = { width: window.innerWidth, height: window.innerHeight };
    setPos({
      ...placePanel(rect, size, placement, gap, viewport),
      minWidth: minAnchorWidth ? rect.width : undefined,
    });
  }, [anchor, placement, gap, minAnchorWidth]);

  useLayoutEffect(update, [update]);
  const placed = pos !== null;
  useEffect(() => {
    if (autoFocus && placed) ref.current?.focus();
  }, [autoFocus, placed]);
  useEffect(() => {
    window.addEventListener('scroll', update, true);
    window.addEventListener('resize', update);
    // Content that arrives later (a lazy body) changes the panel's size.
    const ro = typeof ResizeObserver === 'function' ? new ResizeObserver(update) : null;
    if (ref.current) ro?.observe(ref.current);
    return () => {
      window.removeEventListener('scroll', update, true);
      window.removeEventListener('resize', update);
      ro?.disconnect();
    };
  }, [update]);

  return createPortal(
    <div
      ref={ref}
      tabIndex={autoFocus ? -1 : undefined}
      className={['vw-floating', `is-${pos?.side ?? 'bottom'}`, className].filter(Boolean).join(' ')}
      style={{
        ...style,
        ['--vw-arrow-x' as string]: pos ? `${pos.arrowX}px` : undefined,
        top: pos?.top ?? 0,
        left: pos?.left ?? 0,
        minWidth: pos?.minWidth,
        visibility: pos ? undefined : 'hidden',
      }}
      {...rest}
    >
      {children}
    </div>,
    document.body,
  );
}
