import { ExclamationCircleFilled } from '@ant-design/icons';
import {
  cloneElement,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
  type Ref,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { Button } from './Button.tsx';
import { Floating, type Placement, useDismiss } from './Floating.tsx';

/** antd's hover delays: open after 100 ms over the trigger, close 100 ms after leaving both. */
const HOVER_OPEN_MS = 100;
const HOVER_CLOSE_MS = 100;

type Handler = ((e: never) => void) | undefined;
type TriggerProps = {
  ref?: Ref<HTMLElement>;
  onClick?: Handler;
  onMouseEnter?: Handler;
  onMouseLeave?: Handler;
  onFocus?: Handler;
  onBlur?: Handler;
};

/** Runs the trigger's own handler, then ours. */
const chain =
  <E,>(own: Handler, ours: (e: E) => void) =>
  (e: E): void => {
    own?.(e as never);
    ours(e);
  };

export interface PopoverProps {
  /** The trigger: one element that takes a ref and mouse/focus handlers (a button). */
  children: ReactElement<TriggerProps>;
  content: ReactNode;
  /** Controlled visibility; uncontrolled when left out. */
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** `hover` also opens on keyboard focus. */
  trigger?: 'click' | 'hover';
  placement?: Placement;
  arrow?: boolean;
  /** Class of the panel. */
  className?: string;
}

/**
 * A light popover (antd's look): a click one closes on a press outside or Escape, a hover one on
 * leaving the trigger and the panel. Replaces antd's Popover on the first screen.
 */
export function Popover({
  children,
  content,
  open: openProp,
  onOpenChange,
  trigger = 'click',
  placement = 'top',
  arrow = true,
  className,
}: PopoverProps) {
  const [ownOpen, setOwnOpen] = useState(false);
  const open = openProp ?? ownOpen;
  // Opened from the keyboard: focus goes into the panel, and back to the trigger on Escape.
  const [byKeyboard, setByKeyboard] = useState(false);
  const anchor = useRef<HTMLElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const panelId = useId();
  const setOpen = (next: boolean) => {
    if (openProp === undefined) setOwnOpen(next);
    onOpenChange?.(next);
  };
  const dismiss = useDismiss(
    open && trigger === 'click',
    (reason) => {
      setOpen(false);
      if (reason === 'escape') anchor.current?.focus();
    },
    anchor,
  );
  useEffect(() => () => clearTimeout(timer.current), []);

  const later = (next: boolean, ms: number) => () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setOpen(next), ms);
  };
  const hover = trigger === 'hover';
  const own = children.props;
  const triggerElement = cloneElement(children, {
    ref: anchor,
    ...(hover
      ? {
          onMouseEnter: chain(own.onMouseEnter, later(true, HOVER_OPEN_MS)),
          onMouseLeave: chain(own.onMouseLeave, later(false, HOVER_CLOSE_MS)),
          onFocus: chain(own.onFocus, later(true, 0)),
          onBlur: chain(own.onBlur, later(false, 0)),
          'aria-describedby': open ? panelId : undefined,
        }
      : {
          onClick: chain(own.onClick, (e: MouseEvent) => {
            setByKeyboard(e.detail === 0);
            setOpen(!open);
          }),
          'aria-expanded': open,
          'aria-controls': open ? panelId : undefined,
        }),
  } as TriggerProps);

  return (
    <>
      {triggerElement}
      {open && (
        <Floating
          id={panelId}
          anchor={anchor}
          placement={placement}
          gap={arrow ? 12 : 4}
          autoFocus={!hover && byKeyboard}
          role={hover ? 'tooltip' : 'dialog'}
          className={['vw-popover', arrow && 'has-arrow', className].filter(Boolean).join(' ')}
          {...(hover
            ? { onMouseEnter: later(true, 0), onMouseLeave: later(false, HOVER_CLOSE_MS) }
            : dismiss)}
        >
          {content}
        </Floating>
      )}
    </>
  );
}

/** A click-opened confirmation next to its trigger (antd's Popconfirm look). */
export function Popconfirm({
  children,
  title,
  okText,
  cancelText,
  okDanger,
  disabled,
  onConfirm,
}: {
  children: ReactElement<TriggerProps>;
  title: ReactNode;
  okText: ReactNode;
  cancelText: ReactNode;
  okDanger?: boolean;
  disabled?: boolean;
  onConfirm: () => unknown;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
      setOpen(false);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Popover
      open={open}
      onOpenChange={(o) => setOpen(o && !disabled)}
      content={
        // Clicks inside stay here (the trigger may sit in a clickable row).
        // biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/noStaticElementInteractions: only stops propagation
        <div className="vw-popconfirm" onClick={(e: MouseEvent) => e.stopPropagation()}>
          <div className="vw-popconfirm-message">
            <ExclamationCircleFilled className="vw-popconfirm-icon" />
            <div className="vw-popconfirm-title">{title}</div>
          </div>
          <div className="vw-popconfirm-buttons">
            <Button size="small" onClick={() => setOpen(false)}>
              {cancelText}
            </Button>
            <Button
              size="small"
              type="primary"
              danger={okDanger}
              loading={busy}
              onClick={() => void confirm()}
            >
              {okText}
            </Button>
          </div>
        </div>
      }
    >
      {children}
    </Popover>
  );
}
