import type { RunDetail } from '../../../projections/run-shapes.js';
import { Link } from './link.js';

// A link to another run by its title, as a person knows it; the id (what an API or the CLI takes)
// in its tooltip. The title comes from the detail's `linked` (the server names the runs a detail
// points at), so a page need not read the whole board for it; an unknown run shows its id.

export const RunLink = ({ run, id }: { readonly run: RunDetail; readonly id: string }) => {
  const title = run.linked?.[id]?.title;
  return <Link href={`/runs/${encodeURIComponent(id)}`} title={`run ${id}`}>{title ?? id}</Link>;
};
