import { z } from 'zod';

/** GET /api/log (docs/lot-draw-2.md#the-game-log): how anyone finds and checks the game log. */
export const gameLogInfoSchema = z.object({
  /** The checkpoints' origin line, LOG_ORIGIN: by default the public host plus `/games`. */
  origin: z.string(),
  /** The log's verifier key, C2SP signed-note form: `<name>+<hex key ID>+<base64(0x01 ‖ public key)>`. */
  vkey: z.string(),
  /** The latest checkpoint (C2SP tlog-checkpoint) signed as a C2SP signed note, as /log/checkpoint serves it. */
  checkpoint: z.string(),
});
export type GameLogInfo = z.infer<typeof gameLogInfoSchema>;
