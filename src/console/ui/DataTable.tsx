/**
 * A table of rows: columns say how to show a row; long names and messages wrap inside their cell
 * instead of widening the page, and on a narrow screen the table scrolls inside its own frame.
 */
import type { ComponentChildren } from 'preact';
import { COMMON } from '../i18n/common.ts';
import { useT } from '../i18n/lang.ts';

export interface Column<T> {
  readonly header: ComponentChildren;
  readonly cell: (row: T) => ComponentChildren;
  /** "num" right-aligns numbers; "wrap" lets long text break anywhere; "nowrap" keeps it on one line. */
  readonly kind?: 'num' | 'wrap' | 'nowrap';
}

export interface DataTableProps<T> {
  readonly rows: readonly T[];
  readonly columns: readonly Column<T>[];
  readonly rowKey: (row: T) => string | number;
  readonly empty?: ComponentChildren;
  readonly label: string;
  readonly onRowClick?: (row: T) => void;
  readonly testId?: string;
  /** Attributes of a row's <tr> (data-* for tests and styles, class). */
  readonly rowAttrs?: (row: T) => Readonly<Record<string, string | undefined>>;
  /** On a phone, each row as a block of "header: value" lines instead of a table that scrolls sideways. */
  readonly stackOnPhone?: boolean;
}

export function DataTable<T>({ rows, columns, rowKey, empty, label, onRowClick, testId, rowAttrs, stackOnPhone }: DataTableProps<T>) {
  const t = useT(COMMON);
  if (rows.length === 0) return <p class="empty">{empty ?? t('empty')}</p>;
  return (
    <div class="table-frame" role="region" aria-label={label} tabIndex={0}>
      <table class={[onRowClick ? 'clickable' : '', stackOnPhone ? 'stack' : ''].filter(Boolean).join(' ') || undefined} data-testid={testId}>
        <thead>
          <tr>{columns.map((c, i) => <th key={i} class={c.kind} scope="col">{c.header}</th>)}</tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr {...rowAttrs?.(row)} key={rowKey(row)} onClick={onRowClick ? () => onRowClick(row) : undefined}
              onKeyDown={onRowClick ? (e) => { if (e.key === 'Enter') onRowClick(row); } : undefined} tabIndex={onRowClick ? 0 : undefined}>
              {columns.map((c, i) => stackOnPhone
                ? <td key={i} class={c.kind} data-label={typeof c.header === 'string' ? c.header : undefined}><div class="cell">{c.cell(row)}</div></td>
                : <td key={i} class={c.kind}>{c.cell(row)}</td>)}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
