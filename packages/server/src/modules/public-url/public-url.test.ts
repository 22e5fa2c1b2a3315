import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import type { PublicUrl } from '@lot/domain/schemas/public-url';
import { publicUrlRoutes } from './public-url.routes.ts';

/** The route alone (it reads no database), as buildApp registers it, behind `trustProxy`. */
async function ask(
  options: { publicUrl?: string; trustProxy?: boolean | string[] },
  headers: Record<string, string>,
  remoteAddress = '127.0.0.1',
) {
  const app = Fastify({ trustProxy: options.trustProxy ?? false });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(publicUrlRoutes, { publicUrl: options.publicUrl });
  const response = await app.inject({ method: 'GET', url: '/api/public-url', headers, remoteAddress });
  await app.close();
  expect(response.statusCode).toBe(200);
  expect(response.headers['cache-control']).toBe('no-store');
  return response.json<PublicUrl>();
}

describe('GET /api/public-url', () => {
  it('answers PUBLIC_URL when it is set, whatever address the request came in on', async () => {
    expect(
      await ask(
        { publicUrl: 'https://lot.example.com', trustProxy: true },
        { host: '127.0.0.1:3000', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' },
      ),
    ).toEqual({ publicUrl: 'https://lot.example.com', configured: true });
  });

  it('without PUBLIC_URL: the address the request came in on, its port kept', async () => {
    expect(await ask({}, { host: '192.168.1.20:3000' })).toEqual({
      publicUrl: 'http://192.168.1.20:3000',
      configured: false,
    });
  });

  it("believes a proxy's X-Forwarded-Host and -Proto only when TRUST_PROXY names the proxy", async () => {
    const forwarded = { host: '10.0.0.5:3000', 'x-forwarded-host': 'shop.example.com', 'x-forwarded-proto': 'https' };
    expect(await ask({ trustProxy: ['10.0.0.1'] }, forwarded, '10.0.0.1')).toEqual({
      publicUrl: 'https://shop.example.com',
      configured: false,
    });
    expect(await ask({ trustProxy: ['10.0.0.1'] }, forwarded, '10.0.0.9')).toEqual({
      publicUrl: 'http://10.0.0.5:3000',
      configured: false,
    });
    expect(await ask({}, forwarded, '10.0.0.1')).toEqual({ publicUrl: 'http://10.0.0.5:3000', configured: false });
  });
});
