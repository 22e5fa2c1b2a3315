import { describe, expect, it } from 'vitest';
import { DEFAULT_PINS } from '@lot/domain/verify';
import { nonceFromFragment } from './verify-find-entry.tsx';
import { pinsFrom } from '../../../lib/game/verify-pins.ts';

const CHAIN = 'ab'.repeat(32);
const KEY = 'cd'.repeat(96);
const params = (query: string) => new URLSearchParams(query);

describe("the verify page's pins (docs/lot-draw-2.md, step 9)", () => {
  it('trusts drand quicknet alone unless the link pins a chain', () => {
    expect(pinsFrom(params(''))).toEqual({
      pins: DEFAULT_PINS,
      linked: null,
      refused: null,
      log: { log: null, witnesses: [] },
    });
  });

  it('pins a linked chain beside quicknet with all four figures', () => {
    const pins = pinsFrom(params(`chain=${CHAIN.toUpperCase()}&publicKey=${KEY}&genesisTime=1700000000&period=3`));
    expect(pins.refused).toBeNull();
    expect(pins.linked).toMatchObject({ chainHash: CHAIN, publicKey: KEY, genesisTime: 1_700_000_000, period: 3 });
    expect(pins.pins).toEqual([...DEFAULT_PINS, pins.linked]);
  });

  it('pins nothing from a link without the clock, or with a hash or key that is not one, and says why', () => {
    for (const query of [
      `chain=${CHAIN}&publicKey=${KEY}`,
      `chain=${CHAIN}&publicKey=${KEY}&genesisTime=1700000000&period=0`,
      `chain=${CHAIN}&publicKey=${KEY}&genesisTime=soon&period=3`,
      `chain=${CHAIN.slice(1)}&publicKey=${KEY}&genesisTime=1700000000&period=3`,
      `chain=${CHAIN}&genesisTime=1700000000&period=3`,
    ]) {
      const pins = pinsFrom(params(query));
      expect(pins.pins, query).toEqual(DEFAULT_PINS);
      expect(pins.linked, query).toBeNull();
      expect(pins.refused, query).toMatch(/^This link/);
    }
  });
});

describe("the verify page's game-log pins (docs/lot-draw-2.md#checking-the-game-log)", () => {
  it('reads ?log=, repeated ?witness= and ?quorum= beside the chain pins', () => {
    const pins = pinsFrom(params('log=lot.example%2Fgames%2Babcd&witness=a%2B1&witness=b%2B2&quorum=1'));
    expect(pins.log).toEqual({ log: 'lot.example/games+abcd', witnesses: ['a+1', 'b+2'], quorum: 1 });
    expect(pins.pins).toEqual(DEFAULT_PINS);
    expect(pinsFrom(params('witness=a%2B1&quorum=two')).log).toEqual({ log: null, witnesses: ['a+1'] });
  });
});

describe("a slip's entry code in the address's fragment", () => {
  it('is read from #n=, and is empty without one', () => {
    expect(nonceFromFragment('#n=0123456789abcdef')).toBe('0123456789abcdef');
    expect(nonceFromFragment('')).toBe('');
    expect(nonceFromFragment('#other=1')).toBe('');
  });
});
