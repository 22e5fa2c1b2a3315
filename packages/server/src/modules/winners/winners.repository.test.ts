import { describe, expect, it } from 'vitest';
import { sqlOf, sqlOnly } from '../../test/sql-snapshots.ts';
import { activeGlobalWinners, activeOwnWinners, ownedBy, winnersQuery } from './winners.repository.ts';

/**
 * The winner configurations' statements: the ones a game copies (a player's own active ones, else
 * the global ones: docs/product/roles-and-scope.md#effective-winner-settings) and the admin's list
 * pages, so that a change to the order or a condition shows as a diff.
 */

describe('the SQL of the winners reads', () => {
  it("a player's own active configurations", () => {
    expect(sqlOf(winnersQuery(sqlOnly, activeOwnWinners(4)))).toMatchSnapshot();
  });

  it('the global active configurations', () => {
    expect(sqlOf(winnersQuery(sqlOnly, activeGlobalWinners()))).toMatchSnapshot();
  });

  it.each([
    ['everyone', undefined],
    ['one user', 4],
    ['the global ones', 'global'],
  ] as const)("the admin's list: %s", (_, owner) => {
    expect(sqlOf(winnersQuery(sqlOnly, ownedBy(owner), { limit: 20, offset: 40 }))).toMatchSnapshot();
  });
});
