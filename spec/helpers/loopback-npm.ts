// The real CLIs reach nothing beyond loopback, npm included. opencode runs an npm install of its
// plugin kit in its config folder at every start in a fresh home (measured: 64 MB from
// registry.npmjs.org, and 6 to 15 CPU s more for each turn that lasts). A registry on a closed
// loopback port fails that at once; each test points npm's cache into its own temp folder.
export const LOOPBACK_REGISTRY = 'http://127.0.0.1:9/';
