// What the router hands every page (lib/web/routes.ts): its own file, so that pages and the
// routes table that loads them do not import each other.

export interface PageProps {
  /** the `:name` parts of the route's path, decoded */
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
}
