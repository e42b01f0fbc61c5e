/**
 * Labelled form fields: the label is tied to its control, a hint and an error are read out with it
 * (aria-describedby), and an error marks the control invalid.
 */
import type { ComponentChildren, InputHTMLAttributes } from 'preact';
import { useId } from 'preact/hooks';

interface FieldFrame {
  readonly label: ComponentChildren;
  readonly hint?: ComponentChildren;
  readonly error?: string | null;
}

function Frame({ id, label, hint, error, children }: FieldFrame & { readonly id: string; readonly children: ComponentChildren }) {
  return (
    <div class={`field${error ? ' invalid' : ''}`}>
      <label for={id}>{label}</label>
      {children}
      {hint && <p class="hint" id={`${id}-hint`}>{hint}</p>}
      {error && <p class="field-error" id={`${id}-error`} role="alert">{error}</p>}
    </div>
  );
}

const describedBy = (id: string, { hint, error }: FieldFrame): string | undefined =>
  [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;

/** The input attributes forms here use. */
interface InputAttributes {
  readonly id?: string;
  readonly name?: string;
  readonly type?: 'text' | 'password' | 'number' | 'email' | 'url' | 'search' | 'date' | 'datetime-local';
  readonly required?: boolean;
  readonly disabled?: boolean;
  readonly readOnly?: boolean;
  readonly autoComplete?: string;
  readonly autoFocus?: boolean;
  readonly autoCapitalize?: 'off' | 'none' | 'on' | 'sentences' | 'words' | 'characters';
  readonly spellcheck?: boolean;
  readonly placeholder?: string;
  readonly inputMode?: 'text' | 'numeric' | 'decimal' | 'search';
  readonly maxLength?: number;
  readonly minLength?: number;
  readonly min?: string | number;
  readonly max?: string | number;
  readonly step?: string | number;
  readonly pattern?: string;
  readonly list?: string;
}

export type TextFieldProps = FieldFrame & InputAttributes & {
  readonly value: string;
  readonly onValue: (value: string) => void;
};

export function TextField({ label, hint, error, value, onValue, id: givenId, ...input }: TextFieldProps) {
  const generated = useId();
  const id = givenId ?? generated;
  return (
    <Frame id={id} label={label} hint={hint} error={error}>
      {/* Preact types <input> as a union by `type`; InputAttributes above is what callers may pass. */}
      <input {...(input as InputHTMLAttributes)} id={id} value={value} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, { label, hint, error })}
        onInput={(e) => onValue(e.currentTarget.value)} />
    </Frame>
  );
}

export type SelectFieldProps = FieldFrame & {
  readonly value: string;
  readonly onValue: (value: string) => void;
  readonly options: readonly (readonly [value: string, label: string])[];
  readonly id?: string;
  readonly name?: string;
};

export function SelectField({ label, hint, error, value, onValue, options, id: givenId, name }: SelectFieldProps) {
  const generated = useId();
  const id = givenId ?? generated;
  return (
    <Frame id={id} label={label} hint={hint} error={error}>
      <select id={id} name={name} value={value} aria-describedby={describedBy(id, { label, hint, error })} onChange={(e) => onValue(e.currentTarget.value)}>
        {options.map(([v, text]) => <option key={v} value={v}>{text}</option>)}
      </select>
    </Frame>
  );
}

export interface CheckboxProps {
  readonly label: ComponentChildren;
  readonly checked: boolean;
  readonly onChecked: (checked: boolean) => void;
  readonly name?: string;
  readonly id?: string;
}

export function Checkbox({ label, checked, onChecked, name, id }: CheckboxProps) {
  return (
    <label class="check">
      <input type="checkbox" id={id} name={name} checked={checked} onChange={(e) => onChecked(e.currentTarget.checked)} />
      <span>{label}</span>
    </label>
  );
}

export type TextAreaFieldProps = FieldFrame & {
  readonly value: string;
  readonly onValue: (value: string) => void;
  readonly id?: string;
  readonly placeholder?: string;
  readonly rows?: number;
  readonly maxLength?: number;
  readonly onKeyDown?: (e: KeyboardEvent) => void;
};

/** Text of several lines (a prompt, a message), labelled like the other fields. */
export function TextAreaField({ label, hint, error, value, onValue, id: givenId, placeholder, rows, maxLength, onKeyDown }: TextAreaFieldProps) {
  const generated = useId();
  const id = givenId ?? generated;
  return (
    <Frame id={id} label={label} hint={hint} error={error}>
      <textarea id={id} value={value} placeholder={placeholder} rows={rows} maxLength={maxLength} aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, { label, hint, error })} onInput={(e) => onValue(e.currentTarget.value)} onKeyDown={onKeyDown} />
    </Frame>
  );
}
