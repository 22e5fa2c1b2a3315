import sharp from 'sharp';
import { AppError } from '@lot/domain/errors';
import { MESSAGES } from '@lot/domain/messages';
import { LOGO_MAX_BYTES } from '@lot/domain/schemas/users';

/** Decoding a small file into a huge bitmap is a memory attack: cap the pixels. */
const MAX_INPUT_PIXELS = 40_000_000;
const OUTPUT_SIZE = 512;

const SIGNATURES: { format: 'png' | 'jpeg' | 'gif'; bytes: number[] }[] = [
  { format: 'png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { format: 'jpeg', bytes: [0xff, 0xd8, 0xff] },
  { format: 'gif', bytes: [0x47, 0x49, 0x46, 0x38] },
];

function sniff(data: Buffer) {
  return SIGNATURES.find((s) => s.bytes.every((byte, i) => data[i] === byte))?.format;
}

/**
 * Checks a logo by its content (never its name), then re-encodes it: whatever the upload
 * carried besides pixels (metadata, trailing bytes, a polyglot payload) does not survive.
 */
export async function processLogo(data: Buffer): Promise<{ data: Buffer; mimeType: string }> {
  if (data.length > LOGO_MAX_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', MESSAGES.logoTooLarge);
  const format = sniff(data);
  if (!format)
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', MESSAGES.logoNotImage, {
      fieldErrors: { logo: MESSAGES.logoNotImage },
    });
  try {
    const image = sharp(data, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' });
    const metadata = await image.metadata();
    // The header and the decoder must agree: a PNG signature on a GIF body is not a PNG.
    if (metadata.format !== format) throw new Error('format mismatch');
    const output = await image
      .rotate()
      .resize(OUTPUT_SIZE, OUTPUT_SIZE, { fit: 'inside', withoutEnlargement: true })
      .png()
      .toBuffer();
    return { data: output, mimeType: 'image/png' };
  } catch {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', MESSAGES.logoNotImage, {
      fieldErrors: { logo: MESSAGES.logoNotImage },
    });
  }
}
