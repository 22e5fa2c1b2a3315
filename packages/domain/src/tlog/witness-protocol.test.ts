import { describe, expect, it } from 'vitest';
import { base64Decode, TlogFormatError } from './encoding.ts';
import { COSIGNATURE_SIZE } from './cosignature.ts';
import {
  formatAddCheckpointRequest,
  MAX_PROOF_LINES,
  parseAddCheckpointRequest,
  parseCosignatureLines,
  parseTlogSize,
} from './witness-protocol.ts';

// The example request and response bodies of C2SP tlog-witness "add-checkpoint", byte for byte.
const SPEC_REQUEST = `old 20852014
PlRNCrwHpqhGrupue0L7gxbjbMiKA9temvuZZDDpkaw=
jrJZDmY8Y7SyJE0MWLpLozkIVMSMZcD5kvuKxPC3swk=
5+pKlUdi2LeF/BcMHBn+Ku6yhPGNCswZZD1X/6QgPd8=
/6WVhPs2CwSsb5rYBH5cjHV/wSmA79abXAwhXw3Kj/0=

example.com/behind-the-sofa
20852163
CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=

— example.com/behind-the-sofa Az3grlgtzPICa5OS8npVmf1Myq/5IZniMp+ZJurmRDeOoRDe4URYN7u5/Zhcyv2q1gGzGku9nTo+zyWE+xeMcTOAYQ8=
— example.com/behind-the-sofa opLqBQsREYCgu6xQkYQwJr9fo45a62DN9EdmHXnZdXNqlcVGlCum2Wks+49/V6267UEjw6QUXTS5Rovnzv++qbSzm9Q=
`;
const SPEC_RESPONSE = `— witness.example/w1 CMp+6LWBU0anHGH5aNDTJkH/gj79sG+T6+iP2ThYN5krrDJbR1HDnucjL39QsZTSvVjyQLrdk3DXDqI5G2HgLatVs0pWh6Up69HVOw==
— witness.example/w1 I7rEps0pvK2UqkS2gSpVUDhrhVtQV9lgF6pRrWAvjJHjyWpW7VcE3SiOlVlbQNt64vWhO+DlkL0+UfzuOBMh9ChdMkP1vi/lCAsmlw==
— witness.example/w2 AWui8Sk55XjYLOijihBjhqEH6nS1ndDymE0a+6idX7pLcnoB+dhnz0854aLZgrrKbYKA7nC3HNJhm/kWl7oJlqU3rXXvpysAdyP3wQ==
`;

describe('add-checkpoint bodies (C2SP tlog-witness)', () => {
  it("parses the spec's example request, and formats it back byte for byte", () => {
    const request = parseAddCheckpointRequest(SPEC_REQUEST);
    expect(request.oldSize).toBe(20_852_014);
    expect(request.proof).toHaveLength(4);
    expect(request.checkpoint).toMatchObject({ origin: 'example.com/behind-the-sofa', size: 20_852_163 });
    expect(request.note.signatures).toHaveLength(2);
    const signed = SPEC_REQUEST.slice(SPEC_REQUEST.indexOf('\n\n') + 2);
    expect(formatAddCheckpointRequest(request.oldSize, request.proof, signed)).toBe(SPEC_REQUEST);
  });

  it("parses the spec's example response: three cosignature lines of 4 + 8 + 64 bytes", () => {
    const lines = parseCosignatureLines(SPEC_RESPONSE);
    expect(lines.map((line) => line.name)).toEqual(['witness.example/w1', 'witness.example/w1', 'witness.example/w2']);
    // Their bytes are placeholders (the "timestamps" are past 2^53): the sizes are what is real.
    for (const line of lines) expect(line.signature).toHaveLength(COSIGNATURE_SIZE);
  });

  it('a request with no proof is old line, empty line, note', () => {
    const note = SPEC_REQUEST.slice(SPEC_REQUEST.indexOf('\n\n') + 2);
    expect(formatAddCheckpointRequest(0, [], note)).toBe(`old 0\n\n${note}`);
    expect(parseAddCheckpointRequest(`old 0\n\n${note}`).proof).toEqual([]);
  });

  it.each([
    ['no old line', SPEC_REQUEST.replace('old 20852014\n', '')],
    ['"old" with a leading zero', SPEC_REQUEST.replace('old 20852014', 'old 020852014')],
    ['"old" with two spaces', SPEC_REQUEST.replace('old ', 'old  ')],
    ['a proof line that is not a hash', SPEC_REQUEST.replace('PlRNCrwHpqhGrupue0L7gxbjbMiKA9temvuZZDDpkaw=', 'AAAA')],
    [
      '64 proof lines',
      SPEC_REQUEST.replace(
        'old 20852014\n',
        `old 1\n${'PlRNCrwHpqhGrupue0L7gxbjbMiKA9temvuZZDDpkaw=\n'.repeat(MAX_PROOF_LINES + 1)}`,
      ),
    ],
    ['no empty line', SPEC_REQUEST.replace('/0=\n\n', '/0=\n')],
    ['a note without signatures', SPEC_REQUEST.slice(0, SPEC_REQUEST.indexOf('—'))],
  ])('refuses a request with %s', (_name, body) => {
    expect(() => parseAddCheckpointRequest(body)).toThrow(TlogFormatError);
  });

  it('reads a 409 body strictly', () => {
    expect(parseTlogSize('20852014\n')).toBe(20_852_014);
    expect(parseTlogSize('0\n')).toBe(0);
    for (const bad of ['5', '05\n', '-1\n', '5 \n', '', '\n'])
      expect(() => parseTlogSize(bad)).toThrow(TlogFormatError);
  });

  it('formats only what the spec allows', () => {
    const hash = base64Decode('PlRNCrwHpqhGrupue0L7gxbjbMiKA9temvuZZDDpkaw=');
    expect(() => formatAddCheckpointRequest(-1, [], 'x')).toThrow(RangeError);
    expect(() => formatAddCheckpointRequest(1, Array(64).fill(hash), 'x')).toThrow(RangeError);
  });
});
