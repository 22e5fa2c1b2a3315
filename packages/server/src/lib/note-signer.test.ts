import { ed25519 } from '@noble/curves/ed25519.js';
import { formatCheckpoint } from '@lot/domain/tlog/checkpoint';
import { cosignatureVerifier, verifyCosignature } from '@lot/domain/tlog/cosignature';
import { EMPTY_ROOT } from '@lot/domain/tlog/merkle';
import { ed25519NoteVerifier, formatNote, formatSignatureLine, nobleEd25519, verifyNote } from '@lot/domain/tlog/note';
import { describe, expect, it } from 'vitest';
import { ed25519Cosigner, ed25519KeyFromSeed, ed25519NoteSigner, newEd25519Seed, nodeEd25519 } from './note-signer.ts';

describe("Node's Ed25519 signs what the domain's (browser) verifier accepts", () => {
  const text = formatCheckpoint({ origin: 'lot.example/games', size: 0, rootHash: EMPTY_ROOT });

  it('the public key of a seed is the RFC 8032 one (noble derives the same)', () => {
    for (let i = 0; i < 8; i++) {
      const seed = newEd25519Seed();
      expect(ed25519KeyFromSeed(seed).publicKey).toEqual(ed25519.getPublicKey(seed));
    }
    expect(() => ed25519KeyFromSeed(new Uint8Array(31))).toThrow(RangeError);
  });

  it('a log-signed checkpoint verifies against the signer vkey, and not another', () => {
    const signer = ed25519NoteSigner('lot.example/games', newEd25519Seed());
    const note = formatNote({ text, signatures: [signer.sign(text)] });
    expect(verifyNote(note, [ed25519NoteVerifier(signer.vkey)]).ok).toBe(true);
    const other = ed25519NoteSigner('lot.example/games', newEd25519Seed());
    expect(verifyNote(note, [ed25519NoteVerifier(other.vkey)])).toMatchObject({ ok: false, reason: 'unverified' });
  });

  it("a witness's cosignature verifies with its time, alone and appended to the note", () => {
    const log = ed25519NoteSigner('lot.example/games', newEd25519Seed());
    const witness = ed25519Cosigner('auditor.example/w1', newEd25519Seed());
    const line = formatSignatureLine(witness.cosign(text, 1_767_000_000));
    expect(verifyCosignature(line, text, witness.vkey)).toEqual({ timestamp: 1_767_000_000 });
    const note = formatNote({ text, signatures: [log.sign(text)] }) + line;
    const check = verifyNote(note, [ed25519NoteVerifier(log.vkey), cosignatureVerifier(witness.vkey)]);
    expect(check.ok && check.note.verified).toHaveLength(2);
  });
});

describe("Node's Ed25519 check (nodeEd25519) agrees with noble's", () => {
  it('on the signed-note spec example', () => {
    const vkey = 'example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k';
    const note =
      'This is an example message.\n\n— example.com/foo Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n';
    expect(verifyNote(note, [ed25519NoteVerifier(vkey, nodeEd25519)]).ok).toBe(true);
    expect(verifyNote(note.replace('example', 'exampel'), [ed25519NoteVerifier(vkey, nodeEd25519)]).ok).toBe(false);
  });

  it('on good and tampered signatures, wrong lengths and a key that is no point', () => {
    for (let i = 0; i < 32; i++) {
      const seed = newEd25519Seed();
      const publicKey = ed25519.getPublicKey(seed);
      const message = new Uint8Array([i, 1, 2, 3]);
      const good = ed25519.sign(message, seed);
      const bad = good.slice();
      bad[i]! ^= 1;
      for (const signature of [good, bad, good.slice(0, 63)]) {
        expect(nodeEd25519(publicKey)(signature, message)).toBe(nobleEd25519(publicKey)(signature, message));
      }
    }
    const noPoint = new Uint8Array(32).fill(0xff);
    expect(nodeEd25519(noPoint)(new Uint8Array(64), new Uint8Array(1))).toBe(false);
    expect(nodeEd25519(new Uint8Array(31))(new Uint8Array(64), new Uint8Array(1))).toBe(false);
  });
});
