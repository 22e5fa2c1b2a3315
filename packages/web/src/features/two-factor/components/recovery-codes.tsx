import { Download } from 'lucide-react';
import { Button } from '../../../components/ui/button.tsx';

/** The ten recovery codes, shown once: to write down or download before going on. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const download = () => {
    const text = `LOT recovery codes: each signs in once, in place of a code from the app.\n\n${codes.join('\n')}\n`;
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'lot-recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <div className="space-y-4">
      <p role="status" className="rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-800 ring-1 ring-emerald-200">
        Two-factor sign-in is on.
      </p>
      <div>
        <h3 className="text-sm font-semibold text-slate-900">Recovery codes</h3>
        <p className="mt-1 text-sm text-slate-600">
          Keep these somewhere safe. If you lose your phone, each code signs you in once instead of a code from the app.
          They are shown only now.
        </p>
      </div>
      <ol
        data-testid="recovery-codes"
        className="grid grid-cols-1 gap-x-6 gap-y-1 rounded-lg bg-slate-50 p-4 font-mono text-sm text-slate-900 ring-1 ring-slate-200 min-[400px]:grid-cols-2"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={download}>
          <Download className="h-4 w-4" aria-hidden="true" />
          Download
        </Button>
        <Button onClick={onDone}>I have saved these codes</Button>
      </div>
    </div>
  );
}
