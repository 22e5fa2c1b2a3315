import { ChevronLeft, ChevronRight } from 'lucide-react';

/** Page buttons (docs/product/screens.md#pagination): first, last and current±1, with ellipses between. */
export function pageItems(current: number, pages: number): (number | 'gap')[] {
  const wanted = [...new Set([1, current - 1, current, current + 1, pages])]
    .filter((p) => p >= 1 && p <= pages)
    .sort((a, b) => a - b);
  const items: (number | 'gap')[] = [];
  wanted.forEach((page, index) => {
    const previous = wanted[index - 1];
    if (previous !== undefined && page - previous > 1) items.push('gap');
    items.push(page);
  });
  return items;
}

export function Pagination({
  page,
  pageSize,
  total,
  onPage,
}: {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  // On a phone Previous and Next are arrows (named for screen readers), so seven buttons fit one line.
  const button = 'min-w-9 rounded-lg px-2 py-1.5 text-sm font-medium ring-1 ring-inset sm:px-3';
  return (
    <nav
      aria-label="Pagination"
      className="flex flex-col items-center justify-between gap-3 border-t border-slate-100 pt-4 sm:flex-row"
    >
      <p className="text-sm text-slate-600">
        Showing {first} to {last} of {total} entries
      </p>
      <div className="flex items-center gap-1">
        <button
          type="button"
          className={`${button} ring-slate-300 text-slate-700 hover:bg-slate-50 disabled:opacity-40`}
          disabled={page <= 1}
          onClick={() => onPage(page - 1)}
        >
          <ChevronLeft className="mx-auto h-4 w-4 sm:hidden" aria-hidden="true" />
          <span className="max-sm:sr-only">Previous</span>
        </button>
        {pageItems(page, pages).map((item, index) =>
          item === 'gap' ? (
            <span key={`gap-${index}`} className="px-1 text-slate-500">
              …
            </span>
          ) : (
            <button
              type="button"
              key={item}
              aria-current={item === page ? 'page' : undefined}
              className={`${button} ${item === page ? 'bg-indigo-600 text-white ring-indigo-600' : 'ring-slate-300 text-slate-700 hover:bg-slate-50'}`}
              onClick={() => onPage(item)}
            >
              {item}
            </button>
          ),
        )}
        <button
          type="button"
          className={`${button} ring-slate-300 text-slate-700 hover:bg-slate-50 disabled:opacity-40`}
          disabled={page >= pages}
          onClick={() => onPage(page + 1)}
        >
          <ChevronRight className="mx-auto h-4 w-4 sm:hidden" aria-hidden="true" />
          <span className="max-sm:sr-only">Next</span>
        </button>
      </div>
    </nav>
  );
}
