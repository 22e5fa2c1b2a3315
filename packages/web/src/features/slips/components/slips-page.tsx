import { useState } from 'react';
import { Printer } from 'lucide-react';
import { gameTitle } from '@lot/domain/game';
import type { Game, SlipPrint, SlipPrintInput } from '@lot/domain/schemas/games';
import { Button } from '../../../components/ui/button.tsx';
import { Card, ErrorPanel, PageHeading, Spinner } from '../../../components/ui/panels.tsx';
import { PaperChoice } from '../../../components/ui/paper-choice.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { count, dateTime } from '../../../lib/format.ts';
import { useGame } from '../../../lib/game/get-game.ts';
import { useSlips } from '../api/get-slips.ts';
import { useSlipPrinter } from '../hooks/use-slip-printer.tsx';
import { EntrySlip, ResultSlip } from './slip.tsx';
import { NotFound, SlipsFrame, UnreachableLinks } from './slips-page-parts.tsx';
import { useSlipWidth } from '../../../lib/slip-width.ts';

const STATUS_LABEL: Record<Game['status'], string> = {
  open: 'Open',
  drawing: 'Drawing',
  settled: 'Settled',
  voided: 'Voided',
  discarded: 'Discarded',
};

const timesText = (times: number) => (times === 1 ? 'once' : `${count(times)} times`);

/** A slip's print count on screen: "Not printed yet" or "Printed 2 times · last Nov 23, 7:40 PM". */
function PrintCount({ print, testId }: { print: SlipPrint | undefined; testId: string }) {
  return (
    <p data-testid={testId} className="text-sm text-slate-600">
      {print ? `Printed ${timesText(print.printCount)} · last ${dateTime(print.lastPrintedAt)}` : 'Not printed yet'}
    </p>
  );
}

/**
 * docs/product/screens.md#slips (/user/number-game/slips/{gameId}): the entry slips of a game's
 * participants and, once it ended, its result slip, previewed at the paper width chosen on this
 * device. Print records the print on the server first (docs/product/game.md#slips), then prints the
 * slips as the server counted them: from the second print on a slip says COPY (useSlipPrinter).
 */
export function SlipsPage({ gameId, player }: { gameId: number | null; player: { id: number; hasLogo: boolean } }) {
  const game = useGame(gameId);
  const slips = useSlips(game.data && game.data.status !== 'discarded' ? game.data.id : null);
  const printer = useSlipPrinter(player);
  const { base, unreachable } = printer;
  const [width, setWidth] = useSlipWidth();
  const [pending, setPending] = useState<string | null>(null);
  const [printError, setPrintError] = useState<string | null>(null);

  if (gameId === null || (game.isError && game.error instanceof ApiError && [400, 404].includes(game.error.status)))
    return (
      <SlipsFrame>
        <NotFound />
      </SlipsFrame>
    );
  if (game.isError)
    return (
      <SlipsFrame>
        <ErrorPanel message="Failed to fetch the game" onRetry={() => void game.refetch()} />
      </SlipsFrame>
    );
  if (game.isPending || base === null)
    return (
      <SlipsFrame>
        <Spinner label="Loading the game's slips..." />
      </SlipsFrame>
    );

  const data = game.data;
  const shop = printer.shopOf(data);
  const ended = data.status === 'settled' || data.status === 'voided';
  const entries = [...data.entries].sort((a, b) => a.number - b.number);
  const printOf = (kind: SlipPrint['kind'], number: number | null) =>
    slips.data?.find((slip) => slip.kind === kind && slip.number === number);

  const print = async (key: string, targets: SlipPrintInput[]) => {
    setPending(key);
    setPrintError(null);
    setPrintError(await printer.print(data, targets, width));
    setPending(null);
  };

  const printButton = (key: string, label: string, targets: SlipPrintInput[], accessibleName?: string) => (
    <Button
      variant={key === 'all' ? 'primary' : 'secondary'}
      disabled={pending !== null}
      aria-label={accessibleName}
      onClick={() => void print(key, targets)}
    >
      <Printer className="h-4 w-4" aria-hidden="true" />
      {pending === key ? 'Printing...' : label}
    </Button>
  );

  return (
    <SlipsFrame>
      <PageHeading title="Slips">
        <span data-testid="slips-game-number" className="font-semibold text-slate-700">
          {gameTitle(data.number)}
        </span>{' '}
        · <span className="font-mono break-all text-slate-700">{data.code}</span> ·{' '}
        <span data-testid="slips-game-status">{STATUS_LABEL[data.status]}</span>
      </PageHeading>

      {data.status !== 'discarded' && unreachable && <UnreachableLinks base={base} />}

      {data.status === 'discarded' ? (
        <Card>
          <p data-testid="slips-discarded" className="text-sm text-slate-600">
            This game was discarded before its first draw: it has no slips.
          </p>
        </Card>
      ) : (
        <>
          <Card>
            <div className="flex flex-wrap items-end justify-between gap-4">
              <PaperChoice width={width} onChange={setWidth} />
              {entries.length > 0 &&
                printButton(
                  'all',
                  'Print all entry slips',
                  entries.map((entry) => ({ kind: 'entry', number: entry.number })),
                )}
            </div>
            <p className="mt-3 text-xs text-slate-500">
              Remembered on this device. In the print dialog, choose the same paper and no margins for a thermal roll.
            </p>
          </Card>

          {printError && (
            <p role="alert" className="rounded-xl bg-rose-50 px-4 py-3 text-sm text-rose-800 ring-1 ring-rose-200">
              {printError}
            </p>
          )}
          {slips.isError && (
            <p role="alert" className="text-sm text-rose-700">
              The print counts could not be loaded; printing still works.
            </p>
          )}

          <section aria-labelledby="entry-slips-heading" className="space-y-3">
            <h2 id="entry-slips-heading" className="text-base font-semibold text-slate-900">
              Entry slips ({entries.length})
            </h2>
            {entries.length === 0 ? (
              <Card>
                <p className="text-sm text-slate-600">No participants have been entered yet.</p>
              </Card>
            ) : (
              <ul className="flex flex-wrap items-start gap-4">
                {entries.map((entry) => (
                  <li key={entry.number} className="max-w-full space-y-2">
                    <div className="overflow-hidden rounded-lg shadow-sm ring-1 ring-slate-200">
                      <EntrySlip game={data} entry={entry} shop={shop} width={width} base={base} />
                    </div>
                    <div className="flex flex-wrap items-center justify-between gap-2">
                      <PrintCount print={printOf('entry', entry.number)} testId={`print-count-${entry.number}`} />
                      {printButton(
                        `entry-${entry.number}`,
                        'Print',
                        [{ kind: 'entry', number: entry.number }],
                        `Print entry slip ${entry.number}`,
                      )}
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </section>

          <section aria-labelledby="result-slip-heading" className="space-y-3">
            <h2 id="result-slip-heading" className="text-base font-semibold text-slate-900">
              Result slip
            </h2>
            {ended ? (
              <div className="inline-block max-w-full space-y-2">
                <div className="overflow-hidden rounded-lg shadow-sm ring-1 ring-slate-200">
                  <ResultSlip game={data} shop={shop} width={width} base={base} />
                </div>
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <PrintCount print={printOf('result', null)} testId="print-count-result" />
                  {printButton('result', 'Print', [{ kind: 'result' }], 'Print result slip')}
                </div>
              </div>
            ) : (
              <Card>
                <p data-testid="result-slip-later" className="text-sm text-slate-600">
                  The result slip can be printed when the game ends: once its last position is drawn, or if it is
                  voided.
                </p>
              </Card>
            )}
          </section>
        </>
      )}
      {printer.sheet}
    </SlipsFrame>
  );
}
