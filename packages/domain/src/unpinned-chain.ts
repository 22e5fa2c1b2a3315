/**
 * What a LOT-DRAW-2 game on a chain other than drand quicknet says, on the verify page, the display,
 * the admin's dashboard and in the server's start-up log, instead of a bare "Not verified"
 * (decision 062). Apart from verify.ts so that a screen naming a chain loads no BLS code.
 */
export const UNPINNED_CHAIN = {
  before: 'Public randomness from chain ',
  after: ': not drand quicknet; pin it to check',
};

export const unpinnedChainText = (chainHash: string): string =>
  `${UNPINNED_CHAIN.before}${chainHash}${UNPINNED_CHAIN.after}`;
