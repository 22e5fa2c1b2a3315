import type { Transaction } from '@lot/domain/schemas/balance';

export type Direction = 'in' | 'out' | 'neutral';

export type TransactionView = {
  typeLabel: string;
  direction: Direction;
  from: string;
  to: string;
  statusLabel: 'Completed' | 'Pending' | 'Failed';
  statusTone: 'green' | 'yellow' | 'red';
};

/**
 * How one ledger row reads to the viewer (spec screen 6). A transfer to me is "Received" and
 * money in; one I sent is money out. A top-up always adds money and a game or deduction always
 * takes it away, so they keep their sign even for an admin looking at other people's rows; a
 * transfer between two other people moves money without changing anyone's total in view, so it
 * gets no sign.
 */
export function viewTransaction(tx: Transaction, viewerId: number): TransactionView {
  const statusLabel = tx.status === 'completed' ? 'Completed' : tx.status === 'pending' ? 'Pending' : 'Failed';
  const statusTone = tx.status === 'completed' ? 'green' : tx.status === 'pending' ? 'yellow' : 'red';
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
      return { ...base, typeLabel: 'Game', direction: 'out' };
    case 'decrease':
      return { ...base, typeLabel: 'Deduction', direction: 'out' };
    default:
      return { ...base, typeLabel: 'Other', direction: 'neutral' };
  }
}
