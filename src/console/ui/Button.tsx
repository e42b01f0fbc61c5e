/** A button: `busy` shows work in progress and refuses a second press. */
import type { ButtonHTMLAttributes, ComponentChildren } from 'preact';

export interface ButtonProps extends Omit<ButtonHTMLAttributes, 'class'> {
  readonly variant?: 'primary' | 'danger' | 'ghost' | 'default';
  readonly busy?: boolean;
  readonly small?: boolean;
  readonly children: ComponentChildren;
}

export function Button({ variant = 'default', busy = false, small = false, type = 'button', disabled, children, ...rest }: ButtonProps) {
  const classes = ['btn', variant !== 'default' ? variant : '', small ? 'small' : '', busy ? 'busy' : ''].filter(Boolean).join(' ');
  return (
    <button {...rest} type={type} class={classes} disabled={disabled || busy} aria-busy={busy || undefined}>
      {children}
    </button>
  );
}
