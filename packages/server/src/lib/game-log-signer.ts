/**
 * The game log's name and key (decision 081): LOG_ORIGIN, and the Ed25519 key derived from
 * LOG_KEY, the same in every process. It signs the log's checkpoints (C2SP tlog-checkpoint) as
 * C2SP signed notes.
 */
export type GameLogSigner = {
  origin: string;
  /** The verifier key, `<name>+<hex key ID>+<base64(0x01 ‖ public key)>`. */
  vkey: string;
  /** The checkpoint of a tree of `size` leaves with this root, signed. */
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

export function gameLogSigner(logKey: string, origin: string): GameLogSigner {
  void logKey;
  void origin;
  throw new Error('TODO: with the tlog primitives');
}
