import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveTotpKey } from '../secrets.ts';
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

describe('resolveTotpKey', () => {
  it('uses TOTP_KEY when set, else generates one into DATA_DIR (owner only) and keeps it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lot-totp-'));
    try {
      expect(resolveTotpKey(KEY, dir)).toBe(KEY);
      const generated = resolveTotpKey(undefined, dir);
      expect(generated.length).toBeGreaterThanOrEqual(32);
      expect(readFileSync(join(dir, 'totp-key'), 'utf8').trim()).toBe(generated);
      expect(statSync(join(dir, 'totp-key')).mode & 0o777).toBe(0o600);
      expect(resolveTotpKey(undefined, dir)).toBe(generated);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
