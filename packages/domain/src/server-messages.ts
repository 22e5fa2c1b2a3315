import type { FreezeRefusal } from './freeze-round.ts';
/**
 * The texts a user reads only in the server's answers (decision 071): refusals, the sentences a
 * change answers, the answers to a request the server cannot read. The web app shows them from the
 * answer and never imports this file (a lint rule), so they stay off its first screens; a text the
 * web also writes or checks itself lives in `@lot/domain/messages`. The server throws them by name,
 * never as a literal.
 */
export const SERVER_MESSAGES = {
  // The game log's tiles (docs/lot-draw-2.md#the-game-log)
  noSuchTile: 'No such tile: paths are tile/<L>/<N>[.p/<W>] as C2SP tlog-tiles writes them',
  noEntryBundleYet: 'The game log has no such entry bundle yet',
  noTileYet: 'The game log has no such tile yet',
  takeBackFromYourself: 'You cannot take back from yourself',
  usernameInUse: 'Username is already in use',
  invalidCredentials: 'Invalid username or password',
  accountInactive: 'Your account is inactive. Please contact your administrator.',
  tooManyAttempts: 'Too many failed sign-in attempts. Please try again later.',
  forbidden: 'Forbidden',
  notFound: 'Not found',
  currentPasswordWrong: 'Current password is incorrect',
  bodyTooLarge: 'Request body is too large',
  internalError: 'An unexpected error occurred. Please try again.',
  notReady: 'The service is not ready: the database did not answer',
  notReadyStopping: 'The service is not ready: this process is stopping',
  // Two-factor sign-in and sessions (docs/product/runtime-and-security.md#two-factor-sign-in)
  twoFactorAlreadyOn: 'Two-factor sign-in is already on',
  twoFactorNotOn: 'Two-factor sign-in is not on',
  twoFactorNoEnrolment: 'Start the set-up again: no set-up is waiting for a code',
  twoFactorRequiredByRole: 'Your role requires two-factor sign-in: it cannot be turned off',
  twoFactorEnabled: 'Two-factor sign-in is on',
  signedOut: 'Signed out',
  // Backup keys (docs/product/runtime-and-security.md#backup-keys, decision 041)
  backupKeyNameInUse: 'A backup key with this name exists already',
  backupKeyCreated: 'Backup key created',
  backupKeyRevoked: 'Backup key revoked',
  backupKeyAlreadyRevoked: 'This backup key is revoked already',
  backupKeyInvalid: 'This backup key is not valid: it was revoked, or never existed',
  // The audit trail
  auditUsersOnly: 'Only the admin, super agents and agents read the audit trail',
  // Users and their hierarchy (docs/product/roles-and-scope.md)
  userNotFound: 'User not found',
  parentNotFound: 'Parent not found',
  parentMustBeSuperAgent: 'Parent must be a super agent',
  parentMustBeSuperAgentOrAgent: 'Parent must be a super agent or an agent',
  parentNotYours: 'You cannot choose the parent of this user',
  logoNotFound: 'Logo not found',
  usersExportForbidden: 'Only the admin, super agents and agents export users',
  ownPasswordViaChangePassword: 'Use Change Password to change your own password',
  ownLogoOnly: 'Only the user can change their own logo',
  deleteOwnAccount: 'You cannot delete your own account',
  // Winner settings (docs/product/game.md)
  winnersOwnOnly: 'You can only manage your own winner settings',
  winnersBelongToUser: 'Winner settings belong to a user',
  winnerNotFound: 'Winner configuration not found',
  winnerCannotMove: 'A winner configuration cannot move to another user',
  // Money moves
  receiverNotFound: 'Receiver not found',
  receiverInactive: 'The receiver is inactive',
  transferToYourself: 'You cannot transfer funds to yourself',
  // Games, their draw and their slips
  gameInProgress: 'You already have a game in progress',
  participantsLocked: 'The draw has started: the participants can no longer change',
  gameBusy: 'The game is changing on another device: try again',
  uplineCannotStart: 'Only the shop that runs a game can start its draw',
  /** Decision 094: a void after a winning draw, sent without `afterWinner`. */
  voidAfterWinnerRequired:
    'A draw of this game already named a winner: voiding it now takes the prize back. Say why you void it after the winner, and void it again',
  operatorCannotVoidFrozen:
    'The draw has started, so its outcome is fixed: this game can no longer be voided by its shop. Ask your agent or an admin to finish or void it',
  beaconUnreachable:
    'Public randomness cannot be reached right now: a game cannot open until it answers. Try again shortly',
  slipsOfDiscardedGame: 'This game was discarded: it has no slips',
  resultSlipNotYet: 'The result slip is printed once the game is settled or voided',
  // Sales history
  notAServerGame: 'Games are drawn and recorded by the server: only a finished server-run game can be described here',
  recordOwnGamesOnly: 'You can only record your own games',
  // Reports
  downlineForbidden: 'Only the admin, super agents and agents have a downline',
  downlineChooseParent: 'Choose a super agent or an agent',
  dayCloseOwnOnly: 'You can only see your own day close',
  dayCloseChooseShop: 'Choose the shop (a user) whose day to close',
  dayCloseShopOnly: 'A day close is for a shop: choose a user',
  // Shifts (docs/product/shifts.md)
  shiftNotFound: 'Shift not found',
  shiftAlreadyOpen: 'A shift is already open',
  shiftAlreadyClosed: 'This shift is already closed',
  shiftGameInProgress: 'Finish or discard the game in progress before closing the shift',
  shiftMovementRecorded: 'Cash movement recorded',
  takeBackNoOpenShift: 'This shop has no open shift: its drawer cannot be taken from',
  // Prize claims (decision 038, docs/product/money.md#prize-claims)
  claimNotFound: 'Prize not found',
  claimUnknownEntry: 'No entry slip has this code',
  claimNoPrize: 'This entry won no prize',
  claimNotDrawn: 'This game has not been drawn yet',
  claimOtherShop: 'Only the shop that ran this game can pay this prize',
  claimNotPaid: 'This prize has not been paid',
  claimPaidCannotExtend: 'This prize was paid: its claim cannot be extended',
  claimBeforeClaims: 'This prize was won before prize claims existed: it cannot be paid or extended here',
  // A payout carries its slip's entry code (decision 086)
  claimWrongEntryCode:
    'This is not the entry code of this prize’s slip: scan the winner’s slip or type the code printed on it',
  claimNeedsApproval:
    'This prize’s entry has no entry code: the admin must approve its payout to the claimer’s ID number first',
  claimWrongClaimerId: 'This is not the ID number the admin approved for this prize',
  claimApproveHasCode: 'This prize’s entry has an entry code: it is paid with the winner’s slip, without approval',
  claimApproveNotUnpaid: 'Only a prize not paid yet and not expired can be approved',
  // What a change answers when it succeeds
  loginSuccessful: 'Login successful',
  userDeleted: 'User deleted successfully',
  winnerDeleted: 'Winner configuration deleted successfully',
  toppedUpTo: 'Funds successfully topped up to ',
  transferredTo: 'Funds successfully transferred to ',
  balanceDecreased: 'Balance decreased successfully',
  takenBackFrom: 'Funds successfully taken back from ',
  logoNotAFile: 'Logo must be a file',
  // Requests the server cannot read or take
  bodyNotJson: 'Request body must be valid JSON',
  unsupportedContentType: 'Unsupported content type',
  formDataUnreadable: 'The form data could not be read',
  badRequest: 'Bad request',
  unstorableText: 'Text must not contain the NUL character or broken Unicode',
  idempotencyKeyInvalid: 'Idempotency-Key must be 1 to 200 visible ASCII characters',
  idempotencyKeyReused: 'This Idempotency-Key was already used for a different request',
  displayTicketExpired: 'The display ticket has expired',
  tooManyDisplays: 'Too many displays are open; try again shortly',
  tooManyDisplaysFromAddress: 'Too many displays are open from this address',
  tooManyDisplaysOfGame: 'Too many displays of this game are open; try again shortly',
  tooManyOwnDisplays: 'You have too many customer displays open',
  serverStopping: 'The server is stopping',
  backupOnPostgres:
    'This server runs on PostgreSQL: back it up with npm run backup, which runs pg_dump on DATABASE_URL.',
} as const;

/** A winner configuration on a position another active one of its owner already has (decision 035). */
export const positionTaken = (position: number) => `Position ${position} already has a prize`;

/** The messages that name a value: each takes the value already formatted for the reader. */
export const parentRoleHasNone = (role: string) => `A ${role} has no parent`;
export const deleteHasBalance = (fullName: string, balance: string) =>
  `Cannot delete ${fullName}: their balance is ${balance}. Move the funds first.`;
export const deleteHasStakeInGame = (fullName: string) =>
  `Cannot delete ${fullName}: a game in progress holds their stake. Finish or void it first.`;
export const deleteHasDownline = (fullName: string) =>
  `Cannot delete ${fullName}: they still have agents or users under them.`;
export const positionTakenAtOpen = (position: number) =>
  `Position ${position} already has a prize: fix the winner settings before opening a game`;
export const winnersOver100 = (percent: string) => `The active winner settings add up to more than 100% (${percent}%)`;
export const rangeTooSmall = (prizes: number) => `The range needs at least ${prizes} numbers to draw ${prizes} prizes`;
export const numberOutsideRange = (number: number, start: number, end: number) =>
  `Number ${number} is outside the range ${start} to ${end}`;
export const drawInOrder = (next: number) => `Draw the positions in order: the next one is ${next}`;
export const gameEnded = (status: string) => `This game has ended (${status})`;
export const noParticipantNumber = (number: number | undefined) => `No participant has number ${number} in this game`;
export const gameRecordInconsistent = (reason: string) => `The game record does not add up: ${reason}`;
export const dateAfterToday = (today: string, timeZone: string) =>
  `date cannot be after today (${today} in ${timeZone})`;
/** `at` as `formatDateTimeIn` writes it in the caller's zone: "Nov 29, 8:31 AM" (decision 090). */
export const claimAlreadyPaid = (shop: string, at: string) => `Already paid at ${shop} on ${at}`;
/** Wrong entry codes for one prize from one shop, blocked for a while (decision 086). */
export const claimCodesThrottled = (minutes: number) =>
  `Too many wrong entry codes for this prize. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}`;
/** `at` with its year, in the caller's zone: "Dec 29, 2026, 8:31 AM". */
export const claimExpired = (at: string) => `This prize expired on ${at}`;

/** Why a LOT-DRAW-2 freeze is refused (decision 076): 503, nothing held, the game stays open. */
export const FREEZE_REFUSED: Record<FreezeRefusal, string> = {
  'no latest round':
    'Public randomness cannot be reached right now, so the game cannot freeze: nothing was held. Try again shortly',
  'round public':
    'The round this game would wait for is public already, so the game cannot freeze: nothing was held. Try again',
  'clock behind':
    "The server's clock is behind the public randomness beacon, so the draw cannot start safely: ask the administrator to set the server's time",
  'clock ahead':
    "The server's clock is ahead of the public randomness beacon, so the draw cannot start safely: ask the administrator to set the server's time",
  'too slow': 'Public randomness answered too slowly to freeze the game safely: nothing was held. Try again',
};

/** A witnessed freeze without its quorum in time (decision 080): who failed, and why. */
export const freezeNotWitnessed = (counted: number, quorum: number, failures: string) =>
  `The freeze was not witnessed in time (${counted} of the ${quorum} cosignatures it needs): ${failures}. Nothing was held: try again.`;

/** Every freeze refused after a witness said the game log forked (decision 080), the cause named. */
export const freezesRefusedForked = (reason: string) =>
  `Freezes are refused: ${reason}. The game log no longer matches what its witnesses saw; an admin must ` +
  'start a new log on purpose (a new LOG_ORIGIN, docs/deploy.md) before games can freeze again.';
