import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, concatBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import { base64Decode, base64Encode, TlogFormatError } from './encoding.ts';
import {
  ed25519NoteVerifier,
  formatNote,
  formatVerifierKey,
  keyIdOf,
  MAX_NOTE_SIGNATURES,
  type NoteVerifier,
  parseNote,
  parseSignatureLines,
  parseVerifierKey,
  SIG_TYPE_ED25519,
  verifyNote,
} from './note.ts';

// The example of C2SP signed-note's "Verifier keys" section, byte for byte.
const SPEC_VKEY = 'example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k';
const SPEC_NOTE =
  'This is an example message.\n\n' +
  '— example.com/foo Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n';
// The note at the head of the spec: its text holds a blank line of its own.
const QUASIMODO =
  'Ognuno sta solo sul cuor della terra\ntrafitto da un raggio di sole:\n\ned è subito sera.\n\n' +
  '— quasimodo.example/salvatore NnugSzTjtVAewIS+Z/iJhUPeFDkO/5QQ2i5ddnGITLlC+EhfLW9oJKONrMouFSQU0xMcXxj99ihAQwaqP3ZekRwNtIc=\n';

const secretOf = (label: string) => sha256(utf8ToBytes(label));
function keyOf(name: string, label = name) {
  const secret = secretOf(label);
  const publicKey = ed25519.getPublicKey(secret);
  const vkey = formatVerifierKey(name, SIG_TYPE_ED25519, publicKey);
  const keyId = keyIdOf(name, SIG_TYPE_ED25519, publicKey);
  const sign = (text: string) => ({ name, keyId, signature: ed25519.sign(utf8ToBytes(text), secret) });
  return { vkey, sign, verifier: ed25519NoteVerifier(vkey) };
}

describe('the spec example (signed-note "Verifier keys")', () => {
  it('the vkey parses, its key ID is SHA-256(name ‖ 0x0A ‖ 0x01 ‖ key)[:4], and it formats back', () => {
    const key = parseVerifierKey(SPEC_VKEY);
    expect(key.name).toBe('example.com/foo');
    expect(key.keyId).toBe(0x530d903a);
    expect(key.type).toBe(SIG_TYPE_ED25519);
    const digest = sha256(concatBytes(utf8ToBytes('example.com/foo\n'), new Uint8Array([1]), key.publicKey));
    expect(bytesToHex(digest.slice(0, 4))).toBe('530d903a');
    expect(formatVerifierKey(key.name, key.type, key.publicKey)).toBe(SPEC_VKEY);
  });

  it('every vkey formats and parses back, also when its base64 holds a plus', () => {
    let withPlus = 0;
    for (let i = 0; i < 64; i++) {
      const publicKey = ed25519.getPublicKey(secretOf(`key ${i}`));
      const vkey = formatVerifierKey(`w${i}.example/x`, SIG_TYPE_ED25519, publicKey);
      if (vkey.split('+').length > 3) withPlus++;
      expect(parseVerifierKey(vkey)).toEqual({
        name: `w${i}.example/x`,
        keyId: keyIdOf(`w${i}.example/x`, SIG_TYPE_ED25519, publicKey),
        type: SIG_TYPE_ED25519,
        publicKey,
      });
    }
    expect(withPlus).toBeGreaterThan(0);
  });

  it('verifies the example note, and formatting its parts gives back the same bytes', () => {
    const check = verifyNote(SPEC_NOTE, [ed25519NoteVerifier(SPEC_VKEY)]);
    expect(check.ok).toBe(true);
    if (!check.ok) return;
    expect(check.note.text).toBe('This is an example message.\n');
    expect(check.note.verified).toHaveLength(1);
    expect(formatNote(check.note)).toBe(SPEC_NOTE);
  });

  it('refuses the example note with one character of its text changed', () => {
    const check = verifyNote(SPEC_NOTE.replace('example message', 'example massage'), [ed25519NoteVerifier(SPEC_VKEY)]);
    expect(check).toMatchObject({ ok: false, reason: 'bad-signature' });
  });

  it('parses the head note: the text ends at the last blank line', () => {
    const note = parseNote(QUASIMODO);
    expect(note.text).toBe(
      'Ognuno sta solo sul cuor della terra\ntrafitto da un raggio di sole:\n\ned è subito sera.\n',
    );
    expect(note.signatures).toHaveLength(1);
    expect(note.signatures[0]!.name).toBe('quasimodo.example/salvatore');
    expect(note.signatures[0]!.signature).toHaveLength(64);
    expect(formatNote(note)).toBe(QUASIMODO);
    // Its key is not given in the spec: with only the example key pinned, nothing verifies it.
    expect(verifyNote(QUASIMODO, [ed25519NoteVerifier(SPEC_VKEY)])).toMatchObject({ ok: false, reason: 'unverified' });
  });
});

describe('verifying a note against pinned keys', () => {
  const log = keyOf('lot.example/games');
  const other = keyOf('auditor.example/w1');
  const text = 'lot.example/games\n3\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n';

  it('ignores signatures of unknown keys, verifies the known one, keeps the order', () => {
    const note = formatNote({ text, signatures: [other.sign(text), log.sign(text)] });
    const check = verifyNote(note, [log.verifier]);
    expect(check.ok && check.note.verified.map((v) => v.verifier.name)).toEqual(['lot.example/games']);
    const both = verifyNote(note, [log.verifier, other.verifier]);
    expect(both.ok && both.note.verified.map((v) => v.verifier.name)).toEqual([
      'auditor.example/w1',
      'lot.example/games',
    ]);
  });

  it('refuses a note with no known signature, and one whose known signature fails', () => {
    expect(verifyNote(formatNote({ text, signatures: [other.sign(text)] }), [log.verifier])).toMatchObject({
      ok: false,
      reason: 'unverified',
    });
    const forged = { ...log.sign(text), signature: other.sign(text).signature };
    expect(
      verifyNote(formatNote({ text, signatures: [forged, other.sign(text)] }), [log.verifier, other.verifier]),
    ).toMatchObject({
      ok: false,
      reason: 'bad-signature',
    });
  });

  it('a key that shares the name but not the ID (or the ID but not the name) is ignored, not failed', () => {
    const impostor = keyOf('lot.example/games', 'another secret');
    const note = formatNote({ text, signatures: [impostor.sign(text), log.sign(text)] });
    expect(verifyNote(note, [log.verifier]).ok).toBe(true);
    const renamed = { ...log.sign(text), name: 'lot.example/other' };
    expect(verifyNote(formatNote({ text, signatures: [renamed, log.sign(text)] }), [log.verifier]).ok).toBe(true);
  });

  it('signs and verifies the UTF-8 bytes of any text: accents, emoji, a blank line inside', () => {
    const poem = 'lot.example/games\nè 🎲 ü\n\nlast line\n';
    const check = verifyNote(formatNote({ text: poem, signatures: [log.sign(poem)] }), [log.verifier]);
    expect(check.ok && check.note.text).toBe(poem);
  });

  it('a verifier throws nothing on a signature of the wrong length', () => {
    const verifier: NoteVerifier = log.verifier;
    expect(verifier.verify(utf8ToBytes(text), new Uint8Array(63))).toBe(false);
    expect(verifier.verify(utf8ToBytes(text), new Uint8Array(64))).toBe(false);
  });
});

describe('strict parsing', () => {
  const log = keyOf('lot.example/games');
  const text = 'hello\n';
  const good = formatNote({ text, signatures: [log.sign(text)] });

  it.each([
    ['no blank line', good.replace('\n\n', '\n')],
    ['no signature', 'hello\n\n'],
    ['a missing final newline', good.slice(0, -1)],
    ['a hyphen for the em dash', good.replace('—', '-')],
    ['two spaces', good.replace('— ', '—  ')],
    ['a tab', good.replace('hello', 'hel\tlo')],
    ['a carriage return', good.replace('hello\n', 'hello\r\n')],
    ['a plus in the key name', good.replace('lot.example/games', 'lot.example+games')],
    ['a signature too short for a key ID', 'hello\n\n— a AAAA\n'],
    ['non-canonical base64', good.replace(/=\n$/, '\n')],
    ['URL-safe base64', 'hello\n\n— a ____AAAA\n'],
    ['a lone surrogate (no UTF-8 form)', good.replace('hello', 'hel\uD800lo')],
  ])('refuses %s', (_name, note) => {
    expect(() => parseNote(note)).toThrow(TlogFormatError);
    expect(verifyNote(note, [log.verifier])).toMatchObject({ ok: false, reason: 'malformed' });
  });

  it(`accepts up to ${MAX_NOTE_SIGNATURES} signatures and refuses more`, () => {
    const line = `— a ${base64Encode(new Uint8Array(68))}\n`;
    expect(parseSignatureLines(line.repeat(MAX_NOTE_SIGNATURES))).toHaveLength(MAX_NOTE_SIGNATURES);
    expect(() => parseSignatureLines(line.repeat(MAX_NOTE_SIGNATURES + 1))).toThrow(TlogFormatError);
  });

  it.each([
    ['two parts', 'example.com/foo+530d903a'],
    ['an upper-case key ID', SPEC_VKEY.replace('530d903a', '530D903A')],
    ['a wrong key ID', SPEC_VKEY.replace('530d903a', '530d903b')],
    ['a short key', 'example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U0='],
    ['an unknown signature type', formatVerifierKey('a', 0x02, new Uint8Array(32))],
    ['an empty name', '+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k'],
  ])('refuses a vkey with %s', (_name, vkey) => {
    expect(() => parseVerifierKey(vkey)).toThrow(TlogFormatError);
  });

  it('base64 is RFC 4648 standard padded, one spelling per value', () => {
    for (let n = 0; n < 40; n++) {
      const bytes = sha256(new Uint8Array([n])).slice(0, n % 33);
      expect(base64Decode(base64Encode(bytes))).toEqual(bytes);
    }
    expect(base64Encode(utf8ToBytes('foobar'))).toBe('Zm9vYmFy');
    expect(base64Encode(utf8ToBytes('fo'))).toBe('Zm8=');
    expect(() => base64Decode('Zm9=')).toThrow(TlogFormatError);
    expect(() => base64Decode('Zm8')).toThrow(TlogFormatError);
    expect(() => base64Decode('Zm8=\n')).toThrow(TlogFormatError);
  });
});
