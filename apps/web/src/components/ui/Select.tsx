import { DownOutlined } from '@ant-design/icons';
import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { Floating, useDismiss } from './Floating.tsx';

export interface SelectOption<V extends string> {
  value: V;
  label: ReactNode;
}

/**
 * A select-only combobox with a listbox (WAI-ARIA pattern) in antd's Select look: Enter, Space or
 * the arrows open it, arrows / Home / End move, Enter or Space choose, Escape closes.
 */
export function Select<V extends string>({
  value,
  options,
  onChange,
  disabled,
  placeholder,
  ...aria
}: {
  value: V | undefined;
  options: SelectOption<V>[];
  onChange: (value: V) => void;
  disabled?: boolean;
  placeholder?: ReactNode;
  'aria-label'?: string;
  'aria-labelledby'?: string;
  'data-testid'?: string;
}) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const box = useRef<HTMLDivElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const listId = useId();
  const optionId = (i: number) => `${listId}-${i}`;
  const selectedIndex = options.findIndex((o) => o.value === value);
  const dismiss = useDismiss(open, () => setOpen(false), box);

  useEffect(() => {
    if (!open || active < 0) return;
    list.current?.querySelector(`[id="${optionId(active)}"]`)?.scrollIntoView?.({ block: 'nearest' });
  });

  const show = () => {
    if (disabled || options.length === 0) return;
    setActive(Math.max(0, selectedIndex));
    setOpen(true);
  };
  const choose = (i: number) => {
    setOpen(false);
    const option = options[i];
    if (option && option.value !== value) onChange(option.value);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (disabled) return;
    const last = options.length - 1;
    if (!open) {
      if (['ArrowDown', 'ArrowUp', 'Enter', ' '].includes(e.key)) {
        e.preventDefault();
        show();
      }
      return;
    }
    const moves: Record<string, number> = {
      ArrowDown: Math.min(last, active + 1),
      ArrowUp: Math.max(0, active - 1),
      Home: 0,
      End: last,
    };
    if (e.key in moves) {
      e.preventDefault();
      setActive(moves[e.key]);
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      choose(active);
    } else if (e.key === 'Escape') {
      e.stopPropagation();
      setOpen(false);
    }
  };

  const selected = options[selectedIndex];
  return (
    <>
      <div
        ref={box}
        role="combobox"
        tabIndex={disabled ? -1 : 0}
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        aria-activedescendant={open && active >= 0 ? optionId(active) : undefined}
        aria-disabled={disabled || undefined}
        className={['vw-select', open && 'is-open', disabled && 'is-disabled'].filter(Boolean).join(' ')}
        onClick={() => (open ? setOpen(false) : show())}
        onKeyDown={onKeyDown}
        onBlur={() => setOpen(false)}
        {...aria}
      >
        <span className="vw-select-value">
          {selected ? selected.label : <span className="vw-select-placeholder">{placeholder}</span>}
        </span>
        <DownOutlined className="vw-select-arrow" />
      </div>
      {open && (
        <Floating anchor={box} placement="bottomLeft" minAnchorWidth className="vw-select-panel" {...dismiss}>
          <div
            className="vw-select-list"
            role="listbox"
            id={listId}
            ref={list}
            // The combobox keeps the focus (a press on an option or the scrollbar would take it).
            onMouseDown={(e) => e.preventDefault()}
          >
            {options.map((o, i) => (
              // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox handles the keyboard (aria-activedescendant)
              <div
                key={o.value}
                id={optionId(i)}
                role="option"
                tabIndex={-1}
                aria-selected={i === selectedIndex}
                className={`vw-select-option ${i === active ? 'is-active' : ''}`}
                onMouseMove={() => setActive(i)}
                onClick={() => choose(i)}
              >
                {o.label}
              </div>
            ))}
          </div>
        </Floating>
      )}
    </>
  );
}
