import { join } from 'node:path';
import { left, right, type Either } from 'fp-ts/lib/Either.js';
import { invalid, type Outcome } from '../../commands/refusal.js';
import type { Store } from '../../journal/store.js';
import { packageRoot } from '../package-root.js';
import type { WorkflowListItem } from '../../domain/runs.js';
import { projectBase, workflowNameProblem, type PersonaSource } from './catalog-sources.js';
import { stepViews, type StepView } from './catalog-steps.js';
import { buildView, type View } from './catalog-view.js';
import type { ValidationResult } from './diagnostics.js';
import { parseDot } from './dot-graph.js';
import { createFolderWatch } from './folder-watch.js';
import type { HarnessName, Origin, Persona, Workflow } from '../../domain/workflow.js';
import { contentVersion } from './parse.js';
import { validateWorkflow } from './validate.js';

// The workflows and personas a project can use, from four origins (custom > project > home >
// shipped). Parsed results are cached per project and dropped whenever a watched folder changes,
// so edits on disk show up without a restart. Custom workflows live in the store and change only
// through this catalog, which drops the cache itself.

export interface ProjectRef {
  readonly primaryFolderPath: string;
  readonly defaultWorkflow: string;
}

export interface WorkflowRead {
  readonly name: string;
  readonly origin: Origin;
  readonly version: string;
  /** the workflow text with @prompt files inlined */
  readonly source: string;
  readonly steps: readonly StepView[];
}

export interface CatalogDeps {
  /** the service home (SVC_HOME); home workflows are in <home>/workflows, personas in <home>/personas */
  readonly home: string;
  readonly store: Pick<Store, 'db'>;
  /** Settings > General default harness, read when steps are shown */
  readonly defaultHarness?: () => HarnessName | undefined;
  readonly shippedWorkflowsDir?: string;
  readonly shippedPersonasDir?: string;
}

export interface Catalog {
  list(project: ProjectRef): WorkflowListItem[];
  /** undefined: no workflow of that name */
  load(project: ProjectRef, name: string): Either<ValidationResult, Workflow> | undefined;
  read(project: ProjectRef, name: string): WorkflowRead | undefined;
  validate(project: ProjectRef, name: string): ValidationResult | undefined;
  persona(project: ProjectRef, name: string): Persona | undefined;
  /** every persona a project (or, without one, any project) sees, each from its winning origin */
  personas(project?: ProjectRef): ReadonlyMap<string, PersonaSource>;
  /** stores a custom persona's text as is: callers check it first (lib/personas) */
  saveCustomPersona(name: string, text: string): void;
  /** false: there was no custom persona of that name */
  removeCustomPersona(name: string): boolean;
  /** saves even a workflow with errors (so it can be fixed), but never text that is not DOT */
  saveCustom(name: string, source: string, project?: ProjectRef): Outcome<ValidationResult>;
  /** false: there was no custom workflow of that name */
  removeCustom(name: string): boolean;
  /** validates text as the custom workflow `name` would be, without saving it (the editor's check as you type) */
  check(name: string, source: string, project?: ProjectRef): Outcome<ValidationResult>;
  /** told whenever a workflow or persona may read differently (a file changed, a custom one saved or removed) */
  onChange(listener: () => void): void;
  close(): Promise<void>;
}

export const CUSTOM_WORKFLOWS_DB = 'custom-workflows';
export const CUSTOM_PERSONAS_DB = 'custom-personas';
const MAX_SOURCE_CHARS = 512 * 1024;

export const createCatalog = (deps: CatalogDeps): Catalog => {
  const dirs = {
    home: deps.home,
    shippedWorkflows: deps.shippedWorkflowsDir ?? join(packageRoot(), 'lib/workflows/shipped'),
    shippedPersonas: deps.shippedPersonasDir ?? join(packageRoot(), 'lib/workflows/shipped-personas'),
  };
  const custom = deps.store.db<string>(CUSTOM_WORKFLOWS_DB);
  const customPersonas = deps.store.db<string>(CUSTOM_PERSONAS_DB);
  const views = new Map<string, View>();
  const listeners: (() => void)[] = [];
  const dropViews = (): void => {
    views.clear();
    for (const l of listeners) l();
  };
  const watch = createFolderWatch(dropViews);
  let closed = false;

  const watchedReady = (primary: string | undefined): boolean => {
    if (closed) return false;
    const home = watch.ensure('home', dirs.home, [join(dirs.home, 'workflows'), join(dirs.home, 'personas')]);
    if (primary === undefined) return home;
    const base = projectBase(primary);
    return watch.ensure(`project:${primary}`, base, [join(base, 'workflows'), join(base, 'personas')]) && home;
  };

  const viewOf = (primary: string | undefined): View => {
    const key = primary ?? '';
    const cached = views.get(key);
    if (cached) return cached;
    const ready = watchedReady(primary);
    const view = buildView(dirs, primary, { workflows: custom, personas: customPersonas });
    if (ready) views.set(key, view);
    return view;
  };

  return {
    list(project) {
      const view = viewOf(project.primaryFolderPath);
      return [...view.workflows.values()].sort((a, b) => a.name.localeCompare(b.name)).map((src) => {
        const draft = view.validated(src.name)?.draft;
        return {
          name: src.name,
          description: draft?.description ?? '',
          standing: src.name === project.defaultWorkflow ? 'default' : 'alternative',
          origin: src.origin,
          inputs: draft?.inputs ?? [],
          defaults: draft?.defaults ?? {},
        };
      });
    },
    load(project, name) {
      const v = viewOf(project.primaryFolderPath).validated(name);
      if (!v) return undefined;
      return v.workflow ? right(v.workflow) : left(v.result);
    },
    read(project, name) {
      const view = viewOf(project.primaryFolderPath);
      const src = view.workflows.get(name);
      const v = view.validated(name);
      if (!src || !v) return undefined;
      const source = v.draft?.source ?? src.source;
      const persona = (p: string) => view.personas.get(p)?.parsed.persona;
      const steps = v.workflow ? stepViews(v.workflow, persona, deps.defaultHarness?.()) : [];
      return { name, origin: src.origin, version: v.draft?.version ?? contentVersion(source), source, steps };
    },
    validate: (project, name) => viewOf(project.primaryFolderPath).validated(name)?.result,
    persona: (project, name) => viewOf(project.primaryFolderPath).personas.get(name)?.parsed.persona,
    personas: (project) => viewOf(project?.primaryFolderPath).personas,
    saveCustomPersona(name, text) {
      customPersonas.putSync(name, text);
      dropViews();
    },
    removeCustomPersona(name) {
      if (customPersonas.get(name) === undefined) return false;
      customPersonas.removeSync(name);
      dropViews();
      return true;
    },
    saveCustom(name, source, project) {
      const badName = workflowNameProblem(name);
      if (badName) return left(invalid(badName));
      if (source.length > MAX_SOURCE_CHARS) return left(invalid('workflow source is larger than 512 KiB'));
      const dot = parseDot(source);
      if (!dot.ok) return left(invalid(`not saved: not a DOT file: ${dot.message}`));
      custom.putSync(name, source);
      dropViews();
      const v = viewOf(project?.primaryFolderPath).validated(name);
      return v ? right(v.result) : left(invalid(`workflow ${name} was saved but cannot be read back`));
    },
    removeCustom(name) {
      if (custom.get(name) === undefined) return false;
      custom.removeSync(name);
      dropViews();
      return true;
    },
    check(name, source, project) {
      const badName = workflowNameProblem(name);
      if (badName) return left(invalid(badName));
      if (source.length > MAX_SOURCE_CHARS) return left(invalid('workflow source is larger than 512 KiB'));
      return right(validateWorkflow(source, { name, origin: 'custom', personas: viewOf(project?.primaryFolderPath).personaStatus }).result);
    },
    onChange(listener) {
      listeners.push(listener);
    },
    async close() {
      closed = true;
      dropViews();
      await watch.close();
    },
  };
};
