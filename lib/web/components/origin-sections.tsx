import type { ComponentChildren } from 'preact';

// Workflows and personas come from the same four places (custom, project, home, shipped): both
// pages list them grouped by origin, a titled section per origin that has any, in this order.

export interface OriginGroup<O extends string> {
  readonly origin: O;
  readonly title: string;
  readonly about: string;
}

export const OriginSections = <O extends string, T extends { readonly origin: O }>({ rows, groups, item }: {
  readonly rows: readonly T[];
  readonly groups: readonly OriginGroup<O>[];
  /** one `<li>` per row */
  readonly item: (row: T) => ComponentChildren;
}) => (
  <>
    {groups.map(({ origin, title, about }) => {
      const mine = rows.filter((r) => r.origin === origin);
      if (mine.length === 0) return null;
      return (
        <section key={origin} aria-labelledby={`origin-${origin}`}>
          <h2 id={`origin-${origin}`}>{title}</h2>
          <p class="muted about">{about}</p>
          <ul class="plain" aria-labelledby={`origin-${origin}`}>{mine.map(item)}</ul>
        </section>
      );
    })}
  </>
);
