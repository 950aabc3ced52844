import type { PageProps } from '../page-props.js';
import { Link } from '../ui/link.js';
import { PageHeading } from '../ui/page.js';

export const Page = (_: PageProps) => (
  <section>
    <PageHeading title="Not found" />
    <p>There is no page at <code>{location.pathname}</code>. <Link href="/">See the runs</Link>.</p>
  </section>
);
