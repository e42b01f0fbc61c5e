/**
 * A button: `busy` shows work in progress and refuses a second press. A busy button is disabled, and a browser
 * takes the focus off a disabled element: the button that had it gets it back when the work is done, so a
 * keyboard user goes on from where they were (not from the top of the page).
 */
import type { ButtonHTMLAttributes, ComponentChildren } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';

export interface ButtonProps extends Omit<ButtonHTMLAttributes, 'class'> {
  readonly variant?: 'primary' | 'danger' | 'ghost' | 'default';
  readonly busy?: boolean;
  readonly small?: boolean;
  readonly children: ComponentChildren;
}

export function Button({ variant = 'default', busy = false, small = false, type = 'button', disabled, children, ...rest }: ButtonProps) {
  const classes = ['btn', variant !== 'default' ? variant : '', small ? 'small' : '', busy ? 'busy' : ''].filter(Boolean).join(' ');
  const ref = useRef<HTMLButtonElement>(null);
  const hadFocus = useRef(false);
  useLayoutEffect(() => {
    const button = ref.current;
    if (busy || !button) return;
    if (hadFocus.current && !button.disabled && (document.activeElement === null || document.activeElement === document.body)) button.focus();
    hadFocus.current = false;
  }, [busy]);
  // Whether the press came from the button holding the focus (a click or Enter on it), read before it turns busy.
  const pressed = (): void => {
    hadFocus.current = document.activeElement === ref.current;
  };
  return (
    <button {...rest} ref={ref} onClickCapture={pressed} type={type} class={classes} disabled={disabled || busy} aria-busy={busy || undefined}>
      {children}
    </button>
  );
}
