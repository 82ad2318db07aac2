import { type MouseEvent, type ReactNode, useEffect, useRef } from 'react';
import './ui.css';

/** A native checkbox in antd's look, with the mixed state (`indeterminate`) of a "select all". */
export function Checkbox({
  checked,
  indeterminate = false,
  onChange,
  onClick,
  children,
  'aria-label': ariaLabel,
  'data-testid': testId,
}: {
  checked: boolean;
  indeterminate?: boolean;
  onChange: () => void;
  onClick?: (e: MouseEvent) => void;
  children?: ReactNode;
  'aria-label'?: string;
  'data-testid'?: string;
}) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = indeterminate;
  }, [indeterminate]);
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: onClick only lets a row around it ignore the click; the input has the keyboard
    <label className="vw-checkbox" data-testid={testId} onClick={onClick}>
      <input ref={ref} type="checkbox" checked={checked} onChange={onChange} aria-label={ariaLabel} />
      {children !== undefined && <span className="vw-checkbox-label">{children}</span>}
    </label>
  );
}
