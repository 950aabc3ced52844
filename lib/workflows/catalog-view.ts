import type { Database, Key } from 'lmdb';
import {
  personaFolders, readCustom, readCustomPersonas, readPersonaFolder, readWorkflowFolder, workflowFolders, type PersonaSource, type WorkflowSource,
} from './catalog-sources.js';
import { validateWorkflow, type Validated } from './validate.js';

// Everything one project can see, merged by precedence (custom > project > home > shipped):
// workflow sources, personas, and each workflow's validation, computed when first asked for.

export interface CatalogDirs {
  readonly home: string;
  readonly shippedWorkflows: string;
  readonly shippedPersonas: string;
}

export interface View {
  readonly workflows: ReadonlyMap<string, WorkflowSource>;
  readonly personas: ReadonlyMap<string, PersonaSource>;
  /** persona name → null when it loads, or why it does not */
  readonly personaStatus: ReadonlyMap<string, string | null>;
  validated(name: string): Validated | undefined;
}

export interface CustomDbs {
  readonly workflows: Database<string, Key>;
  readonly personas: Database<string, Key>;
}

export const buildView = (dirs: CatalogDirs, primaryFolderPath: string | undefined, custom: CustomDbs): View => {
  const personas = new Map<string, PersonaSource>();
  const workflows = new Map<string, WorkflowSource>();
  // Without a project (saving a custom workflow) only home and shipped apply.
  const skipProject = (o: { origin: string }) => primaryFolderPath !== undefined || o.origin !== 'project';
  personaFolders(dirs.shippedPersonas, dirs.home, primaryFolderPath ?? '').filter(skipProject).forEach((o) => readPersonaFolder(o, personas));
  workflowFolders(dirs.shippedWorkflows, dirs.home, primaryFolderPath ?? '').filter(skipProject).forEach((o) => readWorkflowFolder(o, workflows));
  readCustomPersonas(custom.personas, personas);
  readCustom(custom.workflows, workflows);
  const personaStatus = new Map([...personas].map(([name, p]) => [name, p.parsed.problems.length ? p.parsed.problems.join('; ') : null]));
  const memo = new Map<string, Validated>();
  return {
    workflows,
    personas,
    personaStatus,
    validated(name) {
      const src = workflows.get(name);
      if (!src) return undefined;
      const hit = memo.get(name);
      if (hit) return hit;
      const v = validateWorkflow(src.source, { name, origin: src.origin, ...(src.files ? { files: src.files } : {}), personas: personaStatus });
      memo.set(name, v);
      return v;
    },
  };
};
