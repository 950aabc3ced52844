import { api, type CallOptions } from '../api.js';

// Every change this page sends names it as the sender (`svc-setting-source`), so a supervisor's
// journal, its chat and Settings' recent changes say where a change came from.
export const SOURCE = 'Supervisors page';

export const write = <T>(path: string, o: CallOptions): Promise<T> => api<T>(path, { ...o, headers: { ...o.headers, 'svc-setting-source': SOURCE } });
