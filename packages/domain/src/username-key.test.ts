import { describe, expect, it } from 'vitest';
import { usernameKey } from './username-key.ts';

describe('usernameKey (decision 047)', () => {
  it.each([
    ['ADMIN', 'upper case'],
    ['Admin', 'mixed case'],
    ['adm\u0130n', 'the Turkish dotted capital İ'],
    ['ＡＤＭＩＮ', 'fullwidth capitals'],
    ['ａｄｍｉｎ', 'fullwidth letters'],
    ['admi\u0307n', 'i with a combining dot above'],
    ['ad\u200Bmin', 'a zero-width space inside'],
    ['\uFEFFadmin\u00AD', 'a byte-order mark and a soft hyphen'],
  ])('%s (%s) reads as admin', (variant) => {
    expect(usernameKey(variant)).toBe('admin');
  });

  it('keeps apart what reads differently', () => {
    expect(usernameKey('admin')).not.toBe(usernameKey('admín'));
    expect(usernameKey('adm\u0131n')).not.toBe('admin'); // dotless ı is another letter
    expect(usernameKey('user_1')).not.toBe(usernameKey('user_2'));
  });

  it('folds the final sigma, composes accents and unfolds ligatures', () => {
    expect(usernameKey('ΟΔΥΣΣΕΥΣ')).toBe(usernameKey('οδυσσευς'));
    expect(usernameKey('e\u0301mile')).toBe('émile');
    expect(usernameKey('\uFB01nance')).toBe('finance');
  });

  it('is stable: the key of a key is itself', () => {
    for (const name of ['adm\u0130n', 'ＡＤＭＩＮ', 'ΟΔΥΣΣΕΥΣ', 'e\u0301mile']) {
      expect(usernameKey(usernameKey(name))).toBe(usernameKey(name));
    }
  });
});
