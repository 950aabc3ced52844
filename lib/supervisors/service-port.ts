import type { ServiceApi } from '../service/api.js';
import type { ServiceCore } from '../service/core.js';

// What the supervisors act through: the facade's calls, as any door makes them, and the core they
// read their records and the runs from. The facade (lib/root/service.ts) is one.

export type SupervisorService = ServiceApi & { readonly core: ServiceCore };
