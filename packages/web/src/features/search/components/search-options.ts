import type { SearchGame, SearchPerson, SearchResult } from '@lot/domain/schemas/search';

/** One row of the header search's list: a person or a game, and the screen it opens. */
export type SearchOption =
  | { kind: 'person'; id: string; href: string; person: SearchPerson }
  | { kind: 'game'; id: string; href: string; game: SearchGame };

/**
 * The rows in list order, people first. A person opens their statement (every role may open one
 * in scope, docs/product/screens.md#statement); a game its public proof, which every game has
 * whatever its state.
 */
export function searchOptions(result: SearchResult | undefined): SearchOption[] {
  if (!result) return [];
  return [
    ...result.people.map((person): SearchOption => ({
      kind: 'person',
      id: `header-search-person-${person.id}`,
      href: `/statements/${person.id}`,
      person,
    })),
    ...result.games.map((game): SearchOption => ({
      kind: 'game',
      id: `header-search-game-${game.id}`,
      href: `/verify/${game.code}`,
      game,
    })),
  ];
}
