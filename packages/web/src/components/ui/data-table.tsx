import { useEffect, useRef, useState, type Key, type ReactNode } from 'react';

/** Whether an element's content is wider than the element (it scrolls sideways), kept up to date. */
function useOverflowing<E extends HTMLElement>() {
  const ref = useRef<E>(null);
  const [overflowing, setOverflowing] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setOverflowing(element.scrollWidth > element.clientWidth);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, []);
  return { ref, overflowing };
}

export type Column<T> = {
  /** Names the column: `data-column` on its cells, and the React key. */
  key: string;
  header: string;
  /** A short header for a wide table that must fit: shown in an <abbr> whose title is `header`. */
  abbreviation?: string;
  /** The header is read by screen readers only (a column of row actions). */
  hiddenHeader?: boolean;
  /** The header's alignment on a wide screen; a cell aligns itself in `className`. */
  align?: 'left' | 'right';
  /** The small label before the value on a phone card; none for the cells that head the card. */
  label?: string;
  /** The cell's classes: its place on a phone card (order, col-span) and its own look. */
  className?: string | ((row: T) => string);
  render: (row: T) => ReactNode;
};

/**
 * The lists' responsive table (users, winners, transactions, game history). On a wide screen a
 * table that scrolls sideways inside its frame when narrower than `minWidth`; on a phone each row
 * becomes a card: one DOM serves both layouts, the row's grid and each cell's order rearrange the
 * cells and the header row is hidden, so nothing scrolls sideways.
 */
export function DataTable<T>({
  rows,
  columns,
  rowKey,
  rowTestId,
  rowClassName,
  rowData,
  minWidth,
  cellClassName = 'md:px-4 md:py-3',
  headerClassName = 'px-4 py-3',
  labels = 'inline',
}: {
  rows: readonly T[];
  columns: readonly Column<T>[];
  rowKey: (row: T) => Key;
  /** `data-testid` of every row. */
  rowTestId: string;
  /** The phone card's grid (its columns and gaps) and its colours. */
  rowClassName: string | ((row: T) => string);
  /** More `data-*` attributes of a row. */
  rowData?: (row: T) => Record<`data-${string}`, string>;
  /** The wide table's least width, as a class: 'md:min-w-[720px]'. */
  minWidth: string;
  /** Every cell's padding (and anything else) on a wide screen. */
  cellClassName?: string;
  /** Every header cell's padding. */
  headerClassName?: string;
  /** A phone label before its value on the same line, or above it. */
  labels?: 'inline' | 'stacked';
}) {
  const labelClass = labels === 'inline' ? 'mr-1' : 'block';
  const { ref, overflowing } = useOverflowing<HTMLDivElement>();
  return (
    <div
      ref={ref}
      // A frame that scrolls sideways can be scrolled from the keyboard: it takes focus (and says
      // what it is) only while its table is wider than it, so no list gains a needless tab stop.
      {...(overflowing ? { tabIndex: 0, role: 'region', 'aria-label': 'Table, scrolls sideways' } : {})}
      className="md:overflow-x-auto md:rounded-xl md:ring-1 md:ring-slate-200 print:overflow-visible"
    >
      <table role="table" className={`block w-full text-sm md:table ${minWidth}`}>
        <thead role="rowgroup" className="hidden bg-slate-50 md:table-header-group">
          <tr role="row">
            {columns.map((column) => (
              <th
                key={column.key}
                role="columnheader"
                scope="col"
                className={`${headerClassName} text-xs font-semibold tracking-wide text-slate-500 uppercase ${
                  column.align === 'right' ? 'text-right' : 'text-left'
                }`}
              >
                {column.hiddenHeader ? (
                  <span className="sr-only">{column.header}</span>
                ) : column.abbreviation ? (
                  <abbr title={column.header}>{column.abbreviation}</abbr>
                ) : (
                  column.header
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody
          role="rowgroup"
          className="block space-y-3 md:table-row-group md:space-y-0 md:divide-y md:divide-slate-100"
        >
          {rows.map((row) => (
            <tr
              key={rowKey(row)}
              role="row"
              data-testid={rowTestId}
              {...rowData?.(row)}
              className={`rounded-xl px-4 py-3 ring-1 ring-slate-200 md:table-row md:rounded-none md:p-0 md:ring-0 ${
                typeof rowClassName === 'function' ? rowClassName(row) : rowClassName
              }`}
            >
              {columns.map((column) => (
                <td
                  key={column.key}
                  role="cell"
                  data-column={column.key}
                  className={`min-w-0 md:table-cell ${cellClassName} ${
                    typeof column.className === 'function' ? column.className(row) : (column.className ?? '')
                  }`}
                >
                  {column.label && (
                    <span className={`${labelClass} text-xs text-slate-500 md:hidden`} aria-hidden="true">
                      {column.label}
                    </span>
                  )}
                  {column.render(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
