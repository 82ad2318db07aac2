import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { Button, type ButtonProps } from './Button.tsx';
import { Floating, useDismiss } from './Floating.tsx';

export interface MenuItem<K extends string = string> {
  key: K;
  label: ReactNode;
  disabled?: boolean;
  testId?: string;
}

/** The next enabled item from `from` in direction `step`, wrapping; -1 when none is enabled. */
export function nextEnabled(items: { disabled?: boolean }[], from: number, step: 1 | -1) {
  for (let i = 1; i <= items.length; i++) {
    const at = (from + step * i + items.length * i) % items.length;
    if (!items[at].disabled) return at;
  }
  return -1;
}

/**
 * A button that opens a menu of actions below it (antd's click Dropdown), with the keyboard of the
 * WAI-ARIA menu button: Enter, Space or the arrows open it, arrows move, Enter picks, Escape closes.
 * `footer` is extra content under the items (not a menu item).
 */
export function MenuButton<K extends string>({
  items,
  onSelect,
  footer,
  disabled,
  children,
  ...buttonProps
}: Omit<ButtonProps, 'onSelect'> & {
  items: MenuItem<K>[];
  onSelect: (key: K) => void;
  footer?: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const buttonId = useId();
  const focusItem = (index: number) =>
    requestAnimationFrame(() =>
      list.current?.querySelectorAll<HTMLElement>('[role="menuitem"]')[index]?.focus(),
    );

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };
  const dismiss = useDismiss(open, () => close(false), button);
  useEffect(() => {
    if (disabled) setOpen(false);
  }, [disabled]);
  const openAt = (index: number) => {
    setOpen(true);
    if (index >= 0) focusItem(index);
  };
  const pick = (item: MenuItem<K>) => {
    if (item.disabled) return;
    close(true);
    onSelect(item.key);
  };

  const onButtonKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      openAt(e.key === 'ArrowDown' ? nextEnabled(items, -1, 1) : nextEnabled(items, 0, -1));
    }
  };
  const onItemKey = (e: KeyboardEvent, index: number) => {
    const moves: Record<string, number> = {
      ArrowDown: nextEnabled(items, index, 1),
      ArrowUp: nextEnabled(items, index, -1),
      Home: nextEnabled(items, -1, 1),
      End: nextEnabled(items, 0, -1),
    };
    if (e.key in moves) {
      e.preventDefault();
      focusItem(moves[e.key]);
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      pick(items[index]);
    } else if (e.key === 'Escape') {
      e.stopPropagation();
      close(true);
    } else if (e.key === 'Tab') {
      close(false);
    }
  };

  return (
    <>
      <Button
        {...buttonProps}
        ref={button}
        id={buttonId}
        disabled={disabled}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={(e) => {
          buttonProps.onClick?.(e);
          // A click from the keyboard (detail 0) moves focus into the menu; a mouse click does not.
          if (open) close(false);
          else openAt(e.detail === 0 ? nextEnabled(items, -1, 1) : -1);
        }}
        onKeyDown={onButtonKey}
      >
        {children}
      </Button>
      {open && (
        <Floating
          anchor={button}
          placement="bottomLeft"
          minAnchorWidth
          className="vw-menu-panel"
          {...dismiss}
        >
          <div className="vw-menu" role="menu" id={menuId} aria-labelledby={buttonId} ref={list}>
            {items.map((item, i) => (
              <div
                key={item.key}
                role="menuitem"
                tabIndex={-1}
                aria-disabled={item.disabled || undefined}
                className={`vw-menu-item ${item.disabled ? 'is-disabled' : ''}`}
                data-testid={item.testId}
                onClick={() => pick(item)}
                onKeyDown={(e) => onItemKey(e, i)}
              >
                {item.label}
              </div>
            ))}
          </div>
          {footer && <div className="vw-menu-footer">{footer}</div>}
        </Floating>
      )}
    </>
  );
}
