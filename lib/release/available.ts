import type { PackageId } from './package-name.js';
import type { ReleaseFeedSetting } from '../../domain/settings.js';
// What /api/health says about releases, and which feed the settings choose.

export type Available =
  | { readonly _tag: 'UpToDate'; readonly running: string }
  | { readonly _tag: 'NewerRelease'; readonly running: string; readonly latest: string }
  | { readonly _tag: 'Unknown'; readonly running: string; readonly reason: string };

export type FeedChoice = { readonly _tag: 'Off'; readonly why: string } | { readonly _tag: 'Url'; readonly url: string };

export const NPM_REGISTRY = 'https://registry.npmjs.org';

export const registryFeedUrl = (packageName: string): string => `${NPM_REGISTRY}/${packageName.replace('/', '%2F')}`;

// SVC_RELEASE_FEED replaces the *default* feed only ("off", or a URL): the test suite sets it to
// "off" so no test server ever reaches the registry, while a feed chosen in Settings still wins.
// A package marked private was never published: the registry document of its name belongs to
// another project, so there is no default feed to read and health says so instead of guessing.
export const effectiveFeed = (setting: ReleaseFeedSetting, pkg: PackageId, env: NodeJS.ProcessEnv = process.env): FeedChoice => {
  if (!setting.enabled) return { _tag: 'Off', why: 'the release check is turned off in Settings (ReleaseFeed)' };
  if (setting.url) return { _tag: 'Url', url: setting.url };
  const override = env['SVC_RELEASE_FEED']?.trim();
  if (override === 'off') return { _tag: 'Off', why: 'the release check is turned off (SVC_RELEASE_FEED=off)' };
  if (override) return { _tag: 'Url', url: override };
  if (pkg.unpublished) return { _tag: 'Off', why: `this copy of ${pkg.name} is not published to a registry; set a ReleaseFeed url to check one` };
  return { _tag: 'Url', url: registryFeedUrl(pkg.name) };
};
