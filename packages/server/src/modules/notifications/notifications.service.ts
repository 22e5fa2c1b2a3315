import { formatCents } from '@lot/domain/money';
import { NOTIFICATION_LIMIT, type Notification, type Notifications } from '@lot/domain/schemas/notifications';
import type { Context } from '../../lib/context.ts';
import {
  beforeClaimsSummary,
  gamesVoidedByOthers,
  moneyTakenBack,
  receivedMoney,
  recentSigninFailures,
  serverRandomnessChanges,
} from './notifications.repository.ts';
import { logFork } from '../../lib/game-log.ts';

/**
 * The bell (docs/product/screens.md#header, decision 022): the last days' events that concern the
 * caller, newest first. Each kind is one index range scan bounded by the same instant: money
 * received (transactions by receiver), money taken back or taken off by an admin's correction (by
 * sender, docs/product/money.md#corrections), games voided by someone else
 * in the caller's record scope (by the recorded hierarchy and status), failed sign-ins on the
 * caller's account still on record (by username; the throttle keeps them only until they no longer
 * count, decision 010), and to admins the admins' changes of the LOT-DRAW-1 permission (decision 061).
 */
export async function listNotifications(ctx: Context): Promise<Notifications> {
  const { db, caller } = ctx;
  const [received, takenBack, voided, failures, randomness] = await Promise.all([
    receivedMoney(db, caller),
    moneyTakenBack(db, caller),
    gamesVoidedByOthers(db, caller),
    recentSigninFailures(db, caller),
    serverRandomnessChanges(db, caller),
  ]);
  const items: Notification[] = [
    ...received.map((row): Notification => ({
      kind: 'received',
      key: `received-${row.id}`,
      at: row.at.toISOString(),
      type: row.type === 'topup' ? 'topup' : 'transfer',
      amount: formatCents(row.amount),
      from: row.from,
    })),
    ...takenBack.map((row): Notification => ({
      kind: row.type === 'decrease' ? 'corrected' : 'takenBack',
      key: `${row.type === 'decrease' ? 'corrected' : 'takenBack'}-${row.id}`,
      at: row.at.toISOString(),
      amount: formatCents(row.amount),
      by: row.by,
      reason: row.reason,
    })),
    ...voided.map((row): Notification => ({
      kind: 'voided',
      key: `voided-${row.id}`,
      at: (row.at ?? new Date(0)).toISOString(),
      code: row.code,
      gameNumber: row.gameNumber,
      player: row.player,
      reason: row.reason,
      prizesAnnounced: row.prizesAnnounced,
    })),
    ...failures.map((row): Notification => ({
      kind: 'signinFailed',
      key: `signinFailed-${row.id}`,
      at: row.at.toISOString(),
      address: row.address,
    })),
    ...randomness.map((row): Notification => ({
      kind: 'serverRandomness',
      key: `serverRandomness-${row.id}`,
      at: row.at.toISOString(),
      allowed: row.allowed === true,
      by: row.by,
    })),
  ];
  items.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
  // The admin's standing notices: a forked game log (decision 080), then prizes from before claims
  // (decision 060), first while they last.
  const before = caller.role === 'admin' ? await beforeClaimsSummary(db) : undefined;
  const fork = caller.role === 'admin' ? await logFork(db) : null;
  const forked: Notification[] = fork
    ? [{ kind: 'logForked', key: `logForked-${fork.at.getTime()}`, at: fork.at.toISOString(), reason: fork.reason }]
    : [];
  const standing: Notification[] =
    before && before.count > 0
      ? [
          {
            kind: 'beforeClaims',
            key: 'beforeClaims',
            at: (before.at ?? new Date(0)).toISOString(),
            count: before.count,
            amount: formatCents(Number(before.amount)),
          },
        ]
      : [];
  return { items: [...forked, ...standing, ...items].slice(0, NOTIFICATION_LIMIT) };
}
