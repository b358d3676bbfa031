/**
 * The add-on's released version, shown in Help. `npm run release` stamps it into the BUILT bundle
 * (tools/release/stamp.ts replaces this one literal, which it must find exactly once); a plain
 * `npm run build` keeps it, so a build that was never released says so.
 */
const RELEASE_STAMP = 'release-version:unreleased';

/** The released version (`0.2.0`), or null in a build that was not released. */
export function releasedVersion(): string | null {
  const v = RELEASE_STAMP.slice(RELEASE_STAMP.indexOf(':') + 1);
  return v === 'unreleased' ? null : v;
}
