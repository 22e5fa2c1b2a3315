import { z } from 'zod';

/** GET /api/log (docs/lot-draw-2.md#the-game-log): how anyone finds and checks the game log. */
export const gameLogInfoSchema = z.object({
  /** The checkpoints' origin line, LOG_ORIGIN: by default the public host plus `/games`. */
  origin: z.string(),
  /** The log's verifier key, C2SP signed-note form: `<name>+<hex key ID>+<base64(0x01 ‖ public key)>`. */
  vkey: z.string(),
  /** The latest checkpoint (C2SP tlog-checkpoint) signed as a C2SP signed note, as /log/checkpoint serves it. */
  checkpoint: z.string(),
  /**
   * The witnesses each freeze needs (DRAW_WITNESSES, decision 080): their key names and
   * cosignature/v1 verifier keys, for a verifier to pin (`?witness=`, `--witness`); empty when
   * freezes are not witnessed.
   */
  witnesses: z.array(z.object({ name: z.string(), vkey: z.string() })),
  /** How many of them must cosign a freeze (DRAW_WITNESS_QUORUM); 0 without witnesses. */
  quorum: z.number(),
});
export type GameLogInfo = z.infer<typeof gameLogInfoSchema>;
