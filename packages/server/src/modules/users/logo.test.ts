import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@lot/domain/messages';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { buildHierarchy, userRow, type Hierarchy, type Member } from '../../test/hierarchy.ts';
import { multipart, type FilePart } from '../../test/multipart.ts';
import { LOGO_MAX_BYTES } from '@lot/domain/schemas/users';

/** The profile page's logo: multipart PUT on oneself, checked by content, re-encoded, 5 MB at most. */

let t: TestApp;
let h: Hierarchy;
let png: Buffer;
let jpg: Buffer;
let gif: Buffer;
/** A real PNG of random pixels, stored uncompressed: just under 5 MB. */
let bigPng: Buffer;

beforeAll(async () => {
  t = await createTestApp();
  h = await buildHierarchy(t);
  const square = (background: string) => sharp({ create: { width: 64, height: 64, channels: 3, background } });
  png = await square('#f00').png().toBuffer();
  jpg = await square('#0f0').jpeg().toBuffer();
  gif = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#00f' } })
    .gif()
    .toBuffer();
  const [width, height] = [1200, 1440];
  bigPng = await sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
});
afterAll(() => t.close());

const file = (data: Buffer, filename = 'logo.png', contentType = 'image/png'): FilePart => ({
  filename,
  contentType,
  data,
});

/** Pads a file with trailing bytes to exactly `size`. */
const padTo = (data: Buffer, size: number) => Buffer.concat([data, Buffer.alloc(size - data.length)]);

function upload(caller: Member, target: Member, fields: Record<string, string>, files: Record<string, FilePart> = {}) {
  return t.request(caller.token, { method: 'PUT', url: `/api/users/${target.id}`, ...multipart(fields, files) });
}

const getLogo = (caller: Member, target: Member) =>
  t.request(caller.token, { method: 'GET', url: `/api/users/${target.id}/logo?t=${Date.now()}` });

async function expectLogo(caller: Member, target: Member) {
  const response = await getLogo(caller, target);
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('image/png');
  const metadata = await sharp(response.rawPayload).metadata();
  expect(metadata.format).toBe('png');
  return { bytes: response.rawPayload, metadata };
}

describe('uploading a logo to oneself', () => {
  it('a PNG, a JPG and a GIF are accepted, re-encoded as PNG and served back', async () => {
    for (const [data, filename, contentType, pixel] of [
      [png, 'logo.png', 'image/png', [255, 0, 0]],
      [jpg, 'photo.jpg', 'image/jpeg', [0, 255, 0]],
      [gif, 'anim.gif', 'image/gif', [0, 0, 255]],
    ] as const) {
      const response = await upload(
        h.U1,
        h.U1,
        { fullName: 'User One', shopName: 'Logo Shop' },
        {
          logo: file(data, filename, contentType),
        },
      );
      expect(response.statusCode, `${filename}: ${response.body}`).toBe(200);
      expect(response.json()).toMatchObject({
        message: 'Profile updated successfully',
        user: { id: h.U1.id, hasLogo: true, shopName: 'Logo Shop' },
      });
      const { bytes, metadata } = await expectLogo(h.U1, h.U1);
      // The colour survives the re-encoding (JPEG is lossy: close enough).
      const { data: raw } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      for (const [index, channel] of pixel.entries()) expect(Math.abs((raw[index] ?? 0) - channel)).toBeLessThan(8);
      if (filename === 'anim.gif') expect([metadata.width, metadata.height]).toEqual([512, 384]);
      else expect([metadata.width, metadata.height]).toEqual([64, 64]);
    }
    expect((await t.request(h.U1.token, { method: 'GET', url: `/api/users/${h.U1.id}` })).json()).toMatchObject({
      hasLogo: true,
    });
    const logo = await getLogo(h.U1, h.U1);
    expect(logo.headers['cache-control']).toContain('private');
  });

  it('the kind is read from the content, not the name: a GIF named logo.png is fine', async () => {
    const response = await upload(h.U2, h.U2, { fullName: 'User Two' }, { logo: file(gif, 'logo.png', 'image/png') });
    expect(response.statusCode, response.body).toBe(200);
    await expectLogo(h.U2, h.U2);
  });

  it('a text file named logo.png is 415 and changes nothing', async () => {
    const before = await userRow(t, h.U3.id);
    const text = Buffer.from('This is not an image, whatever its name says.\n'.repeat(20));
    const response = await upload(h.U3, h.U3, { fullName: 'Renamed Anyway' }, { logo: file(text) });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({
      message: MESSAGES.logoNotImage,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      fieldErrors: { logo: MESSAGES.logoNotImage },
      requestId: expect.any(String),
    });
    expect(await userRow(t, h.U3.id)).toEqual(before);
    expect((await getLogo(h.U3, h.U3)).statusCode).toBe(404);
  });

  it('a PNG signature on a body that is not a PNG is 415', async () => {
    const fake = Buffer.concat([png.subarray(0, 8), gif.subarray(8)]);
    const truncated = png.subarray(0, 40);
    for (const data of [fake, truncated]) {
      const response = await upload(h.U3, h.U3, {}, { logo: file(data) });
      expect(response.statusCode).toBe(415);
    }
    expect((await userRow(t, h.U3.id))?.hasLogo).toBe(false);
  });

  it('5 MB + 1 byte is 413 and the logo stays as it was', async () => {
    const before = await expectLogo(h.U1, h.U1);
    const oversize = padTo(png, LOGO_MAX_BYTES + 1);
    expect(oversize.length).toBe(5 * 1024 * 1024 + 1);
    const response = await upload(h.U1, h.U1, { fullName: 'Too Big' }, { logo: file(oversize) });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({
      message: MESSAGES.logoTooLarge,
      code: 'PAYLOAD_TOO_LARGE',
      requestId: expect.any(String),
    });
    const row = await userRow(t, h.U1.id);
    expect(row?.hasLogo).toBe(true);
    expect(row?.fullName).toBe('User One');
    expect((await expectLogo(h.U1, h.U1)).bytes.equals(before.bytes)).toBe(true);

    // Someone without a logo keeps none.
    const none = await upload(h.U4, h.U4, {}, { logo: file(padTo(bigPng, LOGO_MAX_BYTES + 1)) });
    expect(none.statusCode).toBe(413);
    expect((await userRow(t, h.U4.id))?.hasLogo).toBe(false);
  });

  it('a real image just under 5 MB, and one of exactly 5 MB, are accepted', async () => {
    expect(bigPng.length).toBeLessThan(LOGO_MAX_BYTES);
    expect(bigPng.length).toBeGreaterThan(LOGO_MAX_BYTES - 100_000);
    const response = await upload(h.U4, h.U4, {}, { logo: file(bigPng) });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ user: { hasLogo: true } });
    const { metadata } = await expectLogo(h.U4, h.U4);
    expect([metadata.width, metadata.height]).toEqual([427, 512]);

    const exact = await upload(h.U5, h.U5, {}, { logo: file(padTo(png, LOGO_MAX_BYTES)) });
    expect(exact.statusCode, exact.body).toBe(200);
    // Re-encoded: the padding is not stored.
    const { bytes } = await expectLogo(h.U5, h.U5);
    expect(bytes.length).toBeLessThan(10_000);
  });

  it('an image over the pixel limit is refused (415), however small the file', async () => {
    // 48 million pixels in a 60 kB file (the limit is 40 million).
    const bomb = await sharp({ create: { width: 8000, height: 6000, channels: 3, background: '#fff' } })
      .toColourspace('b-w')
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(bomb.length).toBeLessThan(LOGO_MAX_BYTES);
    const response = await upload(h.U3, h.U3, {}, { logo: file(bomb) });
    expect(response.statusCode).toBe(415);
    expect((await userRow(t, h.U3.id))?.hasLogo).toBe(false);
  });

  it('removeLogo=true clears it', async () => {
    expect((await upload(h.U2, h.U2, { fullName: 'User Two' }, { logo: file(png) })).statusCode).toBe(200);
    const response = await upload(h.U2, h.U2, { fullName: 'User Two', removeLogo: 'true' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ user: { hasLogo: false } });
    expect((await getLogo(h.U2, h.U2)).statusCode).toBe(404);
    expect((await getLogo(h.admin, h.U2)).statusCode).toBe(404);
    // As JSON too.
    expect((await upload(h.U2, h.U2, {}, { logo: file(jpg) })).statusCode).toBe(200);
    const json = await t.request(h.U2.token, {
      method: 'PUT',
      url: `/api/users/${h.U2.id}`,
      payload: { removeLogo: true },
    });
    expect(json.json()).toMatchObject({ user: { hasLogo: false } });
  });

  it('every role sets its own logo', async () => {
    for (const member of [h.admin, h.S1, h.A1]) {
      const response = await upload(member, member, { fullName: member.fullName }, { logo: file(png) });
      expect(response.statusCode, `${member.username}: ${response.body}`).toBe(200);
      expect(response.json()).toMatchObject({ user: { hasLogo: true } });
      await expectLogo(member, member);
    }
  });
});

describe('refused logo calls', () => {
  it("a logo for another user is 400, even from the admin or the user's own agent", async () => {
    for (const [caller, target] of [
      [h.admin, h.U3],
      [h.S1, h.U3],
      [h.A2, h.U3],
    ] as const) {
      const before = await userRow(t, target.id);
      const response = await upload(caller, target, { fullName: 'User Three' }, { logo: file(png) });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ fieldErrors: { logo: expect.any(String) } });
      const remove = await upload(caller, h.U1, { removeLogo: 'true' });
      expect(remove.statusCode).toBe(caller === h.A2 ? 404 : 400);
      expect(await userRow(t, target.id)).toEqual(before);
    }
    expect((await userRow(t, h.U1.id))?.hasLogo).toBe(true);
  });

  it('a logo that is not a file is 400', async () => {
    const asText = await upload(h.U3, h.U3, { logo: 'not a file' });
    expect(asText.statusCode).toBe(400);
    const asJson = await t.request(h.U3.token, {
      method: 'PUT',
      url: `/api/users/${h.U3.id}`,
      payload: { logo: png.toString('base64') },
    });
    expect(asJson.statusCode).toBe(400);
    expect(asJson.json()).toMatchObject({ fieldErrors: { logo: 'Logo must be a file' } });
  });

  it('multipart edits follow the same rules as JSON ones', async () => {
    const before = await userRow(t, h.U3.id);
    const attempts: Record<string, string>[] = [
      { role: 'admin' },
      { status: 'inactive' },
      { parentId: String(h.A1.id) },
      { balance: '100' },
    ];
    for (const fields of attempts) {
      const response = await upload(h.U3, h.U3, { fullName: 'Sneaky', ...fields }, { logo: file(png) });
      expect(response.statusCode, JSON.stringify(fields)).toBe(400);
    }
    expect(await userRow(t, h.U3.id)).toEqual(before);
    const response = await upload(h.U3, h.U3, { fullName: 'User Three', shopName: 'Three Shop' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ user: { fullName: 'User Three', shopName: 'Three Shop', hasLogo: false } });
  });

  it('the logo of a user out of scope is 404, as is one of a user who has none', async () => {
    const { S2, A1, A3, U1, U2, U5 } = h;
    for (const [caller, target] of [
      [S2, U1],
      [A3, U1],
      [U2, U1],
      [U5, U1],
    ] as const) {
      const response = await getLogo(caller, target);
      expect(response.statusCode, `${caller.username} → ${target.username}`).toBe(404);
      expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
    await expectLogo(A1, U1);
    expect((await getLogo(A1, U2)).statusCode).toBe(404);
    const other = await upload(U5, U1, { fullName: 'Hijack' }, { logo: file(png) });
    expect(other.statusCode).toBe(404);
  });

  it('needs a token', async () => {
    const response = await t.request(null, { method: 'GET', url: `/api/users/${h.U1.id}/logo` });
    expect(response.statusCode).toBe(401);
  });
});
