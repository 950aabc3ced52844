import test from 'ava';
import type { ProjectEvent } from '../../journal/project-events.js';
import type { SettingsEvent } from '../../journal/settings-events.js';
import { evolveProjects, findProject, primaryFolderPath, type Projects } from '../../projections/projects.js';
import { evolveSettings, redact } from '../../projections/settings.js';
import { DEFAULT_SETTINGS } from '../../domain/settings.js';

// The two single streams' folds: projects (the primary folder follows the folders) and settings.

const fold = (...events: ProjectEvent[]): Projects => events.reduce(evolveProjects, new Map() as Projects);
const added: ProjectEvent = { type: 'ProjectAdded', data: { projectId: 'p', name: 'P', folders: [{ name: 'a', path: '/a' }, { name: 'b', path: '/b' }] } };

test('a project starts with its first folder primary, the default workflow and auto-merge off', (t) => {
  t.deepEqual(fold(added).get('p'), { id: 'p', name: 'P', folders: [{ name: 'a', path: '/a' }, { name: 'b', path: '/b' }], primaryFolder: 'a', defaultWorkflow: 'default', autoMerge: null });
});

test('auto-merge is chosen and turned off again', (t) => {
  const on = fold(added, { type: 'AutoMergeChosen', data: { projectId: 'p', autoMerge: { method: 'squash' } } });
  t.deepEqual(on.get('p')?.autoMerge, { method: 'squash' });
  t.is(fold(added, { type: 'AutoMergeChosen', data: { projectId: 'p', autoMerge: { method: 'squash' } } }, { type: 'AutoMergeChosen', data: { projectId: 'p', autoMerge: null } }).get('p')?.autoMerge, null);
});

test('removing the primary folder makes the first one left primary; a chosen one stays while it exists', (t) => {
  const chosen = fold(added, { type: 'PrimaryFolderChosen', data: { projectId: 'p', name: 'b' } });
  t.is(primaryFolderPath(chosen.get('p')!), '/b');
  const removed = fold(added, { type: 'PrimaryFolderChosen', data: { projectId: 'p', name: 'b' } }, { type: 'FolderRemoved', data: { projectId: 'p', name: 'b' } });
  t.is(removed.get('p')!.primaryFolder, 'a');
});

test('a project is found by id, else by name; events for an unknown project change nothing', (t) => {
  const ps = fold(added, { type: 'ProjectRenamed', data: { projectId: 'p', name: 'Renamed' } }, { type: 'ProjectRenamed', data: { projectId: 'zz', name: 'x' } });
  t.is(findProject(ps, 'p')?.name, 'Renamed');
  t.is(findProject(ps, 'Renamed')?.id, 'p');
  t.is(findProject(ps, 'zz'), undefined);
  t.is(ps.size, 1);
});

test('settings: each change lands on the defaults, a token regeneration changes nothing, and a token is never shown', (t) => {
  const source = { via: 'http' as const, sender: null };
  const events: SettingsEvent[] = [
    { type: 'SettingChanged', data: { change: { _tag: 'RunCap', cap: { _tag: 'Chosen', value: 2 } }, source } },
    { type: 'McpTokenRegenerated', data: { source } },
    { type: 'SettingChanged', data: { change: { _tag: 'CodeHostToken', token: 'secret' }, source } },
  ];
  const s = events.reduce(evolveSettings, DEFAULT_SETTINGS);
  t.deepEqual(s.runCap, { _tag: 'Chosen', value: 2 });
  t.is(s.codeHost.token, 'secret');
  t.deepEqual({ ...s, runCap: DEFAULT_SETTINGS.runCap, codeHost: DEFAULT_SETTINGS.codeHost }, DEFAULT_SETTINGS);
  t.deepEqual(redact({ _tag: 'CodeHostToken', token: 'secret' }), { _tag: 'CodeHostToken', token: '(set)' });
});
