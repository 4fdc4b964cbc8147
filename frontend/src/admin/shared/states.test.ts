import { describe, expect, it } from 'vitest';
import { notLicensedText, stateName, STATES } from './states';

describe('the states a ZIP code belongs to', () => {
  it("names a state by its two letters, in any case, and keeps a code it doesn't know", () => {
    expect(stateName('TX')).toBe('Texas');
    expect(stateName('dc')).toBe('District of Columbia');
    expect(stateName('PR')).toBe('Puerto Rico');
    expect(stateName('ZZ')).toBe('ZZ');
  });

  it("has wasm-core's 62 codes: the 50 states, DC, the territories and the armed forces", () => {
    const codes = STATES.map(([code]) => code);
    expect(codes).toHaveLength(62);
    expect(new Set(codes).size).toBe(62);
    expect(codes.every((code) => /^[A-Z]{2}$/.test(code))).toBe(true);
    expect(codes.slice(0, 51)).toContain('DC');
    expect(codes.indexOf('WY')).toBe(50);
  });

  it('words the badge of a state the broker is not licensed in', () => {
    expect(notLicensedText('TX')).toBe('Not licensed in Texas');
  });
});
