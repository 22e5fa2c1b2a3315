import { describe, expect, it } from 'vitest';
import { SecretBox } from './secret-box.ts';

const KEY = 'a-totp-key-that-is-long-enough-0123456789';

describe('SecretBox', () => {
  it('opens what it sealed, for the same context, and nothing else', () => {
    const box = new SecretBox(KEY);
    const sealed = box.seal('JBSWY3DPEHPK3PXP', 'user_two_factor:7');
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(sealed).not.toBe(box.seal('JBSWY3DPEHPK3PXP', 'user_two_factor:7'));
    expect(box.open(sealed, 'user_two_factor:7')).toBe('JBSWY3DPEHPK3PXP');
    // Another row, another key, or one changed character: refused.
    expect(() => box.open(sealed, 'user_two_factor:8')).toThrow();
    expect(() => new SecretBox(`${KEY}!`).open(sealed, 'user_two_factor:7')).toThrow();
    const [version, iv, tag, body = ''] = sealed.split('.');
    const flipped = `${body[0] === 'A' ? 'B' : 'A'}${body.slice(1)}`;
    expect(() => box.open([version, iv, tag, flipped].join('.'), 'user_two_factor:7')).toThrow();
    expect(() => box.open('garbage', 'user_two_factor:7')).toThrow();
  });
});
