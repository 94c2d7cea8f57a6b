import { describe, expect, test } from 'vitest';
import { pickPreviousRelease } from './pick-previous-release.ts';

describe('pickPreviousRelease', () => {
  test('takes the previous patch of the same minor', () => {
    expect(pickPreviousRelease('18.2.1', ['18.1.9', '18.2.0', '18.2.1', '19.0.0'])).toBe('18.2.0');
  });

  test('takes the last patch of the previous minor for a .0, never a pre-release or another major', () => {
    expect(pickPreviousRelease('3.5.0', ['2.9.9', '3.4.17', '3.4.18', '3.5.0-beta.1', '3.5.0', '3.5.1'])).toBe(
      '3.4.18',
    );
  });

  test('compares numerically, not as text', () => {
    expect(pickPreviousRelease('3.3.10', ['3.3.2', '3.3.9', '3.3.10'])).toBe('3.3.9');
  });

  test('gives undefined when the major line starts with the current release', () => {
    expect(pickPreviousRelease('1.0.0', ['0.0.39', '1.0.0'])).toBe(undefined);
  });
});
