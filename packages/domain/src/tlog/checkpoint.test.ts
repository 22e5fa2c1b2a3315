import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import { formatCheckpoint, parseCheckpoint } from './checkpoint.ts';
import {
  COSIGNATURE_SIZE,
  cosignatureMessage,
  cosignatureVerifier,
  splitCosignature,
  timestampedSignature,
  verifyCosignature,
} from './cosignature.ts';
import { base64Decode, TlogFormatError } from './encoding.ts';
import {
  ed25519NoteVerifier,
  formatNote,
  formatSignatureLine,
  formatVerifierKey,
  keyIdOf,
  parseNote,
  parseSignatureLines,
  SIG_TYPE_COSIGNATURE_V1,
  SIG_TYPE_ED25519,
  verifyNote,
} from './note.ts';
import { EMPTY_ROOT } from './merkle.ts';

// The example of C2SP tlog-cosignature: a checkpoint with the log's signature and a witness's.
const SOFA =
  'example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n\n' +
  '— example.com/behind-the-sofa Az3grlgtzPICa5OS8npVmf1Myq/5IZniMp+ZJurmRDeOoRDe4URYN7u5/Zhcyv2q1gGzGku9nTo+zyWE+xeMcTOAYQ8=\n' +
  '— witness.example.com/w1 jWbPPwAAAABkGFDLEZMHwSRaJNiIDoe9DYn/zXcrtPHeolMI5OWXEhZCB9dlrDJsX3b2oyin1nPZqhf5nNo0xUe+mbIUBkBIfZ+qnA==\n';

describe('checkpoints (C2SP tlog-checkpoint)', () => {
  it('parses the spec example and formats it back to the same text', () => {
    const note = parseNote(SOFA);
    const checkpoint = parseCheckpoint(note.text);
    expect(checkpoint.origin).toBe('example.com/behind-the-sofa');
    expect(checkpoint.size).toBe(20_852_163);
    expect(checkpoint.rootHash).toEqual(base64Decode('CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I='));
    expect(formatCheckpoint(checkpoint)).toBe(note.text);
    expect(note.signatures.map((s) => s.name)).toEqual(['example.com/behind-the-sofa', 'witness.example.com/w1']);
  });

  it('keeps extension lines, and the empty tree has the empty root', () => {
    const text = formatCheckpoint({ origin: 'o', size: 0, rootHash: EMPTY_ROOT, extensions: ['x y', 'z'] });
    expect(text).toBe('o\n0\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\nx y\nz\n');
    expect(parseCheckpoint(text)).toEqual({ origin: 'o', size: 0, rootHash: EMPTY_ROOT, extensions: ['x y', 'z'] });
  });

  const root = 'CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=';
  it.each([
    ['two lines', `o\n1\n`],
    ['no final newline', `o\n1\n${root}`],
    ['an empty origin', `\n1\n${root}\n`],
    ['a leading zero', `o\n01\n${root}\n`],
    ['a sign', `o\n+1\n${root}\n`],
    ['a space after the size', `o\n1 \n${root}\n`],
    ['a size past 2^53', `o\n9007199254740993\n${root}\n`],
    ['a 31-byte root', `o\n1\n${bytesToHex(new Uint8Array(0))}AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n`],
    ['a hex root', `o\n1\n${'0'.repeat(64)}\n`],
    ['an empty extension line', `o\n1\n${root}\n\n`],
  ])('refuses %s', (_name, text) => {
    expect(() => parseCheckpoint(text)).toThrow(TlogFormatError);
  });
});

describe('cosignatures (C2SP tlog-cosignature, cosignature/v1)', () => {
  it("reads the spec example's witness line: key ID, then time 1679315147, then 64 signature bytes", () => {
    const witness = parseNote(SOFA).signatures[1]!;
    expect(witness.keyId).toBe(0x8d66cf3f);
    expect(witness.signature).toHaveLength(COSIGNATURE_SIZE);
    expect(splitCosignature(witness.signature)?.timestamp).toBe(1_679_315_147);
  });

  it('signs the message of the spec, byte for byte', () => {
    const text = parseNote(SOFA).text;
    expect(cosignatureMessage(text, 1_679_315_147)).toEqual(
      utf8ToBytes(
        'cosignature/v1\ntime 1679315147\nexample.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n',
      ),
    );
  });

  const secret = sha256(utf8ToBytes('witness secret'));
  const publicKey = ed25519.getPublicKey(secret);
  const name = 'auditor.example/w1';
  const vkey = formatVerifierKey(name, SIG_TYPE_COSIGNATURE_V1, publicKey);
  const keyId = keyIdOf(name, SIG_TYPE_COSIGNATURE_V1, publicKey);
  const text = formatCheckpoint({ origin: 'lot.example/games', size: 5, rootHash: sha256(utf8ToBytes('r')) });
  const cosign = (timestamp: number, body = text) =>
    formatSignatureLine({
      name,
      keyId,
      signature: timestampedSignature(timestamp, ed25519.sign(cosignatureMessage(body, timestamp), secret)),
    });

  it('a witness vkey has type 0x04 and a key ID computed with it', () => {
    expect(vkey.startsWith(`${name}+`)).toBe(true);
    expect(base64Decode(vkey.slice(vkey.indexOf('+', name.length + 1) + 1))[0]).toBe(0x04);
    expect(keyId).not.toBe(keyIdOf(name, SIG_TYPE_ED25519, publicKey));
    expect(() => ed25519NoteVerifier(vkey)).toThrow(TlogFormatError);
    expect(() => cosignatureVerifier(formatVerifierKey(name, SIG_TYPE_ED25519, publicKey))).toThrow(TlogFormatError);
  });

  it('verifies a cosignature and returns its time; another time, checkpoint or key fails', () => {
    const line = cosign(1_700_000_000);
    expect(verifyCosignature(line, text, vkey)).toEqual({ timestamp: 1_700_000_000 });
    const [parsed] = parseSignatureLines(line);
    // The time is signed: moving it by one second breaks the signature.
    const moved = timestampedSignature(1_700_000_001, parsed!.signature.slice(8));
    expect(verifyCosignature({ ...parsed!, signature: moved }, text, vkey)).toBeNull();
    expect(verifyCosignature(line, text.replace('\n5\n', '\n6\n'), vkey)).toBeNull();
    const otherKey = formatVerifierKey(name, SIG_TYPE_COSIGNATURE_V1, ed25519.getPublicKey(sha256(utf8ToBytes('x'))));
    expect(verifyCosignature(line, text, otherKey)).toBeNull();
    expect(verifyCosignature('— garbage', text, vkey)).toBeNull();
  });

  it('a witness answer appended to the log-signed checkpoint verifies with verifyNote', () => {
    const logSecret = sha256(utf8ToBytes('log secret'));
    const logVkey = formatVerifierKey('lot.example/games', SIG_TYPE_ED25519, ed25519.getPublicKey(logSecret));
    const logKeyId = keyIdOf('lot.example/games', SIG_TYPE_ED25519, ed25519.getPublicKey(logSecret));
    const signed = formatNote({
      text,
      signatures: [
        { name: 'lot.example/games', keyId: logKeyId, signature: ed25519.sign(utf8ToBytes(text), logSecret) },
      ],
    });
    const cosigned = signed + cosign(1_700_000_000);
    const check = verifyNote(cosigned, [ed25519NoteVerifier(logVkey), cosignatureVerifier(vkey)]);
    expect(check.ok && check.note.verified.map((v) => v.verifier.name)).toEqual(['lot.example/games', name]);
    // A cosignature of another checkpoint, appended here, fails the whole note.
    const stale = signed + cosign(1_700_000_000, text.replace('\n5\n', '\n4\n'));
    expect(verifyNote(stale, [ed25519NoteVerifier(logVkey), cosignatureVerifier(vkey)])).toMatchObject({
      ok: false,
      reason: 'bad-signature',
    });
  });

  it('refuses timestamps that are not 8 + 64 bytes or exceed 2^53 − 1', () => {
    expect(splitCosignature(new Uint8Array(71))).toBeNull();
    const huge = new Uint8Array(72);
    huge[0] = 0x7f;
    expect(splitCosignature(huge)).toBeNull();
    expect(() => timestampedSignature(-1, new Uint8Array(64))).toThrow(RangeError);
    expect(() => cosignatureMessage('no newline', 1)).toThrow(TlogFormatError);
  });
});
