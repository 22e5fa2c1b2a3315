import { describe, expect, it } from 'vitest';
import page from '../../../docs/lot-draw-2.md?raw';
import { webDrawCrypto } from './draw.ts';
import { renderGameLogExample } from './game-log-example.ts';
import { gameLogLeafText, outcomeDigest, outcomeText } from './game-log.ts';

/** docs/lot-draw-2.md#the-game-log: the leaves' text, and the page's worked example. */

describe('a game log leaf', () => {
  it('is the header, the event and its fields, one per line, `-` for a value the game has not', () => {
    expect(
      gameLogLeafText({ event: 'opened', code: 'AbC-_9', protocol: 'LOT-DRAW-1', commitment: 'ff', chain: null }),
    ).toBe('lot-game-log/v1\nevent opened\ncode AbC-_9\nprotocol LOT-DRAW-1\ncommitment ff\nchain -\n');
    expect(
      gameLogLeafText({
        event: 'frozen',
        code: 'c',
        entriesDigest: 'aa',
        latestRound: 41,
        round: 42,
        chain: 'bb',
        frozenAt: '2026-01-01T00:00:00.000Z',
      }),
    ).toBe(
      'lot-game-log/v1\nevent frozen\ncode c\nentries-digest aa\nlatest-round 41\nround 42\nchain bb\nfrozen-at 2026-01-01T00:00:00.000Z\n',
    );
  });

  it('never writes a value with a blank or a line break: the text would read two ways', () => {
    for (const code of ['a b', 'a\nevent settled', '', 'tab\there'])
      expect(() => gameLogLeafText({ event: 'settled', code, outcome: '00', seed: '00' })).toThrow(/one token/);
  });

  it('hashes an outcome as its status and the numbers drawn, in order', async () => {
    expect(outcomeText('settled', [7, 3])).toBe('settled\n7,3\n');
    expect(outcomeText('discarded', [])).toBe('discarded\n\n');
    // SHA-256 of "voided\n\n".
    // SHA-256 of "voided\n\n", as `printf 'voided\n\n' | sha256sum` prints it.
    expect(await outcomeDigest('voided', [], webDrawCrypto)).toBe(
      '74323f30c90024c1614d044760b7cc782e0934ca713f1997471aec4f04c5bde9',
    );
  });
});

describe('docs/lot-draw-2.md', () => {
  it("holds exactly the game log's worked example the code computes", async () => {
    const match = /<!-- game-log-example:begin -->\n([\s\S]*?)\n<!-- game-log-example:end -->/.exec(page);
    expect(match?.[1]?.trim()).toBe((await renderGameLogExample()).trim());
  });
});
