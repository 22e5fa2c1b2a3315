import { useState } from 'react';
import { ExternalLink, MonitorPlay } from 'lucide-react';
import { Modal } from '../../../components/ui/modal.tsx';
import { QrCode } from '../../../components/ui/qr-code.tsx';
import { publicLink } from '@lot/domain/public-url';
import { usePublicBase } from '../../../lib/public-url.ts';
import type { GameTheme, ThemeName } from '../../../lib/game/game-theme.ts';

/**
 * The play screen's way to the customer display (docs/product/game.md#customer-display): the
 * display's address in this screen's theme, to open in a new window or to scan with a phone or a
 * smart TV.
 */
export function CustomerDisplayOffer({
  code,
  themeName,
  theme,
}: {
  code: string;
  themeName: ThemeName;
  theme: GameTheme;
}) {
  const [open, setOpen] = useState(false);
  const { base } = usePublicBase();
  const url = base && publicLink(base, `/display/${encodeURIComponent(code)}?theme=${themeName}`);
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        className={`inline-flex items-center justify-center gap-2 rounded-2xl px-4 py-2.5 text-lg font-bold ${theme.secondary}`}
      >
        <MonitorPlay className="h-5 w-5" aria-hidden="true" />
        Customer display
      </button>
      <Modal open={open} title="Customer display" onClose={() => setOpen(false)} size="sm">
        <div className="flex flex-col items-center gap-4 text-center text-slate-700">
          <p>Show this game live on a screen facing your customers. Scan the code with a phone or a smart TV.</p>
          {url && (
            <>
              <div data-testid="customer-display-qr">
                <QrCode value={url} label={`QR code of ${url}`} className="h-56 w-56" />
              </div>
              <p data-testid="customer-display-url" className="font-mono text-sm break-all text-slate-900">
                {url}
              </p>
              <a
                href={url}
                target="_blank"
                rel="noopener"
                className="inline-flex items-center gap-2 rounded-lg bg-indigo-600 px-4 py-2 font-semibold text-white hover:bg-indigo-700"
              >
                <ExternalLink className="h-4 w-4" aria-hidden="true" />
                Open in a new window
              </a>
            </>
          )}
        </div>
      </Modal>
    </>
  );
}
