import type { Transaction } from '@lot/domain/schemas/balance';

export type Direction = 'in' | 'out' | 'neutral';

/**
 * A ledger row as GET /api/transactions answers it: a game's row names the game by its public code,
 * and a game voided after a draw has status "voided" (its held pool returned).
 */
export type LedgerRow = Transaction;

export type TransactionView = {
  typeLabel: string;
  direction: Direction;
  from: string;
  to: string;
  statusLabel: 'Completed' | 'Pending' | 'Failed' | 'Voided';
  statusTone: 'green' | 'yellow' | 'red' | 'grey';
};

const STATUS: Record<LedgerRow['status'], Pick<TransactionView, 'statusLabel' | 'statusTone'>> = {
  completed: { statusLabel: 'Completed', statusTone: 'green' },
  pending: { statusLabel: 'Pending', statusTone: 'yellow' },
  failed: { statusLabel: 'Failed', statusTone: 'red' },
  voided: { statusLabel: 'Voided', statusTone: 'grey' },
};

/**
 * How one ledger row reads to the viewer (docs/product/screens.md#transactions). A transfer to me is "Received" and
 * money in; one I sent is money out. A top-up always adds money and a game or deduction always
 * takes it away, so they keep their sign even for an admin looking at other people's rows; a
 * transfer between two other people moves money without changing anyone's total in view, so it
 * gets no sign; a take-back reads the same way (in for the one who took it, out for the account it
 * came from). A voided game's pool went back to the player, so its row moves nothing.
 */
export function viewTransaction(tx: LedgerRow, viewerId: number): TransactionView {
  const { statusLabel, statusTone } = STATUS[tx.status] ?? { statusLabel: 'Failed', statusTone: 'red' };
  const from = tx.user?.username || 'Unknown';
  const to = tx.receiver?.username || (tx.type === 'topup' || tx.type === 'transfer' ? 'Unknown' : '—');
  const base = { from, to, statusLabel, statusTone } as const;
  switch (tx.type) {
    case 'topup':
      return { ...base, typeLabel: 'Top Up', direction: 'in' };
    case 'transfer':
      if (tx.receiverId === viewerId) return { ...base, typeLabel: 'Received', direction: 'in' };
      return { ...base, typeLabel: 'Transfer', direction: tx.userId === viewerId ? 'out' : 'neutral' };
    case 'game':
      return { ...base, typeLabel: 'Game', direction: tx.status === 'voided' ? 'neutral' : 'out' };
    case 'decrease':
      return { ...base, typeLabel: 'Deduction', direction: 'out' };
    case 'takeback':
      // Money taken back: into the viewer's balance when they took it, out of it when it was theirs.
      if (tx.receiverId === viewerId) return { ...base, typeLabel: 'Taken Back', direction: 'in' };
      return { ...base, typeLabel: 'Taken Back', direction: tx.userId === viewerId ? 'out' : 'neutral' };
    default:
      return { ...base, typeLabel: 'Other', direction: 'neutral' };
  }
}
