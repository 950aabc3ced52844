import { signal } from '@preact/signals';

// The current page's own title ("Runs · svc"); the shell puts the needs-you count in front of it.
export const pageTitle = signal('svc');
