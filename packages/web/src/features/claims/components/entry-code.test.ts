import { describe, expect, it } from 'vitest';
import { BAD_ENTRY_CODE, NOT_AN_ENTRY_SLIP, readScannedCode, readTypedCode, RESULT_SLIP } from './entry-code.ts';

describe('reading an entry slip', () => {
  it('takes the game and entry code from an entry slip’s QR code, whatever the origin', () => {
    expect(readScannedCode('https://shop.example/verify/AB12CD#n=0123456789ABCDEF')).toEqual({
      ok: true,
      key: { code: 'AB12CD', entry: '0123456789abcdef' },
    });
    expect(readScannedCode('http://127.0.0.1:3000/verify/xyz/#n=0123456789abcdef')).toMatchObject({ ok: true });
  });

  it('tells a result slip and any other QR code from an entry slip', () => {
    expect(readScannedCode('https://shop.example/verify/AB12CD')).toEqual({ ok: false, message: RESULT_SLIP });
    expect(readScannedCode('hello')).toEqual({ ok: false, message: NOT_AN_ENTRY_SLIP });
    expect(readScannedCode('https://shop.example/display/AB12CD#n=0123456789abcdef')).toEqual({
      ok: false,
      message: NOT_AN_ENTRY_SLIP,
    });
    expect(readScannedCode('https://shop.example/verify/AB12CD#n=0123')).toEqual({
      ok: false,
      message: NOT_AN_ENTRY_SLIP,
    });
  });

  it('takes a typed entry code as printed (in fours, any case) and refuses anything else', () => {
    expect(readTypedCode(' 0123 4567 89AB cdef ')).toEqual({
      ok: true,
      key: { code: null, entry: '0123456789abcdef' },
    });
    expect(readTypedCode('0123-4567-89ab-cdef')).toMatchObject({ ok: true });
    expect(readTypedCode('0123 4567 89ab cde')).toEqual({ ok: false, message: BAD_ENTRY_CODE });
    expect(readTypedCode('0123 4567 89ab cdeg')).toEqual({ ok: false, message: BAD_ENTRY_CODE });
  });
});
