import { render } from 'preact';
import { App } from './app.js';
import { startSession } from './session.js';

// The browser app's entry: everything it shows from runs, agents, workflows and pull requests is
// rendered as text by Preact (never as HTML). In a window `svc app` opened, the one-time code is
// traded for the secret first, so the app's first /api call already carries it.
const root = document.getElementById('app')!;
void startSession().then((s) => {
  if (s.kind !== 'refused') return render(<App />, root);
  render(
    <main id="main">
      <h1>svc</h1>
      <p class="error" role="alert">This window could not sign in: {s.detail}</p>
    </main>,
    root,
  );
});
