import { createHash } from 'node:crypto';
import { formatCheckpoint } from '@lot/domain/tlog/checkpoint';
import { formatNote } from '@lot/domain/tlog/note';
import { ed25519NoteSigner } from './note-signer.ts';

/**
 * The game log's name and key (decision 081): LOG_ORIGIN, and the Ed25519 key derived from
 * LOG_KEY (or DATA_DIR/log-key), the same in every process. It signs the log's checkpoints (C2SP
 * tlog-checkpoint) as C2SP signed notes, under a key named after the origin.
 */
export type GameLogSigner = {
  origin: string;
  /** The verifier key, `<name>+<hex key ID>+<base64(0x01 ‖ public key)>`. */
  vkey: string;
  /** The checkpoint of a tree of `size` leaves with this root, as a signed note. */
  signCheckpoint(size: number, root: Uint8Array): string;
};

/** A command-line tool's: it appends leaves (they need no key) but signs nothing. */
export const unsignedGameLog: GameLogSigner = {
  origin: '',
  vkey: '',
  signCheckpoint: () => {
    throw new Error('a command-line tool does not sign the game log');
  },
};

/**
 * The Ed25519 seed of a LOG_KEY: SHA-256 of a fixed label and the key's UTF-8, so every process
 * given the same text signs with the same key, and the text itself never signs anything.
 */
export const logKeySeed = (logKey: string): Uint8Array =>
  new Uint8Array(createHash('sha256').update(`LOT game log key v1\n${logKey}`, 'utf8').digest());

export function gameLogSigner(logKey: string, origin: string): GameLogSigner {
  const signer = ed25519NoteSigner(origin, logKeySeed(logKey));
  return {
    origin,
    vkey: signer.vkey,
    signCheckpoint(size, rootHash) {
      const text = formatCheckpoint({ origin, size, rootHash });
      return formatNote({ text, signatures: [signer.sign(text)] });
    },
  };
}
