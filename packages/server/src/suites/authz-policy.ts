/**
 * The authorization policy as data (decision 011), written from the rules of docs/ARCHITECTURE.md
 * and, for the server-run game, docs/decisions/013-the-server-runs-every-game.md and LOT-DRAW-2's
 * rules of who draws and voids (decision 033) — not from the server code. The matrix suite
 * (authz-matrix.test.ts) runs every cell against the running server.
 *
 * A cell is call × caller × target. Targets are relations to the caller:
 *   self        the caller
 *   child       one level below (admin: a superagent; superagent: its agent; agent: its user)
 *   grandchild  two levels below (admin: an agent; superagent: a user under its agent)
 *   parent      the level above (superagent: the admin; agent: its superagent; user: its agent)
 *   sibling     the same level beside it (admin: another admin; superagent: another superagent;
 *               agent: another agent of the same superagent; user: another user of the same agent)
 *   other       a user in another superagent's subtree
 *   none        calls that name nobody
 * A relation missing from a row does not exist for that caller (a user has no child) or the
 * call cannot name it (no sales-history path for an admin).
 *
 * An expected outcome is a status, or for list calls 'listed' / 'absent' (a 200 whose array does
 * or does not contain the target), or for the game's draws and voids what the answer must say
 * (GameOutcome), or a refusal with the message the caller must read. Reading of
 * docs/product/roles-and-scope.md used throughout: a role check that fails
 * is 403; a path or body id outside the caller's scope is 404; a field the caller may not set is
 * 400; a refused delete of a user who still holds money is 409 (every target in the matrix holds
 * money, so an allowed delete is that 409 and the world stays whole).
 */

export type Relation = 'self' | 'child' | 'grandchild' | 'parent' | 'sibling' | 'other' | 'none';
export type SignedInRole = 'admin' | 'superagent' | 'agent' | 'user';
/** Callers without a valid session: no token, an expired token, the token of a deleted user. */
export type Unauthenticated = 'anonymous' | 'expired' | 'deleted';
/**
 * A game call that succeeds, and what its answer must say (the suite checks the body):
 *   waits          202: the game is frozen and waits for its beacon round R (the round named at the
 *                  freeze, its time, nothing drawn); a request that finds it waiting changes nothing
 *   draws          200: the position asked is drawn, from R's verified randomness
 *   answers again  200: a position already drawn is answered again (marked a replay), nothing changes
 *   discards       200: an open game ends as discarded (nothing was held), voided by the caller
 *   voids          200: a frozen game ends as voided by the caller, its pool back on the shop's balance
 */
export type GameOutcome = 'waits' | 'draws' | 'answers again' | 'discards' | 'voids';
/** A refusal whose message matters: the caller must read why and what to do. */
export type Refusal = { status: number; message: string };
export type Outcome = number | 'listed' | 'absent' | GameOutcome | Refusal;
export type Cells = Partial<Record<Relation, Outcome>>;

export type CallName =
  | 'get user'
  | 'list users'
  | 'list children of'
  | 'get balance of'
  | 'edit full name of'
  | 'change role of'
  | 'deactivate'
  | 'delete'
  | 'create user under'
  | 'top up'
  | 'transfer to'
  | 'decrease'
  | 'take back from'
  | 'take back without reason'
  | 'take back from the drawer of'
  | 'read winner settings of'
  | 'create winner setting for'
  | 'sales history of'
  | 'read game of'
  | 'record game for'
  | 'record unplayed game for'
  | 'read server game of'
  | 'list games of'
  | 'enter numbers in game of'
  | 'start draw in game of'
  | 'draw in waiting game of'
  | 'first draw after round of'
  | 'draw in drawing game of'
  | 'replay draw in game of'
  | 'void open game of'
  | 'void waiting game of'
  | 'void drawing game of'
  | 'verify game of'
  | 'print slip of'
  | 'read slips of'
  | 'day close of'
  | 'statement of'
  | 'downline of'
  | 'remembered participants'
  | 'display unknown code'
  | 'decrease without description'
  | 'open game'
  | 'current game'
  | 'verify unknown code'
  | 'game log'
  | 'game log checkpoint'
  | 'game log tile'
  | 'own balance'
  | 'transactions'
  | 'all winner settings'
  | 'sales filter'
  | 'search for'
  | 'search game of'
  | 'notifications'
  | 'backup'
  | 'audit trail'
  | 'audit export'
  | 'audit checkpoint'
  | 'look up prize of'
  | 'pay prize of'
  | 'read receipt of'
  | 'print receipt of'
  | 'extend prize of'
  | 'approve prize of'
  | 'mark prizes from before claims paid'
  | 'unpaid prizes'
  | 'unpaid prizes export'
  | 'business settings'
  | 'change business settings'
  | 'read shift of'
  | 'list shifts of'
  | 'export shifts'
  | 'shift summary'
  | 'current shift'
  | 'record cash movement on'
  | 'close shift of'
  | 'open shift';

/** Scope (docs/product/roles-and-scope.md#scope): admin everyone; superagent self + its agents + users under it or them; agent self + its users; user self. */
const inScope = {
  admin: { self: 200, child: 200, grandchild: 200, sibling: 200, other: 200 },
  superagent: { self: 200, child: 200, grandchild: 200, parent: 404, sibling: 404, other: 404 },
  agent: { self: 200, child: 200, parent: 404, sibling: 404, other: 404 },
  user: { self: 200, parent: 404, sibling: 404, other: 404 },
} as const satisfies Record<SignedInRole, Cells>;

const everyone = (status: number) => ({
  self: status,
  child: status,
  grandchild: status,
  parent: status,
  sibling: status,
  other: status,
});
const forbiddenTo = {
  superagent: everyone(403),
  agent: { self: 403, child: 403, parent: 403, sibling: 403, other: 403 },
  user: { self: 403, parent: 403, sibling: 403, other: 403 },
} as const;

/** The upline (or an admin) asking for a draw of a game that is still open. */
const UPLINE_CANNOT_START: Refusal = { status: 403, message: 'Only the shop that runs a game can start its draw' };
/** The shop voiding its own game once frozen. */
const SHOP_CANNOT_VOID_FROZEN: Refusal = {
  status: 403,
  message:
    'The draw has started, so its outcome is fixed: this game can no longer be voided by its shop. Ask your agent or an admin to finish or void it',
};

/** A shop paying a prize of a sibling shop's game while the admin's setting is off. */
const OTHER_SHOP: Refusal = { status: 403, message: 'Only the shop that ran this game can pay this prize' };

export const POLICY: Record<CallName, Record<SignedInRole, Cells>> = {
  'get user': inScope,

  // GET /api/users: the caller's scope; a user sees other active users of role user (transfer picker).
  'list users': {
    admin: { self: 'listed', child: 'listed', grandchild: 'listed', sibling: 'listed', other: 'listed' },
    superagent: {
      self: 'listed',
      child: 'listed',
      grandchild: 'listed',
      parent: 'absent',
      sibling: 'absent',
      other: 'absent',
    },
    agent: { self: 'listed', child: 'listed', parent: 'absent', sibling: 'absent', other: 'absent' },
    user: { self: 'absent', parent: 'absent', sibling: 'listed', other: 'listed' },
  },

  // GET /api/users/parent/{id}/role/user: the path id must be in scope.
  'list children of': inScope,

  // GET /api/balance/{id}: admin all, superagent and agent own scope, user self.
  'get balance of': inScope,

  // PUT /api/users/{id} { fullName }: admin anyone; superagent own scope; agent its users; everyone their own profile.
  'edit full name of': inScope,

  // PUT /api/users/{id} { role }: roles never change, whoever asks (400 in scope, 404 outside).
  'change role of': {
    admin: { self: 400, child: 400, grandchild: 400, sibling: 400, other: 400 },
    superagent: { self: 400, child: 400, grandchild: 400, parent: 404, sibling: 404, other: 404 },
    agent: { self: 400, child: 400, parent: 404, sibling: 404, other: 404 },
    user: { self: 400, parent: 404, sibling: 404, other: 404 },
  },

  // PUT /api/users/{id} { status: inactive }: in scope, but no one changes their own status.
  deactivate: {
    admin: { self: 400, child: 200, grandchild: 200, sibling: 200, other: 200 },
    superagent: { self: 400, child: 200, grandchild: 200, parent: 404, sibling: 404, other: 404 },
    agent: { self: 400, child: 200, parent: 404, sibling: 404, other: 404 },
    user: { self: 400, parent: 404, sibling: 404, other: 404 },
  },

  // DELETE /api/users/{id}: admin anyone but self; superagent own scope; agent direct users; user 403.
  // Every target holds money, so an allowed delete is refused with 409 and changes nothing.
  delete: {
    admin: { self: 403, child: 409, grandchild: 409, sibling: 409, other: 409 },
    superagent: { self: 403, child: 409, grandchild: 409, parent: 404, sibling: 404, other: 404 },
    agent: { self: 403, child: 409, parent: 404, sibling: 404, other: 404 },
    user: forbiddenTo.user,
  },

  // POST /api/users { role: user, parentId }: admin any superagent or agent as parent; superagent
  // self or its own agent; agent only itself (the parent is fixed: another is a field it may not set).
  'create user under': {
    admin: { self: 400, child: 201, grandchild: 201, sibling: 400, other: 400 },
    superagent: { self: 201, child: 201, grandchild: 400, parent: 404, sibling: 404, other: 404 },
    agent: { self: 201, child: 400, parent: 400, sibling: 400, other: 400 },
    user: forbiddenTo.user,
  },

  // POST /api/balance/topup: admin only.
  'top up': {
    admin: { self: 200, child: 200, grandchild: 200, sibling: 200, other: 200 },
    ...forbiddenTo,
  },

  // POST /api/balance/transfer: admin anyone active; superagent own scope; agent direct users; user
  // other active users of role user. Never to oneself (400).
  'transfer to': {
    admin: { self: 400, child: 200, grandchild: 200, sibling: 200, other: 200 },
    superagent: { self: 400, child: 200, grandchild: 200, parent: 404, sibling: 404, other: 404 },
    agent: { self: 400, child: 200, parent: 404, sibling: 404, other: 404 },
    user: { self: 400, parent: 404, sibling: 200, other: 200 },
  },

  // POST /api/balance/decrease: an admin correction of anyone's balance (decision 013); no one
  // else may decrease, not even their own balance (their games hold and settle pools themselves).
  decrease: {
    admin: { self: 200, child: 200, grandchild: 200, sibling: 200, other: 200 },
    ...forbiddenTo,
  },

  // The same without its required description: a bad body for the admin, the role rule first for the rest.
  'decrease without description': {
    admin: { self: 400, child: 400, grandchild: 400, sibling: 400, other: 400 },
    ...forbiddenTo,
  },

  // POST /api/balance/take-back (docs/product/money.md#take-back): admin from anyone, superagent and
  // agent from their scope; never from oneself (400); a user may not take back (403).
  'take back from': {
    admin: { self: 400, child: 200, grandchild: 200, sibling: 200, other: 200 },
    superagent: { self: 400, child: 200, grandchild: 200, parent: 404, sibling: 404, other: 404 },
    agent: { self: 400, child: 200, parent: 404, sibling: 404, other: 404 },
    user: forbiddenTo.user,
  },

  // The same without its required reason: a bad body for the roles that may, the role rule first for a user.
  'take back without reason': {
    admin: { self: 400, child: 400, grandchild: 400, sibling: 400, other: 400 },
    superagent: everyone(400),
    agent: { self: 400, child: 400, parent: 400, sibling: 400, other: 400 },
    user: forbiddenTo.user,
  },
  // The same from the drawer (decision 091): the take-back's rules first, then the target must be a
  // shop with an open shift (every user here has one): anyone else has no drawer, 409 NO_OPEN_SHIFT.
  'take back from the drawer of': {
    admin: { self: 400, child: 409, grandchild: 409, sibling: 409, other: 200 },
    superagent: { self: 400, child: 409, grandchild: 200, parent: 404, sibling: 404, other: 404 },
    agent: { self: 400, child: 200, parent: 404, sibling: 404, other: 404 },
    user: forbiddenTo.user,
  },

  // GET /api/winners/user/{id}: admin all; user own only; superagent and agent 403.
  'read winner settings of': {
    admin: { self: 200, child: 200, grandchild: 200, sibling: 200, other: 200 },
    ...forbiddenTo,
    user: { self: 200, parent: 403, sibling: 403, other: 403 },
  },

  // POST /api/winners { userId }: admin for any user of role user (another role is a bad field);
  // a user for itself only; superagent and agent 403.
  'create winner setting for': {
    admin: { self: 400, child: 400, grandchild: 400, sibling: 400, other: 201 },
    ...forbiddenTo,
    user: { self: 201, parent: 403, sibling: 403, other: 403 },
  },

  // GET /api/sales-history/{role}/{id} (the target's role in the path): admin all, superagent
  // and agent own scope, user own. Admins have no sales history path.
  'sales history of': {
    admin: { child: 200, grandchild: 200, other: 200 },
    superagent: { self: 200, child: 200, grandchild: 200, sibling: 404, other: 404 },
    agent: { self: 200, child: 200, parent: 404, sibling: 404, other: 404 },
    user: { self: 200, parent: 404, sibling: 404, other: 404 },
  },

  // GET /api/sales-history/{gameId} of a game the target played (only users play).
  'read game of': {
    admin: { other: 200 },
    superagent: { grandchild: 200, other: 404 },
    agent: { child: 200, other: 404 },
    user: { self: 200, sibling: 404, other: 404 },
  },

  // POST /api/sales-history, the compatibility path (decision 013): a user describing its own
  // settled server game exactly gets its record (200) and nothing changes; someone else's userId
  // is the role rule (403); other roles may not record games at all.
  'record game for': {
    ...forbiddenTo,
    admin: { self: 403, child: 403, grandchild: 403, sibling: 403, other: 403 },
    user: { self: 200, parent: 403, sibling: 403, other: 403 },
  },

  // The same body with a hand-picked drawn number: no server game matches it (422), never recorded.
  'record unplayed game for': {
    ...forbiddenTo,
    admin: { self: 403, child: 403, grandchild: 403, sibling: 403, other: 403 },
    user: { self: 422, parent: 403, sibling: 403, other: 403 },
  },

  // The server-run game (decision 013). Only users play; a game is read by its player and the
  // player's upline as recorded when it opened (admin all), like a sale. The targets are users.

  // GET /api/games/{id} of the target's game in progress: out of scope is 404.
  'read server game of': {
    admin: { other: 200 },
    superagent: { grandchild: 200, other: 404 },
    agent: { child: 200, other: 404 },
    user: { self: 200, sibling: 404, other: 404 },
  },

  // GET /api/games?status=settled: the target's settled game is listed only in the caller's scope.
  'list games of': {
    admin: { other: 'listed' },
    superagent: { grandchild: 'listed', other: 'absent' },
    agent: { child: 'listed', other: 'absent' },
    user: { self: 'listed', sibling: 'absent', other: 'absent' },
  },

  // PUT /api/games/{id}/entries: the player's own open game only. Another player's game is not
  // found (404) — a game id outside the caller's scope; the other roles never play (403).
  'enter numbers in game of': {
    admin: { other: 403 },
    superagent: { grandchild: 403, other: 403 },
    agent: { child: 403, other: 403 },
    user: { self: 200, sibling: 404, other: 404 },
  },

  // POST /api/games/{id}/draws and …/void, by the game's state (LOT-DRAW-2, decision 033). The shop
  // starts its draw: the first request freezes the game (entries fixed, pool held, beacon round R
  // named) and answers that it waits for R. Once frozen the outcome is fixed: the shop, its upline
  // (the agent or super agent the game was recorded under) and an admin may finish it; the shop may
  // no longer void it, its upline and an admin may (the pool goes back). Before the freeze the
  // upline may discard the game but not start its draw. A game outside the caller's scope is not
  // found (404), whoever asks. The targets are users; their game is in the state the call names:
  //   open      entries in, no draw asked
  //   waiting   frozen, R's time not come
  //   ready     frozen, R's time come, nothing drawn yet
  //   drawing   frozen, R known, position 1 drawn (two prizes: position 2 settles the game)
  'start draw in game of': {
    admin: { other: UPLINE_CANNOT_START },
    superagent: { grandchild: UPLINE_CANNOT_START, other: 404 },
    agent: { child: UPLINE_CANNOT_START, other: 404 },
    user: { self: 'waits', sibling: 404, other: 404 },
  },
  // Position 1 of a waiting game: everyone who may finish it hears that it waits, and nothing changes.
  'draw in waiting game of': {
    admin: { other: 'waits' },
    superagent: { grandchild: 'waits', other: 404 },
    agent: { child: 'waits', other: 404 },
    user: { self: 'waits', sibling: 404, other: 404 },
  },
  // Position 1 once R exists: R is fetched, verified and kept with the game, and the draw made.
  'first draw after round of': {
    admin: { other: 'draws' },
    superagent: { grandchild: 'draws', other: 404 },
    agent: { child: 'draws', other: 404 },
    user: { self: 'draws', sibling: 404, other: 404 },
  },
  // The next position (the last one: it settles the game).
  'draw in drawing game of': {
    admin: { other: 'draws' },
    superagent: { grandchild: 'draws', other: 404 },
    agent: { child: 'draws', other: 404 },
    user: { self: 'draws', sibling: 404, other: 404 },
  },
  // Position 1 of that game, drawn already: answered again to whoever may read it.
  'replay draw in game of': {
    admin: { other: 'answers again' },
    superagent: { grandchild: 'answers again', other: 404 },
    agent: { child: 'answers again', other: 404 },
    user: { self: 'answers again', sibling: 404, other: 404 },
  },
  'void open game of': {
    admin: { other: 'discards' },
    superagent: { grandchild: 'discards', other: 404 },
    agent: { child: 'discards', other: 404 },
    user: { self: 'discards', sibling: 404, other: 404 },
  },
  'void waiting game of': {
    admin: { other: 'voids' },
    superagent: { grandchild: 'voids', other: 404 },
    agent: { child: 'voids', other: 404 },
    user: { self: SHOP_CANNOT_VOID_FROZEN, sibling: 404, other: 404 },
  },
  'void drawing game of': {
    admin: { other: 'voids' },
    superagent: { grandchild: 'voids', other: 404 },
    agent: { child: 'voids', other: 404 },
    user: { self: SHOP_CANNOT_VOID_FROZEN, sibling: 404, other: 404 },
  },

  // GET /api/verify/{code}: the public proof, for anyone, signed in or not (names masked).
  'verify game of': {
    admin: { other: 200 },
    superagent: { grandchild: 200, other: 200 },
    agent: { child: 200, other: 200 },
    user: { self: 200, sibling: 200, other: 200 },
  },

  // Slips (decision 014): POST /api/games/{id}/slips/prints of the target's settled game (the
  // result slip) is the player's own game only, like a draw; GET …/slips reads the counts as the
  // game is read.
  'print slip of': {
    admin: { other: 403 },
    superagent: { grandchild: 403, other: 403 },
    agent: { child: 403, other: 403 },
    user: { self: 200, sibling: 404, other: 404 },
  },
  'read slips of': {
    admin: { other: 200 },
    superagent: { grandchild: 200, other: 404 },
    agent: { child: 200, other: 404 },
    user: { self: 200, sibling: 404, other: 404 },
  },

  // GET /api/reports/day-close?userId= (docs/product/money.md#day-close): a user in scope for the
  // upline and the admin (outside it 404); a user only their own (another user's is a role rule: 403).
  'day close of': {
    admin: { other: 200 },
    superagent: { grandchild: 200, other: 404 },
    agent: { child: 200, other: 404 },
    user: { self: 200, sibling: 403, other: 403 },
  },

  // GET /api/statements/{id} (docs/product/money.md#statements): read like a balance, the account's
  // owner, its upline in scope and the admin; outside the scope 404.
  'statement of': inScope,

  // GET /api/reports/downline?parentId= (docs/product/reports.md#downline-report): a super agent or an
  // agent in scope (oneself too); another role in scope is a bad parentId (400); outside the scope 404;
  // a user may not ask at all (403).
  'downline of': {
    admin: { self: 200, child: 200, grandchild: 200, sibling: 400, other: 400 },
    superagent: { self: 200, child: 200, grandchild: 400, parent: 404, sibling: 404, other: 404 },
    agent: { self: 200, child: 400, parent: 404, sibling: 404, other: 404 },
    user: forbiddenTo.user,
  },

  // Calls that name nobody.
  // GET /api/games/participants: the shop's own past participants.
  'remembered participants': {
    admin: { none: 403 },
    superagent: { none: 403 },
    agent: { none: 403 },
    user: { none: 200 },
  },
  // GET /api/display/{code}/events of a code no game has: 404 for everyone (public).
  'display unknown code': {
    admin: { none: 404 },
    superagent: { none: 404 },
    agent: { none: 404 },
    user: { none: 404 },
  },
  // POST /api/games: users open their own game (201); the other roles never play.
  'open game': { admin: { none: 403 }, superagent: { none: 403 }, agent: { none: 403 }, user: { none: 201 } },
  // GET /api/games/current: the user's game in progress.
  'current game': { admin: { none: 403 }, superagent: { none: 403 }, agent: { none: 403 }, user: { none: 200 } },
  // GET /api/verify/{code} of a code no game has: 404 for everyone.
  'verify unknown code': {
    admin: { none: 404 },
    superagent: { none: 404 },
    agent: { none: 404 },
    user: { none: 404 },
  },
  // The game log (decision 081): GET /api/log, /log/checkpoint and its tiles, the same for everyone.
  'game log': { admin: { none: 200 }, superagent: { none: 200 }, agent: { none: 200 }, user: { none: 200 } },
  'game log checkpoint': {
    admin: { none: 200 },
    superagent: { none: 200 },
    agent: { none: 200 },
    user: { none: 200 },
  },
  'game log tile': { admin: { none: 200 }, superagent: { none: 200 }, agent: { none: 200 }, user: { none: 200 } },
  'own balance': { admin: { none: 200 }, superagent: { none: 200 }, agent: { none: 200 }, user: { none: 200 } },
  transactions: { admin: { none: 200 }, superagent: { none: 200 }, agent: { none: 200 }, user: { none: 200 } },
  'all winner settings': { admin: { none: 200 }, superagent: { none: 403 }, agent: { none: 403 }, user: { none: 403 } },
  'sales filter': { admin: { none: 200 }, superagent: { none: 403 }, agent: { none: 403 }, user: { none: 403 } },

  // GET /api/search?q={username} (decision 022): people as the scope holds them, for every role
  // (a user finds only itself).
  'search for': {
    admin: { self: 'listed', child: 'listed', grandchild: 'listed', sibling: 'listed', other: 'listed' },
    superagent: {
      self: 'listed',
      child: 'listed',
      grandchild: 'listed',
      parent: 'absent',
      sibling: 'absent',
      other: 'absent',
    },
    agent: { self: 'listed', child: 'listed', parent: 'absent', sibling: 'absent', other: 'absent' },
    user: { self: 'listed', parent: 'absent', sibling: 'absent', other: 'absent' },
  },
  // GET /api/search?q={code} of the target's settled game: games as they are read (by the
  // hierarchy recorded with them).
  'search game of': {
    admin: { other: 'listed' },
    superagent: { grandchild: 'listed', other: 'absent' },
    agent: { child: 'listed', other: 'absent' },
    user: { self: 'listed', sibling: 'absent', other: 'absent' },
  },
  // GET /api/notifications (decision 022): one's own events, for every role.
  notifications: { admin: { none: 200 }, superagent: { none: 200 }, agent: { none: 200 }, user: { none: 200 } },
  // GET /api/admin/backup (decision 027): a copy of the whole database, the admin's only.
  backup: { admin: { none: 200 }, superagent: { none: 403 }, agent: { none: 403 }, user: { none: 403 } },
  // GET /api/audit and its export (decision 029): the admin, super agents and agents (each its own
  // hierarchy's entries); a plain user none.
  'audit trail': { admin: { none: 200 }, superagent: { none: 200 }, agent: { none: 200 }, user: { none: 403 } },
  'audit export': { admin: { none: 200 }, superagent: { none: 200 }, agent: { none: 200 }, user: { none: 403 } },
  // GET /api/audit/checkpoint (decision 045): the latest checkpoint's digest, the admin's only.
  'audit checkpoint': { admin: { none: 200 }, superagent: { none: 403 }, agent: { none: 403 }, user: { none: 403 } },

  // Prize claims (decision 038). The target's prize: position 1 of a game it played with every
  // number entered (a non-player names U1's). Only a shop looks up and pays prizes: its own game's,
  // a sibling shop's found but not payable (the admin's setting is off), another agent's not found.
  'look up prize of': {
    admin: { other: 403 },
    superagent: { grandchild: 403, other: 403 },
    agent: { child: 403, other: 403 },
    user: { self: 200, sibling: 200, other: 404 },
  },
  // U1 pays its own prize here (the receipts below are of that payout).
  'pay prize of': {
    admin: { other: 403 },
    superagent: { grandchild: 403, other: 403 },
    agent: { child: 403, other: 403 },
    user: { self: 200, sibling: OTHER_SHOP, other: 404 },
  },
  // A receipt is read (and its prints counted) by the game's shop, the payer and their hierarchy;
  // a prize not paid has none (409: U5's).
  'read receipt of': {
    admin: { grandchild: 200, other: 409 },
    superagent: { grandchild: 200, other: 404 },
    agent: { child: 200, other: 404 },
    user: { self: 200, sibling: 404, other: 404 },
  },
  'print receipt of': {
    admin: { grandchild: 200, other: 409 },
    superagent: { grandchild: 200, other: 404 },
    agent: { child: 200, other: 404 },
    user: { self: 200, sibling: 404, other: 404 },
  },
  // Only the admin extends a claim.
  'extend prize of': {
    admin: { other: 200 },
    superagent: { grandchild: 403, other: 403 },
    agent: { child: 403, other: 403 },
    user: { self: 403, sibling: 403, other: 403 },
  },
  // Only the admin approves paying a prize without an entry code (decision 086); every matrix
  // prize has one, so the admin's approval is refused (409) and changes nothing.
  'approve prize of': {
    admin: { other: 409 },
    superagent: { grandchild: 403, other: 403 },
    agent: { child: 403, other: 403 },
    user: { self: 403, sibling: 403, other: 403 },
  },
  // Only the admin marks the prizes won before claims paid (decision 060; none here: it marks 0).
  'mark prizes from before claims paid': {
    admin: { none: 200 },
    superagent: { none: 403 },
    agent: { none: 403 },
    user: { none: 403 },
  },
  // The Unpaid prizes list and its export: every role, its own scope.
  'unpaid prizes': { admin: { none: 200 }, superagent: { none: 200 }, agent: { none: 200 }, user: { none: 200 } },
  'unpaid prizes export': {
    admin: { none: 200 },
    superagent: { none: 200 },
    agent: { none: 200 },
    user: { none: 200 },
  },
  // The admin's business settings (claim period, who may pay).
  'business settings': { admin: { none: 200 }, superagent: { none: 403 }, agent: { none: 403 }, user: { none: 403 } },
  'change business settings': {
    admin: { none: 200 },
    superagent: { none: 403 },
    agent: { none: 403 },
    user: { none: 403 },
  },
  // Shifts (decision 039, docs/product/shifts.md). The targets are users with a shift open; a shift
  // is read like a game, by its shop and the hierarchy recorded with it (admin all).
  // GET /api/shifts/{id}/report of the target's shift.
  'read shift of': {
    admin: { other: 200 },
    superagent: { grandchild: 200, other: 404 },
    agent: { child: 200, other: 404 },
    user: { self: 200, sibling: 404, other: 404 },
  },
  // GET /api/shifts: the target's shift is listed only in the caller's reach.
  'list shifts of': {
    admin: { other: 'listed' },
    superagent: { grandchild: 'listed', other: 'absent' },
    agent: { child: 'listed', other: 'absent' },
    user: { self: 'listed', sibling: 'absent', other: 'absent' },
  },
  'export shifts': { admin: { none: 200 }, superagent: { none: 200 }, agent: { none: 200 }, user: { none: 200 } },
  // GET /api/shifts/summary: the upline's dashboard card.
  'shift summary': { admin: { none: 200 }, superagent: { none: 200 }, agent: { none: 200 }, user: { none: 403 } },
  // GET /api/shifts/current: a shop's own.
  'current shift': { admin: { none: 403 }, superagent: { none: 403 }, agent: { none: 403 }, user: { none: 200 } },
  // POST /api/shifts/{id}/movements (decision 091): only the shop records its drawer's cash movements;
  // its upline and the admin may read the shift but not record on it (403: an upline takes cash from
  // the drawer by a take-back from the drawer); outside the caller's reach it is not found (404).
  'record cash movement on': {
    admin: { other: 403 },
    superagent: { grandchild: 403, other: 404 },
    agent: { child: 403, other: 404 },
    user: { self: 201, sibling: 404, other: 404 },
  },
  // POST /api/shifts/{id}/close: only the shop closes its shift; its upline and the admin may read it
  // but not close it (403); outside the caller's reach it is not found (404). The shop's own close
  // succeeds (its game in progress ended first), so it comes before 'open shift', which then opens anew.
  'close shift of': {
    admin: { other: 403 },
    superagent: { grandchild: 403, other: 404 },
    agent: { child: 403, other: 404 },
    user: { self: 200, sibling: 404, other: 404 },
  },
  // POST /api/shifts: a shop opens its own shift; the other roles have no drawer.
  'open shift': { admin: { none: 403 }, superagent: { none: 403 }, agent: { none: 403 }, user: { none: 201 } },
};

/**
 * Where PostgreSQL answers otherwise: the server copies only the embedded database, and sends the
 * admin to pg_dump (`npm run backup`) on PostgreSQL (decision 027).
 */
export const ON_POSTGRES: Partial<Record<CallName, Partial<Record<SignedInRole, Cells>>>> = {
  backup: { admin: { none: 409 } },
};

/** Without a valid session every cell is 401, whatever the call and the target… */
export const UNAUTHENTICATED_STATUS = 401;
/** …except on the public calls, which answer the same whoever asks (a token is not even read). */
export const PUBLIC_CALLS: Partial<Record<CallName, Outcome>> = {
  'verify game of': 200,
  'verify unknown code': 404,
  'display unknown code': 404,
  'game log': 200,
  'game log checkpoint': 200,
  'game log tile': 200,
};
/** Calls that change nothing even when they succeed: the matrix checks every table after them too. */
export const PURE_CALLS: readonly CallName[] = ['record game for', 'draw in waiting game of', 'replay draw in game of'];
/** Reads that record themselves in the audit trail when they succeed: a copy of the database handed out (decision 041). */
export const AUDITED_READS: readonly CallName[] = ['backup'];

/** The status an outcome answers. */
export function statusOf(outcome: Outcome): number {
  if (typeof outcome === 'number') return outcome;
  if (typeof outcome === 'object') return outcome.status;
  return outcome === 'waits' ? 202 : 200;
}
export const UNAUTHENTICATED_CALLERS: Unauthenticated[] = ['anonymous', 'expired', 'deleted'];

/**
 * Bodies, not only statuses (decision 048): what the audit trail, the bell and the header search
 * show each viewer of one story, written from docs/product/runtime-and-security.md#audit-trail and
 * the rule games are read by (the hierarchy recorded with them). The story, on the matrix's tree
 * (S1 ─ A1 ─ U1, A2; S2 ─ A3 ─ U5): U5 pays U1 across branches; the admin creates a shop M under
 * A1 and tops it up; M opens a game and freezes it, the admin voids it; the admin moves M to A3;
 * then the same again under A3. A viewer sees an audit row when its actor or its target was in the
 * viewer's hierarchy as the row records it, and whoever of the two was not only as a masked name
 * (no id, no username, and no address when it is the actor): 'full' or 'masked', or 'absent'.
 */
export type ScopeViewer = 'admin' | 'S1' | 'A1' | 'A2' | 'S2' | 'A3';
export type ScopeEvent =
  | 'U5 pays U1'
  | 'admin creates M under A1'
  | 'admin acts on M under A1'
  | 'M plays under A1'
  | 'admin moves M from A1 to A3'
  | 'admin acts on M under A3'
  | 'M plays under A3';
type Shown = 'full' | 'masked';
export type AuditSight = { actor: Shown; target: Shown } | 'absent';

const FF = { actor: 'full', target: 'full' } as const;
const MF = { actor: 'masked', target: 'full' } as const;
const FM = { actor: 'full', target: 'masked' } as const;
const ONLY = (sights: Partial<Record<ScopeViewer, AuditSight>>): Record<ScopeViewer, AuditSight> => ({
  admin: FF,
  S1: 'absent',
  A1: 'absent',
  A2: 'absent',
  S2: 'absent',
  A3: 'absent',
  ...sights,
});

/** GET /api/audit: each row of the story as each viewer reads it. */
export const SCOPE_AUDIT: Record<ScopeEvent, Record<ScopeViewer, AuditSight>> = {
  // The payer is S2's, the payee S1's: each side sees its own in full and the other masked.
  'U5 pays U1': ONLY({ S1: MF, A1: MF, S2: FM, A3: FM }),
  // The admin is above everyone: masked to the hierarchy, which sees its own shop in full.
  'admin creates M under A1': ONLY({ S1: MF, A1: MF }),
  'admin acts on M under A1': ONLY({ S1: MF, A1: MF }),
  'M plays under A1': ONLY({ S1: FF, A1: FF }),
  // A move is both hierarchies'.
  'admin moves M from A1 to A3': ONLY({ S1: MF, A1: MF, S2: MF, A3: MF }),
  // After it, M's rows are its new hierarchy's only, as its games are; its old ones stay with A1.
  'admin acts on M under A3': ONLY({ S2: MF, A3: MF }),
  'M plays under A3': ONLY({ S2: FF, A3: FF }),
};

/**
 * GET /api/notifications: which of the story's events each one's bell holds (money received; a
 * game voided by someone else in the hierarchy recorded with it), the person in it in full: the
 * receiver of money is told who sent it, the upline whose shop's game was voided.
 */
export type BellEvent = 'U1 receives from U5' | 'M topped up' | 'M game voided under A1' | 'M game voided under A3';
export const SCOPE_BELL: Record<ScopeViewer | 'U1' | 'U5' | 'M', BellEvent[]> = {
  admin: [],
  S1: ['M game voided under A1'],
  A1: ['M game voided under A1'],
  A2: [],
  S2: ['M game voided under A3'],
  A3: ['M game voided under A3'],
  U1: ['U1 receives from U5'],
  U5: [],
  M: ['M topped up', 'M game voided under A1', 'M topped up', 'M game voided under A3'],
};

/** GET /api/search after the move: M by its username (people as the scope holds them now), and its two games by code. */
export const SCOPE_SEARCH: Record<ScopeViewer | 'M', { person: boolean; oldGame: boolean; newGame: boolean }> = {
  admin: { person: true, oldGame: true, newGame: true },
  S1: { person: false, oldGame: true, newGame: false },
  A1: { person: false, oldGame: true, newGame: false },
  A2: { person: false, oldGame: false, newGame: false },
  S2: { person: true, oldGame: false, newGame: true },
  A3: { person: true, oldGame: false, newGame: true },
  M: { person: true, oldGame: true, newGame: true },
};
