import { z } from 'zod';
import { errorBodySchema } from '@lot/domain/errors';
import { auditEntrySchema } from '@lot/domain/schemas/audit';
import { sessionSchema } from '@lot/domain/schemas/auth';
import { amountSchema, balanceSchema, moneyResultSchema, transactionSchema } from '@lot/domain/schemas/balance';
import { payoutReceiptSchema, prizeClaimSchema } from '@lot/domain/schemas/claims';
import { moneyAmountSchema } from '@lot/domain/schemas/common';
import { gameProofSchema, gameSchema, gameSummarySchema } from '@lot/domain/schemas/games';
import { notificationSchema } from '@lot/domain/schemas/notifications';
import { activitySchema, dayCloseSchema, downlineSchema, statementSchema } from '@lot/domain/schemas/reports';
import { betSchema, moneySchema, saleDetailSchema, saleSchema } from '@lot/domain/schemas/sales-history';
import { cashSchema, shiftReportSchema, shiftSchema } from '@lot/domain/schemas/shifts';
import { publicUserSchema, userSchema } from '@lot/domain/schemas/users';
import { winnerSchema } from '@lot/domain/schemas/winners';

// The OpenAPI document's shared components (docs/api.md, decision 051): the domain's schemas named
// and described for client generators. Registered here, on the server, so that none of this
// documentation ships in the web app's bundles (docs/ARCHITECTURE.md: first screens stay light).
// Imported for its effect by plugins/docs.ts.

/**
 * How the OpenAPI document shows a money input that is parsed to integer cents: a JSON number or a
 * decimal string with at most two decimals (docs/product/money.md#amount-input). Documentation only.
 */
function decimalInputMeta(id: string | undefined, description: string, minimum: number, exclusive: boolean) {
  return {
    ...(id && { id }),
    description,
    anyOf: [
      { type: 'number', minimum, ...(exclusive && { exclusiveMinimum: true }), maximum: 1_000_000_000 },
      { type: 'string', pattern: '^\\d{1,10}(\\.\\d{1,2})?$', maxLength: 13 },
    ],
    example: '1250.00',
  };
}

z.globalRegistry.add(moneyAmountSchema, {
  id: 'Money',
  description:
    'An amount of money: a decimal string with exactly two places ("1250.00"), integer cents in storage; negative only for signed figures (a net, a variance, a statement row).',
  format: 'decimal',
  pattern: '^-?\\d{1,17}\\.\\d{2}$',
  maxLength: 21,
  example: '1250.00',
});
z.globalRegistry.add(auditEntrySchema, { id: 'AuditEntry' });
z.globalRegistry.add(sessionSchema, { id: 'Session' });
z.globalRegistry.add(
  amountSchema,
  decimalInputMeta(
    'Amount',
    'An amount of money: greater than 0, at most two decimals, at most 1000000000.00; stored as integer cents.',
    0,
    true,
  ),
);
z.globalRegistry.add(balanceSchema, { id: 'Balance' });
z.globalRegistry.add(transactionSchema, { id: 'Transaction' });
z.globalRegistry.add(moneyResultSchema, { id: 'MoneyResult' });
z.globalRegistry.add(prizeClaimSchema, { id: 'PrizeClaim' });
z.globalRegistry.add(payoutReceiptSchema, { id: 'PayoutReceipt' });
z.globalRegistry.add(gameSchema, { id: 'Game' });
z.globalRegistry.add(gameSummarySchema, { id: 'GameSummary' });
z.globalRegistry.add(gameProofSchema, { id: 'GameProof' });
z.globalRegistry.add(notificationSchema, { id: 'Notification' });
z.globalRegistry.add(dayCloseSchema, { id: 'DayClose' });
z.globalRegistry.add(statementSchema, { id: 'Statement' });
z.globalRegistry.add(downlineSchema, { id: 'DownlineReport' });
z.globalRegistry.add(activitySchema, { id: 'ActivityReport' });
z.globalRegistry.add(
  moneySchema,
  decimalInputMeta(undefined, 'An amount of money: 0 or more, at most two decimals.', 0, false),
);
z.globalRegistry.add(
  betSchema,
  decimalInputMeta(
    'Bet',
    'The bet per number: at least the minimum bet, at most two decimals (docs/product/game.md).',
    0,
    true,
  ),
);
z.globalRegistry.add(saleSchema, { id: 'Sale' });
z.globalRegistry.add(saleDetailSchema, { id: 'SaleDetail' });
z.globalRegistry.add(
  cashSchema,
  decimalInputMeta(
    'Cash',
    'Cash counted in the drawer: 0 or more, at most two decimals, at most 1000000000.00.',
    0,
    false,
  ),
);
z.globalRegistry.add(shiftSchema, { id: 'Shift' });
z.globalRegistry.add(shiftReportSchema, { id: 'ShiftReport' });
z.globalRegistry.add(userSchema, { id: 'User' });
z.globalRegistry.add(publicUserSchema, { id: 'PublicUser' });
z.globalRegistry.add(winnerSchema, { id: 'Winner' });
z.globalRegistry.add(errorBodySchema, { id: 'Error' });
