import { toHex, webDrawCrypto } from './draw.ts';
import { buildProof, WORKED_EXAMPLE_2 } from './draw-example.ts';
import {
  endedLeafOf,
  frozenLeafOf,
  gameLogLeafBytes,
  gameLogLeafText,
  openedLeafOf,
  type GameLogLeaf,
} from './game-log.ts';
import { base64Encode } from './tlog/encoding.ts';
import { inclusionProof, leafHash, rootFromLeafHashes } from './tlog/merkle.ts';

/**
 * docs/lot-draw-2.md#the-game-log's worked example: the three leaves LOT-DRAW-2's worked example game
 * (EXAMPLE-3) writes into a game log that holds nothing else — opened, frozen, settled — their
 * hashes, the root of that three-leaf log, and the frozen leaf's inclusion proof. The unit tests
 * check that the page holds exactly this text.
 */
export async function gameLogExampleLeaves(): Promise<GameLogLeaf[]> {
  const proof = await buildProof(WORKED_EXAMPLE_2);
  return [openedLeafOf(proof), frozenLeafOf(proof), await endedLeafOf(proof, webDrawCrypto)];
}

export async function renderGameLogExample(): Promise<string> {
  const leaves = await gameLogExampleLeaves();
  const hashes = leaves.map((leaf) => leafHash(gameLogLeafBytes(leaf)));
  const proof = inclusionProof(1, hashes.length, (level, index) => {
    if (level !== 0) throw new Error('a three-leaf proof of leaf 1 reads leaves only');
    return hashes[index]!;
  });
  const blocks = leaves.map(
    (leaf, i) =>
      `Leaf ${i} (\`${leaf.event}\`):\n\n\`\`\`text\n${gameLogLeafText(leaf)}\`\`\`\n\n` +
      `\`\`\`text\nleaf hash ${i} = ${toHex(hashes[i]!)}\n\`\`\``,
  );
  return [
    ...blocks,
    'The log of these three leaves:',
    '```text\n' +
      `root (size 3)         = ${toHex(rootFromLeafHashes(hashes))}\n` +
      `checkpoint root line  = ${base64Encode(rootFromLeafHashes(hashes))}\n` +
      `inclusion proof of leaf 1 = [${proof.map((hash) => base64Encode(hash)).join(', ')}]\n` +
      '```',
  ].join('\n\n');
}
