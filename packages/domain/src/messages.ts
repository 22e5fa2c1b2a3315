/**
 * Every text a user reads in an answer or a form (decision 071): the quoted texts of
 * docs/product/validation-and-errors.md and of the feature pages. Users and tests read them, so they
 * live in one place; the server throws them by name, never as a literal.
 */
export const MESSAGES = {
  usernameRequired: 'Username is required',
  usernameMin: 'Username must be at least 3 characters',
  usernameChars: 'Username can only contain letters, numbers, and underscores',
  usernameMax: 'Username must be at most 50 characters',
  passwordRequired: 'Password is required',
  passwordMin: 'Password must be at least 6 characters',
  passwordMax: 'Password must be at most 128 characters',
  fullNameRequired: 'Full Name is required',
  fullNameMin: 'Full Name must be at least 2 characters',
  fullNameMax: 'Full Name must be at most 100 characters',
  shopNameMax: 'Shop Name must be at most 100 characters',
  parentRequired: 'Parent is required',
  superAgentRequired: 'Super Agent is required',
  roleInvalid: 'Role must be one of admin, superagent, agent or user',
  statusInvalid: 'Status must be active or inactive',
  parentInvalid: 'Parent must be a valid user id',
  currentPasswordRequired: 'Current Password is required',
  passwordBlank: 'Password cannot be only spaces',
  passwordsDoNotMatch: 'New passwords do not match',
  amountInvalid: 'Please enter a valid amount greater than 0',
  amountTooLarge: 'Amount must be at most 1,000,000,000.00',
  amountDecimals: 'Amount can have at most two decimals',
  receiverRequired: 'Please select a receiver',
  insufficientBalance: 'Insufficient balance',
  takeBackReasonRequired: 'A reason is required',
  takeBackAboveBalance: 'You cannot take back more than the balance',
  takeBackFromYourself: 'You cannot take back from yourself',
  usernameInUse: 'Username is already in use',
  loginFailed: 'Login failed',
  invalidCredentials: 'Invalid username or password',
  accountInactive: 'Your account is inactive. Please contact your administrator.',
  tooManyAttempts: 'Too many failed sign-in attempts. Please try again later.',
  sessionExpired: 'Your session has expired. Please sign in again.',
  forbidden: 'Forbidden',
  notFound: 'Not found',
  currentPasswordWrong: 'Current password is incorrect',
  profileUpdated: 'Profile updated successfully',
  passwordChanged: 'Password changed successfully',
  logoNotImage: 'Logo must be a JPG, PNG or GIF image',
  logoTooLarge: 'Logo must be 5 MB or smaller',
  bodyTooLarge: 'Request body is too large',
  nameRequired: 'Name is required',
  percentRequired: 'Percentage is required',
  percentRange: 'Percentage must be between 0 and 100',
  percentDecimals: 'Percentage can have at most two decimals',
  positionInvalid: 'Position must be a positive number',
  totalOver: 'Warning: Total exceeds 100%',
  totalUnder: 'Note: Total is less than 100%',
  participantNameRequired: 'Name is required',
  participantPhoneRequired: 'Phone Number is required',
  participantPhoneInvalid: 'Phone Number must have 7 to 15 digits (digits, spaces, + and - only)',
  rangeStartInvalid: 'Start must be a whole number from 1 to 99',
  rangeEndInvalid: 'End must be greater than the start and at most 100',
  betInvalid: 'Bet amount must be at least 1',
  betDecimals: 'Bet amount can have at most two decimals',
  gameNotFound: 'Game Not Found',
  noNumbersSelected: 'No numbers have been selected yet!',
  noWinnerSettings: 'No winner settings configured!',
  allWinnersDrawn: 'All winners have been drawn!',
  internalError: 'An unexpected error occurred. Please try again.',
  notReady: 'The service is not ready: the database did not answer',
  // Two-factor sign-in and sessions (docs/product/runtime-and-security.md#two-factor-sign-in)
  twoFactorCodeNeeded: 'Enter the code from your authenticator app',
  twoFactorCodeRequired: 'Code is required',
  twoFactorCodeInvalid: 'The code is not valid',
  twoFactorChallengeExpired: 'The sign-in took too long. Please sign in again.',
  twoFactorEnrolmentRequired: 'Your role requires two-factor sign-in. Set it up to continue.',
  twoFactorAlreadyOn: 'Two-factor sign-in is already on',
  twoFactorNotOn: 'Two-factor sign-in is not on',
  twoFactorNoEnrolment: 'Start the set-up again: no set-up is waiting for a code',
  twoFactorRequiredByRole: 'Your role requires two-factor sign-in: it cannot be turned off',
  twoFactorEnabled: 'Two-factor sign-in is on',
  twoFactorDisabled: 'Two-factor sign-in is off',
  twoFactorPolicySaved: 'Two-factor policy saved',
  sessionEnded: 'Session ended',
  otherSessionsEnded: 'Other sessions ended',
  signedOut: 'Signed out',
  // Backup keys (docs/product/runtime-and-security.md#backup-keys, decision 041)
  backupKeyNameRequired: 'Name is required',
  backupKeyNameMax: 'Name must be at most 60 characters',
  backupKeyNameInUse: 'A backup key with this name exists already',
  backupKeyCreated: 'Backup key created',
  backupKeyRevoked: 'Backup key revoked',
  backupKeyAlreadyRevoked: 'This backup key is revoked already',
  backupKeyInvalid: 'This backup key is not valid: it was revoked, or never existed',
  auditUsersOnly: 'Only the admin, super agents and agents read the audit trail',
  auditEmpty: 'No audit entries match these filters',
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
  operatorCannotVoidFrozen:
    'The draw has started, so its outcome is fixed: this game can no longer be voided by its shop. Ask your agent or an admin to finish or void it',
  clockBehindBeacon:
    "The server's clock is behind the public randomness beacon, so the draw cannot start safely: ask the administrator to set the server's time",
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
  shiftVarianceReasonRequired: 'Give a reason for the difference',
  shiftVarianceReasonMax: 'Reason must be at most 200 characters',
  shiftCashInvalid: 'Please enter a valid amount of 0 or more',
  // Prize claims (decision 038, docs/product/money.md#prize-claims)
  claimNotFound: 'Prize not found',
  claimUnknownEntry: 'No entry slip has this code',
  claimNoPrize: 'This entry won no prize',
  claimNotDrawn: 'This game has not been drawn yet',
  claimOtherShop: 'Only the shop that ran this game can pay this prize',
  claimNotPaid: 'This prize has not been paid',
  claimPaidCannotExtend: 'This prize was paid: its claim cannot be extended',
  claimBeforeClaims: 'This prize was won before prize claims existed: it cannot be paid or extended here',
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
/** `minute` is `YYYY-MM-DD HH:MM` in UTC. */
export const claimAlreadyPaid = (shop: string, minute: string) => `Already paid at ${shop} on ${minute}`;
/** `day` is `YYYY-MM-DD` in UTC. */
export const claimExpired = (day: string) => `This prize expired on ${day}`;
