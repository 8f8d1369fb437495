import { describe, expect, it } from 'vitest';
import { BYTE_ACCEPT_LIMIT, FaceSampler, faceOfByte } from './face-sampler.js';
import { cyclingByteSource, fixedByteSource } from './test-sources.js';

describe('FaceSampler (Art. 1.1: every face equally likely)', () => {
  it('maps the 252 accepted byte values onto the six faces exactly 42 times each', () => {
    const counts = [0, 0, 0, 0, 0, 0];
    for (let byte = 0; byte < BYTE_ACCEPT_LIMIT; byte++) counts[faceOfByte(byte) - 1]! += 1;
    expect(counts).toEqual([42, 42, 42, 42, 42, 42]);
  });

  it('is exactly unbiased on a byte source that cycles 0..255 (bulk path)', () => {
    const source = cyclingByteSource();
    const sampler = new FaceSampler(source, 1000); // a buffer size that does not divide 256
    const faces = new Uint8Array(252 * 100);
    sampler.fill(faces);
    const counts = [0, 0, 0, 0, 0, 0];
    for (const face of faces) counts[face - 1]! += 1;
    expect(counts).toEqual([4200, 4200, 4200, 4200, 4200, 4200]);
  });

  it('is exactly unbiased one face at a time, and agrees with the bulk path', () => {
    const one = new FaceSampler(cyclingByteSource(), 7);
    const bulk = new FaceSampler(cyclingByteSource(), 7);
    const singles = Array.from({ length: 252 * 3 }, () => one.next());
    const faces = new Uint8Array(252 * 3);
    bulk.fill(faces);
    expect(singles).toEqual([...faces]);
    const counts = [0, 0, 0, 0, 0, 0];
    for (const face of singles) counts[face - 1]! += 1;
    expect(counts).toEqual([126, 126, 126, 126, 126, 126]);
  });

  it('skips bytes 252..255 and keeps going with the next byte', () => {
    const sampler = new FaceSampler(fixedByteSource([252, 253, 254, 255, 5, 251, 0, 6]), 1);
    expect([sampler.next(), sampler.next(), sampler.next(), sampler.next()]).toEqual([6, 6, 1, 1]);
  });

  it('resumes where it stopped when bulk and single draws are mixed', () => {
    const sampler = new FaceSampler(fixedByteSource([0, 1, 2, 3, 4, 5]), 6);
    const faces = new Uint8Array(2);
    sampler.fill(faces);
    expect([...faces, sampler.next(), sampler.next()]).toEqual([1, 2, 3, 4]);
  });

  it('refuses a buffer that cannot hold a byte', () => {
    expect(() => new FaceSampler(cyclingByteSource(), 0)).toThrow(RangeError);
  });
});
