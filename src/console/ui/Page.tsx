/** The frame of a page: its title and what it is for, its actions, and cards and figures inside it. */
import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';

export function PageHeader({ title, description, actions }: { readonly title: string; readonly description?: ComponentChildren; readonly actions?: ComponentChildren }) {
  useEffect(() => {
    document.title = `${title} · Model Gateway`;
  }, [title]);
  return (
    <header class="page-header">
      <div>
        <h1>{title}</h1>
        {description && <p class="muted">{description}</p>}
      </div>
      {actions && <div class="page-actions">{actions}</div>}
    </header>
  );
}

export function Card({ title, actions, children, id }: { readonly title?: ComponentChildren; readonly actions?: ComponentChildren; readonly children: ComponentChildren; readonly id?: string }) {
  return (
    <section class="card" id={id}>
      {(title || actions) && (
        <header class="card-head">
          {title && <h2>{title}</h2>}
          {actions && <div class="card-actions">{actions}</div>}
        </header>
      )}
      <div class="card-body">{children}</div>
    </section>
  );
}

export function Stat({ label, value, sub, testId }: { readonly label: string; readonly value: ComponentChildren; readonly sub?: ComponentChildren; readonly testId?: string }) {
  return (
    <div class="stat" data-testid={testId}>
      <div class="stat-label">{label}</div>
      <div class="stat-value" style={typeof value === 'string' ? { '--chars': String(value.length) } : undefined}>{value}</div>
      {sub && <div class="stat-sub">{sub}</div>}
    </div>
  );
}

/** The status of a row as a coloured word. */
export function Badge({ tone, children }: { readonly tone: 'ok' | 'warn' | 'bad' | 'muted'; readonly children: ComponentChildren }) {
  return <span class={`badge ${tone}`}>{children}</span>;
}
