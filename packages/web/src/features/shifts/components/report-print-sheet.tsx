import { useEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import type { ShiftReport } from '@lot/domain/schemas/shifts';
import { isThermal, type SlipWidth } from '../../../lib/slip-width.ts';
import { ReportSlip } from './report-slip.tsx';

/** A print under way: the report, the paper, the moment. */
export type ReportPrintJob = { id: number; report: ShiftReport; width: SlipWidth; printedAt: Date };

const MM_PER_PX = 25.4 / 96;

/** On a roll the report is one page the paper's width and as long as the report; on A4 a page with margins. */
function pageRule(sheet: HTMLElement, width: SlipWidth): string {
  if (!isThermal(width)) return '@page { size: A4; margin: 15mm; }';
  const paper = width === '58mm' ? 58 : 80;
  const slip = sheet.querySelector<HTMLElement>('.report-slip');
  const length = Math.max(40, Math.ceil((slip?.getBoundingClientRect().height ?? 0) * MM_PER_PX) + 1);
  return `@page { size: ${paper}mm ${length}mm; margin: 0; }`;
}

/**
 * The report being printed, rendered under <body> beside the app, which the print style hides (as the
 * game's slips print, docs/product/game.md#slips): once laid out, the page rule is written and the
 * browser's print dialog opens.
 */
export function ReportPrintSheet({ job }: { job: ReportPrintJob }) {
  const sheetRef = useRef<HTMLDivElement>(null);
  const styleRef = useRef<HTMLStyleElement>(null);

  useEffect(() => {
    const sheet = sheetRef.current;
    const style = styleRef.current;
    if (!sheet || !style) return;
    style.textContent = pageRule(sheet, job.width);
    window.print();
  }, [job]);

  return createPortal(
    <div ref={sheetRef} className="report-print-sheet" data-width={job.width} data-testid="report-print-sheet">
      <style ref={styleRef} />
      <ReportSlip report={job.report} width={job.width} printedAt={job.printedAt} />
    </div>,
    document.body,
  );
}
