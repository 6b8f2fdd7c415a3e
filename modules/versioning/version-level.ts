/** API version levels by name (spec part2 "API version levels"): `v1alpha1` alpha, `v2beta3` beta, `v1` stable. */

export type VersionLevel = 'alpha' | 'beta' | 'ga';

export function versionLevel(version: string): VersionLevel {
  if (version.includes('alpha')) return 'alpha';
  if (version.includes('beta')) return 'beta';
  return 'ga';
}
