import { LoadingOutlined } from '@ant-design/icons';
import type { ButtonHTMLAttributes, ReactNode, Ref } from 'react';
import './ui.css';

const TWO_CJK = /^[\u4e00-\u9fa5]{2}$/;

export interface ButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type'> {
  /** The look, as antd's Button `type`. */
  type?: 'default' | 'primary' | 'text' | 'link';
  size?: 'small' | 'middle' | 'large';
  shape?: 'circle';
  block?: boolean;
  danger?: boolean;
  icon?: ReactNode;
  /** Shows a spinner in place of the icon and ignores clicks meanwhile. */
  loading?: boolean;
  ref?: Ref<HTMLButtonElement>;
}

/**
 * The first screen's button: antd's Button look (same sizes, colours and states, see ui.css) without
 * its code, which the /tts first load cannot afford. The API is the subset of antd's the app uses.
 */
export function Button({
  type = 'default',
  size = 'middle',
  shape,
  block,
  danger,
  icon,
  loading,
  className,
  children,
  onClick,
  ...rest
}: ButtonProps) {
  const iconOnly = children === undefined || children === null || children === false;
  // Like antd: two Chinese characters alone on a bordered button are spaced apart (确 定).
  const spaced = !icon && type !== 'text' && type !== 'link' && typeof children === 'string';
  const text = spaced && TWO_CJK.test(children) ? children.split('').join(' ') : children;
  const classes = [
    'vw-btn',
    `vw-btn-${type}`,
    size !== 'middle' && `vw-btn-${size}`,
    shape && `vw-btn-${shape}`,
    iconOnly && 'vw-btn-icon-only',
    block && 'vw-btn-block',
    danger && 'vw-btn-danger',
    loading && 'vw-btn-loading',
    className,
  ];
  return (
    <button
      type="button"
      className={classes.filter(Boolean).join(' ')}
      aria-busy={loading || undefined}
      onClick={loading ? undefined : onClick}
      {...rest}
    >
      {(loading || icon) && <span className="vw-btn-icon">{loading ? <LoadingOutlined /> : icon}</span>}
      {!iconOnly && <span>{text}</span>}
    </button>
  );
}
