import { useState } from 'react';
import { Keyboard } from 'lucide-react';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { Card } from '../../../components/ui/panels.tsx';
import { PaperChoice } from '../../../components/ui/paper-choice.tsx';
import type { SlipWidth } from '../../../lib/slip-width.ts';
import { type ClaimKey, readScannedCode, readTypedCode } from './entry-code.ts';
import { QrScanner } from './qr-scanner.tsx';

/** Finding the prize: the camera reading the entry slip's QR code or its entry code typed, and the receipt paper. */
export function FindPrizeCard({
  onKey,
  width,
  onWidth,
}: {
  onKey: (key: ClaimKey) => void;
  width: SlipWidth;
  onWidth: (width: SlipWidth) => void;
}) {
  const [readError, setReadError] = useState<string | null>(null);

  const onScan = (text: string) => {
    const read = readScannedCode(text);
    if (!read.ok) {
      setReadError(read.message);
      return false;
    }
    setReadError(null);
    onKey(read.key);
    return true;
  };

  return (
    <Card title="Find the prize">
      <div className="space-y-5">
        <QrScanner onRead={onScan} />
        {readError && (
          <p role="alert" className="rounded-lg bg-rose-50 p-3 text-sm text-rose-700 ring-1 ring-rose-200">
            {readError}
          </p>
        )}
        <TypedCodeForm
          onCode={(next) => {
            setReadError(null);
            onKey(next);
          }}
        />
        <PaperChoice label="Receipt paper" width={width} onChange={onWidth} />
      </div>
    </Card>
  );
}

function TypedCodeForm({ onCode }: { onCode: (key: ClaimKey) => void }) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      className="space-y-2 border-t border-slate-100 pt-4"
      onSubmit={(event) => {
        event.preventDefault();
        const read = readTypedCode(value);
        if (!read.ok) {
          setError(read.message);
          return;
        }
        setError(null);
        onCode(read.key);
      }}
    >
      <TextField
        label="Entry code"
        value={value}
        onChange={(event) => setValue(event.target.value)}
        placeholder="0000 0000 0000 0000"
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        className="font-mono"
        error={error ?? undefined}
        hint="16 characters, printed under the number on the entry slip"
      />
      <Button type="submit" variant="secondary" className="w-full">
        <Keyboard className="h-4 w-4" aria-hidden="true" />
        Find prize
      </Button>
    </form>
  );
}
