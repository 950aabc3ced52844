// Stylesheets the app bundles as text (`import css from '….css' with { type: 'text' }`).
declare module '*.css' {
  const text: string;
  export default text;
}
