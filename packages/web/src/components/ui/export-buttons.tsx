import { useState } from 'react';
import { Download, Loader2 } from 'lucide-react';
import { errorMessage } from '../../lib/api-client.ts';
import { apiDownload } from '../../lib/download.ts';
import { browserTimeZone } from '../../lib/periods.ts';
import { useToast } from './toast.tsx';

type Query = Record<string, string | number | undefined | null>;

const FORMATS = [
  { format: 'csv', label: 'CSV' },
  { format: 'xlsx', label: 'Excel' },
] as const;

/** `1.4 MB`, `820 kB`. */
function size(bytes: number): string {
  return bytes >= 1_000_000 ? `${(bytes / 1_000_000).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1000))} kB`;
}

/**
 * Export the list on screen, with its filters, as CSV or Excel (docs/product/reports.md#exports).
 * The server streams the file; this shows how much has arrived, then saves it under the server's
 * name. One export at a time; a failure says why and leaves the screen as it was.
 */
export function ExportButtons({ path, query, label = 'Export' }: { path: string; query: Query; label?: string }) {
  const toast = useToast();
  const [running, setRunning] = useState<{ label: string; bytes: number } | null>(null);

  const run = async (format: 'csv' | 'xlsx', formatLabel: string) => {
    if (running) return;
    setRunning({ label: formatLabel, bytes: 0 });
    try {
      const { blob, fileName } = await apiDownload(path, {
        query: { ...query, format, tz: browserTimeZone() },
        onProgress: (bytes) => setRunning({ label: formatLabel, bytes }),
      });
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = fileName;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      toast.success(`Exported ${fileName}`);
    } catch (error) {
      toast.error(`Error: ${errorMessage(error, 'Export failed')}`);
    } finally {
      setRunning(null);
    }
  };

  return (
    <div className="flex flex-wrap items-center gap-2 print:hidden" role="group" aria-label={label}>
      <span className="text-sm font-medium text-slate-600">{label}</span>
      {FORMATS.map(({ format, label: formatLabel }) => (
        <button
          key={format}
          type="button"
          disabled={running !== null}
          onClick={() => void run(format, formatLabel)}
          className="inline-flex items-center gap-1.5 rounded-lg bg-white px-3 py-1.5 text-sm font-semibold text-slate-700 shadow-sm ring-1 ring-slate-300 ring-inset hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-60"
        >
          <Download className="h-4 w-4" aria-hidden="true" />
          {formatLabel}
        </button>
      ))}
      {running && (
        <span role="status" className="inline-flex items-center gap-1.5 text-sm text-slate-600">
          <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
          Preparing {running.label}… {running.bytes > 0 ? `${size(running.bytes)} received` : ''}
        </span>
      )}
    </div>
  );
}
