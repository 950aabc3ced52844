import { PageHeading } from './page.js';

// A page that is routed and reachable but not built yet (issue 12 builds them one by one).
export const Placeholder = ({ title, what }: { readonly title: string; readonly what: string }) => (
  <section aria-labelledby="page-title">
    <PageHeading title={title} />
    <p class="muted">{what}</p>
  </section>
);
