import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type ApiError } from '../api.js';
import { ErrorNote, Loading } from '../ui/page.js';

// The run's workflow drawn from its DOT by Graphviz (compiled to WebAssembly, @viz-js/viz), with
// the current step marked. viz is loaded when this tab is first shown: it is large, and no other
// view needs it. Graphviz escapes the text it draws; links a DOT may ask for (`href`, `URL`) are
// taken out, so a workflow can never put a javascript: link in the page.

export interface RunWorkflow {
  readonly name: string;
  readonly description: string;
  readonly source: string;
  readonly nodes: readonly { readonly id: string; readonly kind: string; readonly label?: string }[];
  readonly current: string | null;
  readonly jumpTargets: readonly string[];
}

type Viz = Awaited<ReturnType<typeof import('@viz-js/viz')['instance']>>;
let viz: Promise<Viz> | null = null;
const loadViz = (): Promise<Viz> => (viz ??= import('@viz-js/viz').then((m) => m.instance()));

const COLORS = { line: '#a3abbd', text: '#e6e8ee' };

const draw = (v: Viz, source: string, current: string | null): SVGSVGElement => {
  const svg = v.renderSVGElement(source, {
    graphAttributes: { bgcolor: 'transparent' },
    nodeAttributes: { color: COLORS.line, fontcolor: COLORS.text, fontname: 'sans-serif' },
    edgeAttributes: { color: COLORS.line, fontcolor: COLORS.text, fontname: 'sans-serif' },
  });
  for (const a of svg.querySelectorAll('a')) {
    a.removeAttribute('href');
    a.removeAttributeNS('http://www.w3.org/1999/xlink', 'href');
  }
  for (const g of svg.querySelectorAll('g.node')) {
    const id = g.querySelector('title')?.textContent ?? '';
    g.setAttribute('data-node', id);
    if (id === current) {
      g.classList.add('current');
      g.setAttribute('aria-current', 'step');
    }
  }
  // Its own size at most (width and height kept, the CSS lets it shrink to the page): a graph of a
  // few nodes scaled up to the page's width would be drawn a screen tall per node.
  svg.setAttribute('role', 'img');
  return svg;
};

export const WorkflowGraph = ({ runId, current }: { readonly runId: string; readonly current: string | null }) => {
  const [wf, setWf] = useState<RunWorkflow | null>(null);
  const [error, setError] = useState<ApiError | string | null>(null);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let live = true;
    api<RunWorkflow>(`runs/${encodeURIComponent(runId)}/workflow`).then((w) => { if (live) setWf(w); }, (e: ApiError) => { if (live) setError(e); });
    return () => { live = false; };
  }, [runId]);
  const marked = current ?? wf?.current ?? null;
  useEffect(() => {
    if (!wf || !box.current) return;
    let live = true;
    loadViz().then((v) => {
      if (!live || !box.current) return;
      const svg = draw(v, wf.source, marked);
      svg.setAttribute('aria-label', `Workflow ${wf.name}${marked ? `, now at step ${marked}` : ''}`);
      box.current.replaceChildren(svg);
    }).catch((e: Error) => { if (live) setError(`The workflow could not be drawn: ${e.message}`); });
    return () => { live = false; };
  }, [wf, marked]);
  if (error) return <ErrorNote error={error} />;
  if (!wf) return <Loading what="the workflow" />;
  return (
    <div class="wf">
      <p><strong>{wf.name}</strong>{wf.description ? <span class="muted"> · {wf.description}</span> : null}</p>
      <p class="muted">{marked ? <>Current step: <strong class="current-step">{marked}</strong></> : 'Not at a step.'}</p>
      <div class="wf-graph" ref={box} />
      <details>
        <summary>Source</summary>
        <pre class="source">{wf.source}</pre>
      </details>
    </div>
  );
};
