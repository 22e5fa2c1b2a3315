import { describe, expect, it } from 'vitest';
import { isUnreachableHost, publicLink } from './public-url.ts';

/** The host as `URL.hostname` gives it (lowercase, IPv6 in brackets, a mapped IPv4 address in hex). */
const hostOf = (url: string) => /^https?:\/\/(\[[^\]]+\]|[^:/]+)/.exec(url)?.[1] ?? '';

describe('isUnreachableHost', () => {
  it.each([
    'http://localhost:3000',
    'http://LOCALHOST',
    'http://shop.localhost',
    'http://127.0.0.1:3000',
    'http://127.8.9.10',
    'http://0.0.0.0:3000',
    'http://10.1.2.3',
    'http://172.16.0.1',
    'http://172.31.255.255',
    'http://192.168.1.20:3000',
    'http://169.254.10.20',
    'http://100.64.0.1',
    'http://[::1]:3000',
    'http://[::]:3000',
    'http://[fd12:3456::1]',
    'http://[fc00::1]',
    'http://[fe80::1]',
    'http://[::ffff:127.0.0.1]',
    'http://[::ffff:7f00:1]',
    'http://[::ffff:c0a8:1]',
  ])('%s: a phone off this network cannot reach it', (url) => {
    expect(isUnreachableHost(hostOf(url))).toBe(true);
  });

  it.each([
    'https://lot.example.com',
    'http://203.0.113.7:3000',
    'http://172.32.0.1',
    'http://172.15.0.1',
    'http://192.169.0.1',
    'http://100.128.0.1',
    'http://[2001:db8::1]',
    'http://[::ffff:808:808]',
    'http://localhost.example.com',
  ])('%s: a public address or name', (url) => {
    expect(isUnreachableHost(hostOf(url))).toBe(false);
  });
});

describe('publicLink', () => {
  it('joins the base and the path with one slash', () => {
    expect(publicLink('https://lot.example.com', '/verify/ABC')).toBe('https://lot.example.com/verify/ABC');
    expect(publicLink('https://lot.example.com/', '/verify/ABC')).toBe('https://lot.example.com/verify/ABC');
  });
});
